import APICore
import ArgumentParser
import Foundation

extension APICLI {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Smoke-check declared endpoints: send each target's request and judge it by its expect: block.",
            discussion: """
                Without expect:, a target's validate: rule decides. Targets whose method is not GET, HEAD or \
                OPTIONS, and targets with check: false, are skipped unless --all. With --stub every sample \
                is judged offline; a sample with expectFailure: true passes when it fails.

                Exit codes: 0 all passed, 1 a check failed, 2 bad target file or pattern, 3 every failure was \
                a network failure, 4 every failure was a timeout, 5 a report file could not be written. --fail-on-flaky: a check that passed only on a retry \
                exits 1. --shard auto reads APICLI_SHARD=i/n, GitLab, CircleCI, Buildkite or a Kubernetes Indexed Job \
                (JOB_COMPLETION_INDEX with APICLI_SHARD_COUNT); none set is exit 2.
                """
        )

        @Argument(help: ArgumentHelp("Services (github) or service.target globs ('httpbin.status*'); default: all.",
                                     valueName: "pattern"),
                  completion: .custom(completeTargetNames))
        var patterns: [String] = []

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var request: RequestOptions

        @Flag(help: "Judge every target's samples offline; nothing is sent.")
        var stub = false

        @Flag(help: "Also check targets with check: false and methods other than GET, HEAD, OPTIONS.")
        var all = false

        @Option(help: ArgumentHelp("Requests in flight at once.", valueName: "n"))
        var jobs = 8

        @Option(help: ArgumentHelp("Retries after a network failure or a 5xx, with exponential backoff (Retry-After honoured).",
                                   valueName: "n"))
        var retries = 0

        @Flag(help: "Start nothing new after the first failure.")
        var failFast = false

        @Option(help: ArgumentHelp("Run only slice i of n (1-based) of the targets sorted by name; auto: i and n from the CI engine's environment.",
                                   valueName: "i/n|auto"))
        var shard: String?

        @OptionGroup var ci: CIOptions

        @Option(help: ArgumentHelp("Write a JUnit XML report.", valueName: "file"))
        var junit: String?

        @Option(help: ArgumentHelp("Write a JSON report (schema in README).", valueName: "file"))
        var json: String?

        func validate() throws {
            if jobs < 1 { throw ValidationError("--jobs takes a number of at least 1, got \(jobs)") }
            if retries < 0 { throw ValidationError("--retries takes 0 or more, got \(retries)") }
            if let shard, shard != "auto", Self.parseShard(shard) == nil {
                throw ValidationError("--shard takes i/n with 1 ≤ i ≤ n, like 2/4, or auto, got '\(shard)'")
            }
            if !ci.shardTimings.isEmpty, shard == nil {
                throw ValidationError("--shard-timings needs --shard")
            }
        }

        static func parseShard(_ text: String) -> (index: Int, count: Int)? {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
            return (i, n)
        }

        func run() async throws {
            Terminal.setUp()
            let items: [CheckItem]
            let scope: CheckScope
            do {
                (items, scope) = try plan()
            } catch {
                throw Terminal.fail(error, target: nil)
            }
            reportUnbuildable(items)
            let width = items.map(\.name.count).max() ?? 0
            let runner = CheckRunner(options: .init(jobs: jobs, retries: retries, failFast: failFast),
                                     transport: LiveTransport())
            let results = await runner.run(items) { _, result in
                Terminal.out(TextReport.line(result, nameWidth: width))
            }
            Terminal.out(TextReport.summary(results))
            try write(JUnitReport.render, results, to: junit)
            try write({ JSONReport.render($0, run: scope.run) }, results, to: json)
            try writeCIReports(results, scope)
            throw ExitCode(Self.exitCode(CheckSummary(results), failOnFlaky: ci.failOnFlaky))
        }

        private func plan() throws(APIError) -> ([CheckItem], CheckScope) {
            let catalog = try Catalog.load(directory: targets.directory)
            let (selected, scope) = try scoped(try Selection.select(catalog, patterns: patterns))  // CheckCI.swift
            let resolver = EndpointResolver(environment: ProcessInfo.processInfo.environment, overrides: request.overrides)
            return (CheckPlanner(resolver: resolver, stub: stub, includeAll: all).items(for: selected), scope)
        }

        /// Targets that cannot be built (unresolved `${VAR}`, …) fail in the report; their full
        /// diagnostics, with the source line, go to stderr first.
        private func reportUnbuildable(_ items: [CheckItem]) {
            var renderer = DiagnosticRenderer()
            for item in items {
                guard case .fail(let error) = item.work, case .invalidInput(let diagnostics) = error else { continue }
                for d in diagnostics { Terminal.err(renderer.render(d)) }
            }
        }

        private func write(_ render: ([CheckResult]) -> String, _ results: [CheckResult], to path: String?) throws {
            guard let path else { return }
            do {
                try OutputFile.write(Data(render(results).utf8), to: path)
            } catch {
                throw Terminal.fail(error, target: nil)
            }
        }

        /// 0 all passed; 2 a target could not be built; 3 or 4 when every failure was a network
        /// failure or a timeout; 1 otherwise.
        static func exitCode(_ summary: CheckSummary) -> Int32 {
            let kinds = summary.failureKinds
            if summary.failed == 0 { return 0 }
            if kinds.contains(.invalid) { return 2 }
            if kinds == [.network] { return 3 }
            if kinds == [.timeout] { return 4 }
            return 1
        }
    }
}
