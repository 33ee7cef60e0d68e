import APIVerdict
import APICheck
import ArgumentParser

extension APICLI {
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Smoke-check declared endpoints: send each target's request and judge it by its expect: block.",
            discussion: """
                Without expect:, a target's validate: rule decides. Targets whose method is not GET, HEAD or \
                OPTIONS, and targets with check: false, are skipped unless --all. With --stub every sample \
                is judged offline; a sample with expectFailure: true passes when it fails.

                Exit codes: 0 all passed, 1 a check failed, 2 bad target file or pattern, or a live run \
                checked nothing (without --allow-empty), 3 every failure was \
                a network failure, 4 every failure was a timeout, 5 a report file could not be written. \
                --fail-on-flaky: a check that passed only on a retry exits 1; --coverage-min: coverage below it exits 1.

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

        @Flag(help: "Also check targets with check: false and methods other than GET, HEAD, OPTIONS that are not named.")
        var all = false

        @Option(help: ArgumentHelp("Requests in flight at once.", valueName: "n"))
        var jobs = 8

        @Option(help: SendOptions.retriesHelp)
        var retries = 0

        @Option(help: ArgumentHelp("Check every selected target once per row of this file (CSV with a header row, JSON array of objects, YAML list); the row's fields are {placeholders}, each row is its own result, target[label].",
                                   valueName: "file"))
        var data: String?

        @Flag(help: "Start nothing new after the first failure.")
        var failFast = false

        @Flag(name: .customLong("allow-empty"),
              help: "Exit 0 when a live run checks nothing (nothing selected, or every target skipped); without it that is exit 2.")
        var allowEmpty = false

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

        @OptionGroup var coverage: CoverageOptions

        @Option(help: ArgumentHelp("Write a JUnit XML report.", valueName: "file"))
        var junit: String?

        @Option(help: ArgumentHelp("Write a JSON report (schema in docs/checks-and-ci.md).", valueName: "file"))
        var json: String?

        /// The plain values the run works from (CheckRun.swift); the hand parser fills them too.
        var values: CheckValues {
            CheckValues(patterns: patterns, targets: targets.values, environment: environment.values, request: request.values,
                        stub: stub, all: all, jobs: jobs, retries: retries, failFast: failFast, shard: shard, ci: ci.values,
                        maxBody: maxBody, drift: drift, driftMode: driftMode, junit: junit, json: json, allowEmpty: allowEmpty,
                        coverage: coverage.coverage, coverageMin: coverage.coverageMin, data: data)
        }

        func validate() throws { try values.validate() }

        func run() async throws { try await values.run() }
    }
}

extension Drift.Mode: ExpressibleByArgument {}

/// `--coverage SPEC` and `--coverage-min PERCENT`, of `check` and of `report merge`.
struct CoverageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Report which operations and documented responses of this OpenAPI 3 description the run exercised.",
                               valueName: "spec"),
            completion: .file(extensions: ["yaml", "yml", "json"]))
    var coverage: String?

    @Option(name: .customLong("coverage-min"),
            help: ArgumentHelp("Exit 1 when fewer than this percent of the description's operations were exercised.", valueName: "percent"))
    var coverageMin: Double?

    func validate() throws {
        if let problem = Coverage.minimumProblem(spec: coverage, minimum: coverageMin) { throw ValidationError(problem) }
    }
}
