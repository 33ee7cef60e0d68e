import APIDiagnostics
import APITargets

/// Which of the selected targets one run of `check` checks, and what its reports say about the
/// run: the failures of an earlier report (`--rerun-failed`), then this shard's share (`--shard`,
/// balanced by the times of earlier reports with `--shard-timings`).
package struct CheckScope {
    /// What the run was asked to narrow the selection by.
    package struct Request: Sendable {
        /// A JSON report whose failed targets (and those `--fail-fast` left out) are run again.
        package var rerunFailed: String?
        package var shard: Shard.Request?
        /// JSON reports whose times deal the targets out (the longest time of a target wins).
        package var shardTimings: [String]
        /// The run's kind, part of the suite the reports name.
        package var stub: Bool
        package var all: Bool

        package init(rerunFailed: String? = nil, shard: Shard.Request? = nil, shardTimings: [String] = [],
                     stub: Bool = false, all: Bool = false) {
            (self.rerunFailed, self.shard, self.shardTimings, self.stub, self.all) = (rerunFailed, shard, shardTimings, stub, all)
        }
    }

    /// What `--rerun-failed` kept.
    package struct Rerun: Sendable, Equatable {
        package var file: String
        /// The targets that failed in the report (0: nothing did).
        package var failed: Int
        /// The selected targets among them.
        package var kept: Int
    }

    /// What the shard kept.
    package struct Dealt: Sendable, Equatable {
        package var kept: Int
        /// The targets dealt out (after the rerun).
        package var of: Int
        /// Dealt by the times of earlier reports.
        package var balanced: Bool
    }

    /// The selection the suite is named by (after the rerun, before the shard), and the run's kind and shard.
    package var selection: [(Service, Target)]
    package var stub: Bool
    package var all: Bool
    package var shard: Shard?
    package var rerun: Rerun?
    package var dealt: Dealt?

    /// The suite and shard for the reports, made when a report asks (none in most runs: it is a
    /// pass over every selected target, before the first request when it was made up front).
    package var run: RunInfo {
        RunInfo(selected: selection.map { $0.1.qualifiedName }, stub: stub, all: all, shard: shard)
    }

    /// Lines for stderr: what a rerun reruns, where the shard came from and what it holds.
    package var notes: [String] {
        var notes: [String] = []
        if let rerun {
            notes.append(rerun.failed == 0 ? "rerun: nothing failed in \(rerun.file)"
                         : "rerun: \(rerun.kept) target\(rerun.kept == 1 ? "" : "s") that failed in \(rerun.file)")
        }
        if let shard, let dealt {
            notes.append("shard \(shard.index)/\(shard.count) from \(shard.source): \(dealt.kept) of \(dealt.of) targets"
                         + (dealt.balanced ? ", balanced by time" : ""))
        }
        return notes
    }

    /// `selected` narrowed as `request` asks, and the scope of the run. `environment`: where
    /// `--shard auto` finds the CI engine's shard.
    package static func narrow(_ selected: [(Service, Target)], _ request: Request,
                               environment: [String: String]) throws(APIError) -> ([(Service, Target)], CheckScope) {
        var selected = selected
        var rerun: Rerun?
        if let file = request.rerunFailed {
            let failed = Set(try JSONReportReader.read(file: file).failedTargets)
            selected = selected.filter { failed.contains($0.1.qualifiedName) }
            rerun = Rerun(file: file, failed: failed.count, kept: selected.count)
        }
        let shard = try request.shard?.resolve(environment)
        var scope = CheckScope(selection: selected, stub: request.stub, all: request.all, shard: shard, rerun: rerun)
        guard let shard else { return (selected, scope) }
        let names = selected.map { $0.1.qualifiedName }
        var timings: [String: Double]?
        if !request.shardTimings.isEmpty {
            var reports: [LoadedReport] = []
            for file in request.shardTimings { reports.append(try JSONReportReader.read(file: file)) }
            timings = LoadedReport.timings(reports)
        }
        // A target and what it needs: stay in one shard (a need runs once per shard that needs it).
        let together = selected.filter { !$0.1.needs.isEmpty }.map { service, target in
            [target.qualifiedName] + target.needs.map { $0.qualified(in: service.name) }.filter(names.contains)
        }
        let shardOf = ShardAssignment.assign(names, count: shard.count, timings: timings, together: together)
        selected = selected.filter { shardOf[$0.1.qualifiedName] == shard.index }
        scope.dealt = Dealt(kept: selected.count, of: names.count, balanced: timings != nil)
        return (selected, scope)
    }
}
