import APISupport
import APITargets
import APITransport
/// What `apicli load` runs: the targets with their weights, the load model, and when to stop.
package struct LoadPlan: Sendable {
    package enum Model: Sendable, Equatable {
        /// `users` virtual users, each sending one request after another (its own `Caller`:
        /// its needs run once, its captures are its own), pausing `think` seconds between them.
        case closed(users: Int, think: Double)
        /// Requests start on `schedule` whether or not earlier ones came back, at most
        /// `maxInFlight` at once (a start waits for a slot, late against its schedule).
        case open(RateSchedule, maxInFlight: Int)
    }

    package struct Item: Sendable {
        package var service: Service
        package var target: Target
        package var weight: Int

        package init(service: Service, target: Target, weight: Int) {
            (self.service, self.target, self.weight) = (service, target, weight)
        }
    }

    package var items: [Item]
    package var model: Model
    /// Seconds after which nothing new starts (nil: until `requests`).
    package var duration: Double?
    /// Requests after which nothing new starts (nil: until `duration`).
    package var requests: Int?

    package init(items: [Item], model: Model, duration: Double?, requests: Int?) {
        (self.items, self.model, self.duration, self.requests) = (items, model, duration, requests)
    }

    package static let maxUsers = 100_000
    package static let maxRequests = 1_000_000_000
    /// The most bytes of a response body a run holds (`load --max-body`): only what `until:` judges
    /// and `needs:` capture from is held; every other body is counted as it comes and dropped.
    package static let defaultMaxBody: Int64 = 1 << 20

    /// Indices into `items`, each as often as its weight, spread evenly (smooth weighted round
    /// robin): request k of a user or of the schedule sends `order[k % order.count]`.
    package var order: [Int] {
        let weights = items.map { max($0.weight, 1) }
        let total = weights.reduce(0, +)
        var current = [Int](repeating: 0, count: weights.count)
        var out: [Int] = []
        out.reserveCapacity(total)
        for _ in 0..<total {
            for i in weights.indices { current[i] += weights[i] }
            var best = 0
            for i in weights.indices where current[i] > current[best] { best = i }
            current[best] -= total
            out.append(best)
        }
        return out
    }

    /// This shard's share (`index` of `count`): users or the rate, and the requests, split as
    /// evenly as whole numbers allow (the first shards take one more).
    package func share(_ shard: Shard) -> LoadPlan {
        func part(_ n: Int) -> Int { n / shard.count + (shard.index <= n % shard.count ? 1 : 0) }
        var plan = self
        switch model {
        case let .closed(users, think): plan.model = .closed(users: part(users), think: think)
        case let .open(schedule, maxInFlight):
            let k = Double(shard.count)
            var s = schedule
            s.stages = s.stages.map { .init(from: $0.from / k, to: $0.to / k, duration: $0.duration) }
            s.hold /= k
            plan.model = .open(s, maxInFlight: max(1, part(maxInFlight)))
        }
        plan.requests = requests.map(part)
        return plan
    }
}

extension LoadPlan {
    /// Seconds from `30`, `1.5`, `800ms`, `2s`, `1m` (as durations in target files).
    package static func seconds(_ text: String) -> Double? { NodeReader.seconds(text.trimmingSpaces()) }
}
