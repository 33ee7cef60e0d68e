/// What `apicli load` runs: the targets with their weights, the load model, and when to stop.
public struct LoadPlan: Sendable {
    public enum Model: Sendable, Equatable {
        /// `users` virtual users, each sending one request after another (its own `Caller`:
        /// its needs run once, its captures are its own), pausing `think` seconds between them.
        case closed(users: Int, think: Double)
        /// Requests start on `schedule` whether or not earlier ones came back, at most
        /// `maxInFlight` at once (a start waits for a slot, late against its schedule).
        case open(RateSchedule, maxInFlight: Int)
    }

    public struct Item: Sendable {
        public var service: Service
        public var target: Target
        public var weight: Int

        public init(service: Service, target: Target, weight: Int) {
            (self.service, self.target, self.weight) = (service, target, weight)
        }
    }

    public var items: [Item]
    public var model: Model
    /// Seconds after which nothing new starts (nil: until `requests`).
    public var duration: Double?
    /// Requests after which nothing new starts (nil: until `duration`).
    public var requests: Int?

    public init(items: [Item], model: Model, duration: Double?, requests: Int?) {
        (self.items, self.model, self.duration, self.requests) = (items, model, duration, requests)
    }

    public static let maxUsers = 100_000
    public static let maxRequests = 1_000_000_000

    /// Indices into `items`, each as often as its weight, spread evenly (smooth weighted round
    /// robin): request k of a user or of the schedule sends `order[k % order.count]`.
    public var order: [Int] {
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
    public func share(_ shard: Shard) -> LoadPlan {
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
    public static func seconds(_ text: String) -> Double? { NodeReader.seconds(text.trimmingSpaces()) }
}
