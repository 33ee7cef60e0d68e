import APIDiagnostics
import APITargets
import APITransport
/// `apicli report merge`: the JSON reports of the shards of one run, as the one report an
/// unsharded run would have written (same results, in the selection's declaration order).
package enum ReportMerge {
    package struct Merged: Sendable {
        package var results: [CheckResult]
        package var run: RunInfo
    }

    /// Refuses reports without a suite (written by an older apicli), of different suites (other
    /// targets, or another mode: `--stub`, `--all`), of different shard counts, the same shard
    /// twice, or results of one check in two reports; and, unless `allowMissing`, an incomplete set
    /// (a shard missing, or shards that together do not hold every target of the suite).
    package static func merge(_ reports: [LoadedReport], allowMissing: Bool = false) throws(APIError) -> Merged {
        guard let first = reports.first else { throw problem(nil, "no reports to merge") }
        var infos: [RunInfo] = []
        for r in reports {
            guard let run = r.run else {
                throw problem(r.file, "the report does not say which suite it belongs to (write it with this apicli's check --json)")
            }
            infos.append(run)
        }
        let suite = infos[0].suite
        for (r, info) in zip(reports, infos) where info.suite != suite {
            throw problem(r.file, "belongs to another suite than \(first.file) (suite \(info.suite.digest) of "
                          + "\(info.suite.targets) targets, not \(suite.digest) of \(suite.targets)): "
                          + "other targets were selected, or --stub/--all differ")
        }
        let (count, shards) = try shardSet(reports, infos)
        if !allowMissing, let count {
            let missing = (1...count).filter { !shards.contains($0) }
            if !missing.isEmpty {
                throw problem(nil, "shard\(missing.count > 1 ? "s" : "") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) "
                              + "missing (--allow-missing merges what is there)")
            }
        }
        var seen: [String: String] = [:]
        var rows: [(position: Int, report: Int, index: Int, result: CheckResult)] = []
        for (n, report) in reports.enumerated() {
            for (i, (result, position)) in zip(report.results, report.positions).enumerated() {
                if let other = seen[result.name] {
                    throw problem(report.file, "overlaps \(other): both hold \(result.name)")
                }
                seen[result.name] = report.file
                rows.append((position ?? Int.max, n, i, result))
            }
        }
        if !allowMissing {
            let targets = Set(rows.map { $0.result.service + "." + $0.result.target }).count
            if targets != suite.targets {
                throw problem(nil, "the shards hold \(targets) of the suite's \(suite.targets) targets: were they dealt out "
                              + "differently (other --shard-timings files)? (--allow-missing merges what is there)")
            }
        }
        rows.sort { ($0.position, $0.report, $0.index) < ($1.position, $1.report, $1.index) }
        var run = RunInfo(suite: suite, shard: nil, merged: count.map { ($0, shards.sorted()) })
        for info in infos { run.positions.merge(info.positions) { a, _ in a } }
        return Merged(results: rows.map(\.result), run: run)
    }

    /// The shard count shared by every report, and the shards they hold. A whole run (no shard)
    /// merges with nothing but itself; a merged report contributes its shards.
    private static func shardSet(_ reports: [LoadedReport], _ infos: [RunInfo]) throws(APIError) -> (Int?, Set<Int>) {
        var count: Int?
        var owner: [Int: String] = [:]
        for (r, info) in zip(reports, infos) {
            let mine: (Int, [Int])
            if let s = info.shard {
                mine = (s.count, [s.index])
            } else if let m = info.merged {
                mine = m
            } else {
                if reports.count > 1 { throw problem(r.file, "is a whole run, not a shard: it overlaps every other report") }
                return (nil, [])
            }
            if let count, count != mine.0 {
                throw problem(r.file, "is a shard of \(mine.0), but \(reports[0].file) is a shard of \(count)")
            }
            count = mine.0
            for i in mine.1 {
                if let other = owner[i] { throw problem(r.file, "overlaps \(other): both hold shard \(i)/\(mine.0)") }
                owner[i] = r.file
            }
        }
        return (count, Set(owner.keys))
    }

    static func problem(_ file: String?, _ message: String) -> APIError {
        .invalidInput([Diagnostic(file: file, mark: nil, message: message)])
    }
}
