import APITargets
import APISupport
/// What a report says about the run beyond its results: which suite, which shard, and where each
/// target stands in the whole selection, so that shards can be merged back in declaration order.
package struct RunInfo: Sendable, Equatable {
    package var suite: SuiteIdentity
    /// The shard this run was; nil for a whole run or a merged report.
    package var shard: Shard?
    /// A merged report: the shard count and the shards it holds.
    package var merged: (count: Int, shards: [Int])?
    /// `service.target` → its position (0-based) in the selection before sharding.
    package var positions: [String: Int]

    package init(suite: SuiteIdentity, shard: Shard? = nil, merged: (count: Int, shards: [Int])? = nil,
                positions: [String: Int] = [:]) {
        self.suite = suite
        self.shard = shard
        self.merged = merged
        self.positions = positions
    }

    package static func == (a: RunInfo, b: RunInfo) -> Bool {
        a.suite == b.suite && a.shard == b.shard && a.merged?.count == b.merged?.count
            && a.merged?.shards == b.merged?.shards && a.positions == b.positions
    }

    /// The info of a run over `selected` (the whole selection, in declaration order).
    package init(selected names: [String], stub: Bool, all: Bool, shard: Shard?) {
        var positions: [String: Int] = [:]
        for (i, name) in names.enumerated() where positions[name] == nil { positions[name] = i }
        self.init(suite: SuiteIdentity(names: names, stub: stub, all: all), shard: shard, positions: positions)
    }
}
