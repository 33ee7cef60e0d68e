#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which shard each selected target goes to.
package enum ShardAssignment {
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
    package static func assign(_ names: [String], count: Int, timings: [String: Double]? = nil,
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
