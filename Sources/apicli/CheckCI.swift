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

extension CheckValues {
    /// What `--rerun-failed`, `--shard` and `--shard-timings` ask of the selection (`CheckScope.narrow`).
    var scopeRequest: CheckScope.Request {
        // `validate()` refused a --shard that is neither i/n nor auto.
        CheckScope.Request(rerunFailed: ci.rerunFailed, shard: shard.flatMap(Shard.Request.init), shardTimings: ci.shardTimings,
                           stub: stub, all: all)
    }

    /// GitHub Actions' annotations (on stdout) when the run is there, at the lines where the
    /// `selected` targets are declared; the report files are `ReportFiles`'.
    func printAnnotations(_ results: [CheckResult], _ selected: [(Service, Target)], _ console: Console) {
        let environment = ProcessEnvironment.all()
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
