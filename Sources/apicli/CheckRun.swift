import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APIVerdict
import APISend
import APICheck
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `check`'s options as plain values, and its one run: `APICLI.Check` (argument-parser) and the hand
/// parser (HandParser.swift) both fill these.
struct CheckValues {
    var patterns: [String] = []
    var targets = TargetsValues()
    var environment = EnvironmentValues()
    var request = RequestValues()
    var stub = false
    var all = false
    var jobs = 8
    var retries = 0
    var failFast = false
    var shard: String?
    var ci = CIValues()
    var maxBody: Int64?
    var drift = false
    var driftMode: Drift.Mode?
    var junit: String?
    var json: String?
    /// `--allow-empty`: a run in which no check ran exits 0 (else 2: a gate that checks nothing is not green).
    var allowEmpty = false
    /// `--coverage SPEC`: the OpenAPI description whose operations the run is measured against.
    var coverage: String?
    /// `--coverage-min PERCENT`: fewer operations exercised exits 1.
    var coverageMin: Double?
    /// `--data FILE`: every selected target once per row (over their `each:`).
    var data: String?

    /// `check`'s own checks (the request group's are `request.validate()`).
    func validate() throws {
        try SendOptions.validate(retries: retries)
        if jobs < 1 { throw ValidationError("--jobs takes a number of at least 1, got \(jobs)") }
        if let maxBody, maxBody < 1 { throw ValidationError("--max-body takes a number of bytes of at least 1, got \(maxBody)") }
        if stub && (drift || driftMode != nil) { throw ValidationError("--drift compares live responses with samples; it does not go with --stub") }
        _ = try ShardOption.parse(shard)
        if !ci.shardTimings.isEmpty, shard == nil {
            throw ValidationError("--shard-timings needs --shard")
        }
        if let problem = Coverage.minimumProblem(spec: coverage, minimum: coverageMin) { throw ValidationError(problem) }
    }

    func run() async throws {
        Terminal.setUp()
        // A run ends when its checks are done: its heaps grow in large steps and huge pages, as
        // `list`'s (an `mprotect` a page and a page fault every 4 KiB otherwise: 9,000 and 18,000 of
        // them for 10,000 checks).
        LeftToExit.growMemoryInLargeSteps()
        CheckRunner.startLoops()
        var console = Console.plain
        let items: CheckItems
        let scope: CheckScope
        let selected: [(Service, Target)]
        let workspace: Workspace
        let runner: CheckRunner
        let planner: CheckPlanner
        var operations: [OpenAPIContract.Operation] = []
        do throws(APIError) {
            if let coverage { operations = try Coverage.load(coverage) }
            workspace = try APICLI.workspace(targets, environment, request, maxBody: maxBody).connections(atLeast: jobs)  // a connection per job
            runner = CheckRunner(options: .init(jobs: jobs, failFast: failFast),
                                 caller: Caller(workspace: workspace, mode: stub ? .stub : .live, policy: SendPolicy(retries: retries)))
            (items, scope, selected, planner) = try plan(workspace, runner.caller)
            console = Console(workspace)
        } catch {
            throw console.fail(error, target: nil)
        }
        for note in scope.notes { console.err(note + "\n") }  // the shard, the rerun
        let width = items.names.map(\.count).max() ?? 0
        // The reports show results redacted by the redactor of the run's end (secrets captured
        // during the run included); each is redacted as it comes, and again at the end only if a
        // secret was recorded after it (`redactedFrom`: the first result redacted by the last redactor).
        var shown: [CheckResult] = []
        shown.reserveCapacity(items.count)
        var shownBy = console.redactor
        var redactedFrom = 0
        // Requests are built as they are sent (CheckItems); what is said about them before any
        // result is said once all are built (`planned`). The lines of results that came back
        // together are written at once (`emitted`), redacted as they are written.
        var lines = ""
        let sent = await runner.run(items, planned: {
            let all = items.all()
            reportUnbuildable(all, console)
            warnUnverified(planner.unverified(all, selected), console)
        }, emit: { i, result in
            lines += TextReport.line(result, nameWidth: width)
            if result.drift != nil { lines += TextReport.driftLines(result) }
            let redactor = console.redactor
            if redactor != shownBy { (shownBy, redactedFrom) = (redactor, i) }
            shown.append(result.redacted(by: redactor))
        }, emitted: {
            guard !lines.isEmpty else { return }
            console.out(lines)
            lines = ""
        })
        let redactor = console.redactor
        if redactor != shownBy { redactedFrom = sent.count }
        var results = shown  // as shown, unless a secret came later (none: no result copied again)
        for i in 0..<redactedFrom { results[i] = sent[i].redacted(by: redactor) }
        console.out(TextReport.summary(results))
        let covered = coverage.map { Coverage(spec: $0, operations: operations, results: results) }
        if let covered { console.out(covered.text) }
        printAnnotations(results, selected, console)
        try ReportFiles(junit: junit, json: json, html: ci.reportHTML).write(results, run: scope.run, coverage: covered, console)
        let summary = CheckSummary(results)
        if summary.passed + summary.failed == 0, !stub, !allowEmpty, scope.rerun == nil, scope.shard == nil {
            // A rerun of a clean report and an empty shard check nothing by design; --stub judges
            // the files' samples, and a file without any is said by its SKIP lines.
            console.err("apicli: no check ran: " + (summary.skipped == 0 ? "no target was selected"
                : "every selected target was skipped (\(summary.skipped); "
                    + (results.contains { $0.skipReason?.hasPrefix("when: ") == true } ? "by their when: or because " : "")
                    + "only GET, HEAD and OPTIONS are checked unless --all or check: true)")
                + "\n  hint: a gate that checks nothing is not green; pass --allow-empty if that is fine\n")
            throw ExitStatus.invalid.code
        }
        var status = Self.exitStatus(summary, failOnFlaky: ci.failOnFlaky)
        if let shortfall = covered?.shortfall(coverageMin) {
            console.err("apicli: \(shortfall)\n")
            if status == .ok { status = .failed }
        }
        LeftToExit.keep((items, selected, sent, shown, results, runner))
        throw status.code
    }

    /// The items (made as the run goes, `CheckItems`), and the selected targets; every target
    /// that needs others or is needed runs once, in one `FlowRunner` sending as the runner sends
    /// (retries, `until:`), whether it is reached as an item or a need.
    private func plan(_ workspace: Workspace, _ caller: Caller) throws(APIError)
        -> (CheckItems, CheckScope, [(Service, Target)], CheckPlanner) {
        let rows = try workspace.rows(try Selection.select(try workspace.catalog(), patterns: patterns), data: data)
        let (selected, scope) = try CheckScope.narrow(rows, scopeRequest, environment: ProcessEnvironment.all())
        var planner = CheckPlanner(caller: caller, includeAll: all)
        planner.named = Selection.exactNames(patterns)
        planner.drift = drift || driftMode != nil ? driftMode ?? .fail : nil
        return (planner.lazyItems(for: selected), scope, selected, planner)
    }

    /// Targets that cannot be built (unresolved `${VAR}`, …) fail in the report; their full
    /// diagnostics, with the source line, go to stderr first.
    private func reportUnbuildable(_ items: [CheckItem], _ console: Console) {
        var renderer = DiagnosticRenderer()
        for item in items {
            guard case .fail(let error) = item.work, case .invalidInput(let diagnostics) = error else { continue }
            for d in diagnostics { console.err(renderer.render(d)) }
        }
    }

    /// One warning for the run when `--insecure` or a service's `tls: { verify: false }` turns
    /// certificate verification off for a request that is sent (as `call` warns): `names`, the
    /// targets sent so, items and needs alike.
    private func warnUnverified(_ names: [String], _ console: Console) {
        guard let first = names.first else { return }
        let more = names.count > 1 ? " and \(names.count - 1) more" : ""
        console.err("apicli: warning: TLS certificate verification is off for \(first)\(more)\n")
    }
}
