import APISupport
import APIDiagnostics
import APITargets
import APITransport
import APICheck
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `apicli check` at CI scale: shards from the CI engine, balanced by time, reruns of failures,
/// flaky checks, and the reports CI systems show.
struct CIOptions: ParsableArguments {
    @Option(help: ArgumentHelp("With --shard: deal targets out by their time in this JSON report (repeatable: the longest time wins).",
                               valueName: "file"), completion: .file())
    var shardTimings: [String] = []

    @Option(help: ArgumentHelp("Run only the targets that failed, or that --fail-fast left out, in this JSON report.",
                               valueName: "file"), completion: .file())
    var rerunFailed: String?

    @Flag(help: "Exit 1 when a check passed only on a retry (flaky).")
    var failOnFlaky = false

    @Option(help: ArgumentHelp("Write a self-contained HTML report, filterable by status.", valueName: "file"))
    var reportHTML: String?

    var values: CIValues {
        CIValues(shardTimings: shardTimings, rerunFailed: rerunFailed, failOnFlaky: failOnFlaky, reportHTML: reportHTML)
    }
}

/// CIOptions' plain values.
struct CIValues {
    var shardTimings: [String] = []
    var rerunFailed: String?
    var failOnFlaky = false
    var reportHTML: String?
}

/// What `check` knows about a run besides its items: the suite and shard for the reports.
struct CheckScope {
    /// The selection the suite is named by (before the shard), and the run's kind and shard.
    var selection: [(Service, Target)]
    var stub: Bool
    var all: Bool
    var shard: Shard?
    /// Lines for stderr: where the shard came from, what a rerun reruns.
    var notes: [String] = []

    /// The suite and shard for the reports, made when a report asks (none in most runs: it is a
    /// pass over every selected target, before the first request when it was made up front).
    var run: RunInfo {
        RunInfo(selected: selection.map { $0.1.qualifiedName }, stub: stub, all: all, shard: shard)
    }
}

extension CheckValues {
    /// The selection narrowed to what this run checks: the failures of `--rerun-failed`, then the
    /// shard (`--shard i/n` or `auto`, balanced by `--shard-timings`).
    func scoped(_ selected: [(Service, Target)]) throws(APIError) -> ([(Service, Target)], CheckScope) {
        var selected = selected
        var notes: [String] = []
        if let file = ci.rerunFailed {
            let report = try JSONReportReader.read(file: file)
            let failed = Set(report.failedTargets)
            selected = selected.filter { failed.contains($0.1.qualifiedName) }
            notes.append(failed.isEmpty ? "rerun: nothing failed in \(file)"
                         : "rerun: \(selected.count) target\(selected.count == 1 ? "" : "s") that failed in \(file)")
        }
        var chosen: Shard?
        if let shard {
            chosen = shard == "auto" ? try ShardEngine.detect(ProcessInfo.processInfo.environment)
                                     : Shard.parse(shard, source: "--shard")
        }
        var scope = CheckScope(selection: selected, stub: stub, all: all, shard: chosen, notes: notes)
        if let chosen {
            let names = selected.map { $0.1.qualifiedName }
            var timings: [String: Double]?
            if !ci.shardTimings.isEmpty {
                var reports: [LoadedReport] = []
                for file in ci.shardTimings { reports.append(try JSONReportReader.read(file: file)) }
                timings = LoadedReport.timings(reports)
            }
            // A target and what it needs: stay in one shard (a need runs once per shard that needs it).
            let together = selected.filter { !$0.1.needs.isEmpty }.map { service, target in
                [target.qualifiedName] + target.needs.map { $0.qualified(in: service.name) }.filter(names.contains)
            }
            let shardOf = ShardAssignment.assign(names, count: chosen.count, timings: timings, together: together)
            selected = selected.filter { shardOf[$0.1.qualifiedName] == chosen.index }
            scope.notes.append("shard \(chosen.index)/\(chosen.count) from \(chosen.source): \(selected.count) of \(names.count) targets"
                               + (timings == nil ? "" : ", balanced by time"))
        }
        return (selected, scope)
    }

    /// GitHub Actions' annotations (on stdout) when the run is there, at the lines where the
    /// `selected` targets are declared; the report files are `ReportFiles`'.
    func printAnnotations(_ results: [CheckResult], _ selected: [(Service, Target)], _ console: Console) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["GITHUB_ACTIONS"] == "true" else { return }
        var locations: [String: SourceLocation] = [:]
        for (service, target) in selected {
            locations[target.qualifiedName] = SourceLocation(file: service.file, line: target.mark.line)
        }
        console.out(GitHubReport.annotations(results, locations: locations, workspace: environment["GITHUB_WORKSPACE"]))
    }

    /// 0 all passed; otherwise the exit status of the failures' kinds (`ExitStatus.of`), and 1
    /// instead of 0 when `--fail-on-flaky` meets a flaky check.
    static func exitStatus(_ summary: CheckSummary, failOnFlaky: Bool) -> ExitStatus {
        if summary.failed == 0 { return failOnFlaky && summary.flaky > 0 ? .failed : .ok }
        return ExitStatus.of(summary.failureKinds)
    }
}
