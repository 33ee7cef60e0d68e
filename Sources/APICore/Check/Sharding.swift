#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One slice of a suite split across machines: `index` of `count`, 1-based.
public struct Shard: Sendable, Equatable {
    public var index: Int
    public var count: Int
    /// Where the numbers came from: `--shard`, or the engine and variables that set them.
    public var source: String

    public init(index: Int, count: Int, source: String) {
        self.index = index
        self.count = count
        self.source = source
    }

    /// `i/n` with 1 ≤ i ≤ n, or nil.
    public static func parse(_ text: String, source: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        return Shard(index: i, count: n, source: source)
    }
}

/// `--shard auto`: the shard the CI engine that started this job asks for, read from its
/// environment. Checked in this order; the first engine whose variables are set wins.
public enum ShardEngine {
    struct Source {
        var name: String
        var indexVariable: String
        var countVariable: String
        /// The first index the engine hands out (GitLab counts from 1, the others from 0).
        var base: Int
    }

    static let sources: [Source] = [
        Source(name: "GitLab", indexVariable: "CI_NODE_INDEX", countVariable: "CI_NODE_TOTAL", base: 1),
        Source(name: "CircleCI", indexVariable: "CIRCLE_NODE_INDEX", countVariable: "CIRCLE_NODE_TOTAL", base: 0),
        Source(name: "Buildkite", indexVariable: "BUILDKITE_PARALLEL_JOB", countVariable: "BUILDKITE_PARALLEL_JOB_COUNT", base: 0),
        Source(name: "Kubernetes Indexed Job", indexVariable: "JOB_COMPLETION_INDEX", countVariable: "APICLI_SHARD_COUNT", base: 0),
    ]

    /// Every variable `--shard auto` reads, for the error that lists them.
    public static let variables: [String] = ["APICLI_SHARD"] + sources.flatMap { [$0.indexVariable, $0.countVariable] }

    /// The shard from `environment`: `APICLI_SHARD=i/n` first (set it from a GitHub Actions matrix,
    /// or anywhere), then GitLab, CircleCI, Buildkite, a Kubernetes Indexed Job. An engine whose
    /// index is set but whose numbers are unusable is an error, not a reason to look further.
    public static func detect(_ environment: [String: String]) throws(APIError) -> Shard {
        if let text = value("APICLI_SHARD", environment) {
            guard let shard = Shard.parse(text, source: "APICLI_SHARD") else {
                throw problem("APICLI_SHARD is '\(text)'; it takes i/n with 1 ≤ i ≤ n, like 2/4")
            }
            return shard
        }
        for s in sources {
            guard let indexText = value(s.indexVariable, environment) else { continue }
            let countText = value(s.countVariable, environment)
            guard let raw = Int(indexText), let countText, let count = Int(countText), count >= 1,
                  (s.base..<(s.base + count)).contains(raw) else {
                throw problem("\(s.name): \(s.indexVariable)=\(indexText) and \(s.countVariable)=\(countText ?? "(unset)") "
                              + "do not name a shard (the index counts from \(s.base), the count must be at least 1)")
            }
            return Shard(index: raw - s.base + 1, count: count,
                         source: "\(s.name) (\(s.indexVariable)=\(indexText), \(s.countVariable)=\(countText))")
        }
        throw problem("--shard auto found no shard in the environment; it reads " + variables.joined(separator: ", "))
    }

    private static func value(_ name: String, _ environment: [String: String]) -> String? {
        guard let v = environment[name]?.trimmingSpaces(), !v.isEmpty else { return nil }
        return v
    }

    private static func problem(_ message: String) -> APIError {
        .invalidInput([Diagnostic(file: nil, mark: nil, message: message, hint: nil)])
    }
}

/// Which shard each selected target goes to.
public enum ShardAssignment {
    /// Shard number (1-based) per `service.target` name, for `count` shards.
    ///
    /// Without timings: the names sorted, at positions i-1, i-1+n, … (as `Selection.shard`).
    /// With timings (seconds per name, from an earlier report): the targets without a time are
    /// first dealt out by their position in the sorted list, each weighing the mean known time;
    /// then the timed targets, longest first (ties by name), each onto the lightest shard (ties:
    /// the lowest number). The same names and timings always give the same assignment.
    ///
    /// `together`: groups of names that must share a shard (a flow: targets and what they
    /// `needs:`). A group is dealt out as one unit under its first name, weighing the sum of its
    /// times (unknown when any member is); overlapping groups are joined.
    public static func assign(_ names: [String], count: Int, timings: [String: Double]? = nil,
                              together: [[String]] = []) -> [String: Int] {
        let units = Self.units(Array(Set(names)), together)
        var shardOf: [String: Int] = [:]
        func place(_ unit: [String], _ shard: Int) { for name in unit { shardOf[name] = shard } }
        guard let timings, count > 1 else {
            for (position, unit) in units.enumerated() { place(unit, position % max(count, 1) + 1) }
            return shardOf
        }
        func time(_ unit: [String]) -> Double? {
            unit.allSatisfy { timings[$0] != nil } ? unit.reduce(0) { $0 + max(timings[$1]!, 0) } : nil
        }
        let known = units.filter { time($0) != nil }
        let unknown = units.filter { time($0) == nil }
        let knownTargets = known.reduce(0) { $0 + $1.count }
        let mean = known.isEmpty ? 1 : known.reduce(0) { $0 + time($1)! } / Double(knownTargets)  // per target
        var load = [Double](repeating: 0, count: count)
        for (position, unit) in unknown.enumerated() {
            place(unit, position % count + 1)
            load[position % count] += mean * Double(unit.count)
        }
        let longestFirst = known.sorted { a, b in
            let (ta, tb) = (time(a)!, time(b)!)
            return ta != tb ? ta > tb : a[0] < b[0]
        }
        for unit in longestFirst {
            var lightest = 0
            for s in 1..<count where load[s] < load[lightest] { lightest = s }
            place(unit, lightest + 1)
            load[lightest] += time(unit)!
        }
        return shardOf
    }

    /// The names in units: each group of `together` (joined when they overlap, limited to `names`)
    /// and every other name alone; each unit sorted, the units sorted by their first name.
    static func units(_ names: [String], _ together: [[String]]) -> [[String]] {
        let present = Set(names)
        var unitOf: [String: Int] = [:]
        var members: [[String]] = []
        for group in together {
            let mine = Array(Set(group.filter(present.contains)))
            guard !mine.isEmpty else { continue }
            let joined = Set(mine.compactMap { unitOf[$0] })
            var all = Set(mine)
            for u in joined { all.formUnion(members[u]); members[u] = [] }
            members.append(Array(all))
            for name in all { unitOf[name] = members.count - 1 }
        }
        for name in names where unitOf[name] == nil { members.append([name]) }
        return members.filter { !$0.isEmpty }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }
}

/// What identifies a suite, so that `report merge` can tell shards of one run from reports of
/// different runs: every selected target (before sharding) and the mode (`--stub`, `--all`).
public struct SuiteIdentity: Sendable, Equatable {
    /// 16 hex digits: FNV-1a (64 bit) of the mode and the sorted `service.target` names.
    public var digest: String
    /// Targets selected before sharding.
    public var targets: Int

    public init(digest: String, targets: Int) {
        self.digest = digest
        self.targets = targets
    }

    public init(names: [String], stub: Bool, all: Bool) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func feed(_ s: String) {
            for byte in s.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash ^= 0x0a
            hash = hash &* 0x0000_0100_0000_01b3
        }
        feed("apicli suite 1 stub=\(stub) all=\(all)")
        let sorted = names.sorted()
        sorted.forEach(feed)
        let hex = String(hash, radix: 16)
        self.init(digest: String(repeating: "0", count: 16 - hex.count) + hex, targets: sorted.count)
    }
}
