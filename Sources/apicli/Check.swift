import APICore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Smoke-check declared endpoints: send each target's request and judge it by its expect: block.",
            discussion: """
                Without expect:, a target's validate: rule decides. Targets whose method is not GET, HEAD or \
                OPTIONS, and targets with check: false, are skipped unless --all. With --stub every sample \
                is judged offline; a sample with expectFailure: true passes when it fails.

                Exit codes: 0 all passed, 1 a check failed, 2 bad target file or pattern, 3 every failure was \
                a network failure, 4 every failure was a timeout, 5 a report file could not be written. \
                --fail-on-flaky: a check that passed only on a retry exits 1.

                --shard auto reads APICLI_SHARD=i/n, or GitLab's, CircleCI's, Buildkite's or a Kubernetes \
                Indexed Job's variables (JOB_COMPLETION_INDEX, with APICLI_SHARD_COUNT); none set is exit 2. \
                Merge the shards' --json reports with `apicli report merge`.
                """
        )

        @Argument(help: ArgumentHelp("Services (github) or service.target globs ('httpbin.status*'); default: all.",
                                     valueName: "pattern"),
                  completion: .custom(completeTargetNames))
        var patterns: [String] = []

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var environment: EnvironmentOptions
        @OptionGroup var request: RequestOptions

        @Flag(help: "Judge every target's samples offline; nothing is sent.")
        var stub = false

        @Flag(help: "Also check targets with check: false and methods other than GET, HEAD, OPTIONS.")
        var all = false

        @Option(help: ArgumentHelp("Requests in flight at once.", valueName: "n"))
        var jobs = 8

        @Option(help: SendOptions.retriesHelp)
        var retries = 0

        @Flag(help: "Start nothing new after the first failure.")
        var failFast = false

        @Option(help: ArgumentHelp("Run only slice i of n (1-based) of the targets sorted by name; auto: i and n from the CI engine's environment.",
                                   valueName: "i/n|auto"))
        var shard: String?

        @OptionGroup var ci: CIOptions

        @Option(name: .customLong("max-body"),
                help: ArgumentHelp("The most bytes of a response body held to judge it (default 64 MiB); a larger body fails the check.",
                                   valueName: "bytes"))
        var maxBody: Int64?

        @Flag(help: "Also compare each live response's shape with the target's sample: (status class, Content-Type, JSON paths and types); differences fail the check.")
        var drift = false

        @Option(name: .customLong("drift-mode"),
                help: ArgumentHelp("fail (default) or warn: differences are only listed. --drift=warn is short for --drift --drift-mode warn.",
                                   valueName: "mode"))
        var driftMode: Drift.Mode?

        @Option(help: ArgumentHelp("Write a JUnit XML report.", valueName: "file"))
        var junit: String?

        @Option(help: ArgumentHelp("Write a JSON report (schema in README).", valueName: "file"))
        var json: String?

        func validate() throws {
            try SendOptions.validate(retries: retries)
            if jobs < 1 { throw ValidationError("--jobs takes a number of at least 1, got \(jobs)") }
            if let maxBody, maxBody < 1 { throw ValidationError("--max-body takes a number of bytes of at least 1, got \(maxBody)") }
            if stub && (drift || driftMode != nil) { throw ValidationError("--drift compares live responses with samples; it does not go with --stub") }
            if let shard, shard != "auto", Shard.parse(shard, source: "--shard") == nil {
                throw ValidationError("--shard takes i/n with 1 ≤ i ≤ n, like 2/4, or auto, got '\(shard)'")
            }
            if !ci.shardTimings.isEmpty, shard == nil {
                throw ValidationError("--shard-timings needs --shard")
            }
        }

        func run() async throws {
            Terminal.setUp()
            var console = Console.plain
            let items: [CheckItem]
            let scope: CheckScope
            let sends: [(name: String, service: Service)]
            let unverified: [String]
            let runner: CheckRunner
            do throws(APIError) {
                let workspace = try APICLI.workspace(targets, environment, request, maxBody: maxBody)
                ConnectionOptions.run.withLock { $0.connectionsPerHost = max($0.connectionsPerHost, jobs) }  // a connection per job
                runner = CheckRunner(options: .init(jobs: jobs, failFast: failFast),
                                     caller: Caller(workspace: workspace, mode: stub ? .stub : .live, policy: SendPolicy(retries: retries)))
                (items, scope, sends) = try plan(workspace, runner.caller)
                console = Console(workspace)
                unverified = sends.filter { !workspace.tls(for: $0.service).verify }.map(\.name)
            } catch {
                throw console.fail(error, target: nil)
            }
            for note in scope.notes { console.err(note + "\n") }  // the shard, the rerun
            reportUnbuildable(items, console)
            warnUnverified(unverified, console)
            let width = items.map(\.name.count).max() ?? 0
            let results = await runner.run(items) { _, result in
                console.out(TextReport.line(result, nameWidth: width) + TextReport.driftLines(result))
            }.map { $0.redacted(by: console.redactor) }
            console.out(TextReport.summary(results))
            printAnnotations(results, scope, console)
            try ReportFiles(junit: junit, json: json, html: ci.reportHTML).write(results, run: scope.run, console)
            throw Self.exitStatus(CheckSummary(results), failOnFlaky: ci.failOnFlaky).code
        }

        /// The items; every target that needs others or is needed runs once, in one `FlowRunner`
        /// sending as the runner sends (retries, `until:`), whether it is reached as an item or a need.
        /// `sends`: every target the run sends live — the items that are sent, and the targets they
        /// need (sent once as needs even when they are not checked themselves).
        private func plan(_ workspace: Workspace, _ caller: Caller) throws(APIError)
            -> ([CheckItem], CheckScope, sends: [(name: String, service: Service)]) {
            let (selected, scope) = try scoped(try Selection.select(try workspace.catalog(), patterns: patterns))  // CheckCI.swift
            var planner = CheckPlanner(caller: caller, includeAll: all)
            planner.drift = drift || driftMode != nil ? driftMode ?? .fail : nil
            let items = planner.items(for: selected)
            guard !stub else { return (items, scope, []) }
            let sent = Set(items.filter { item in
                switch item.work { case .skip, .fail: return false; default: return true }
            }.map(\.name))
            var sends = selected.filter { sent.contains($0.1.qualifiedName) }.map { (name: $0.1.qualifiedName, service: $0.0) }
            for name in caller.needed(by: selected).sorted() where !sent.contains(name) {
                if let (service, _) = try? workspace.find(name) { sends.append((name, service)) }
            }
            return (items, scope, sends)
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
}

extension Drift.Mode: ExpressibleByArgument {}
