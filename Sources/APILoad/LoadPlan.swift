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
        /// Its rows' targets (`each:`, `--data`): each time the item is picked one of them is
        /// sent (`rowOrder`); empty: `target` itself. Counted under `target`'s name.
        package var rows: [Target] = []

        package init(service: Service, target: Target, weight: Int, rows: [Target] = []) {
            (self.service, self.target, self.weight, self.rows) = (service, target, weight, rows)
        }

        /// What is sent: its rows' targets, or the target.
        package var variants: [Target] { rows.isEmpty ? [target] : rows }
    }

    /// How an item with rows picks the row it sends (`--data-order`).
    package enum RowOrder: Sendable, Equatable {
        /// Row 1, 2, …, n, 1, …: the item's k-th request sends row k mod n, whichever user sends it.
        case roundRobin
        /// A row drawn for each request from a generator seeded with this (`--seed`): the same
        /// seed and `--requests` send the same rows.
        case random(seed: UInt64)
    }

    package var items: [Item]
    package var model: Model
    /// Seconds after which nothing new starts (nil: until `requests`).
    package var duration: Double?
    /// Requests after which nothing new starts (nil: until `duration`).
    package var requests: Int?
    package var rowOrder: RowOrder = .roundRobin

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
    /// Which row of its item request `k` of the run sends (`order[k % order.count]` is the item,
    /// `rows` its number of rows), by `rowOrder`. `occurrences`: `RowPicker`'s table.
    package struct RowPicker: Sendable {
        let order: [Int]
        /// Item `order[j]`'s requests before position `j` of one cycle of `order`.
        let before: [Int]
        /// Each item's requests in one cycle.
        let perCycle: [Int]
        let rowOrder: RowOrder

        package init(order: [Int], items: Int, rowOrder: RowOrder) {
            var counts = [Int](repeating: 0, count: items)
            var before: [Int] = []
            before.reserveCapacity(order.count)
            for i in order {
                before.append(counts[i])
                counts[i] += 1
            }
            (self.order, self.before, self.perCycle, self.rowOrder) = (order, before, counts, rowOrder)
        }

        /// The row (0..<rows) request `k` sends.
        package func row(_ k: Int, rows: Int) -> Int {
            guard rows > 1 else { return 0 }
            switch rowOrder {
            case .roundRobin:
                let j = k % order.count
                return ((k / order.count) * perCycle[order[j]] + before[j]) % rows
            case .random(let seed):
                // SplitMix64 of the seed and the request's number: independent of which user sends it.
                var z = seed &+ UInt64(k) &* 0x9E37_79B9_7F4A_7C15
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                return Int(z % UInt64(rows))
            }
        }
    }

    /// Seconds from `30`, `1.5`, `800ms`, `2s`, `1m` (as durations in target files).
    package static func seconds(_ text: String) -> Double? { NodeReader.seconds(text.trimmingSpaces()) }
}
