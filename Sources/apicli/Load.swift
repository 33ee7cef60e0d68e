import APIDiagnostics
import APIEndpoint
import APILoad
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension APICLI {
    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load",
            abstract: "Load-test targets: many requests through the same send path, with HDR latency percentiles and thresholds.",
            discussion: """
                Closed model: --users N virtual users, each sending one request after another (its own needs: \
                and captures), --think between them. Open model: --rate R/s or --ramp stages; requests start on \
                schedule whether or not earlier ones came back (at most --max-in-flight), and latency counts \
                from the scheduled start. Stop after --duration (default 10s, or the ramp's length) or --requests.

                Watch a run while it goes: --metrics serves live Prometheus metrics, --jsonl streams a line a second.

                Exit codes: 0 every threshold passed, 1 a threshold failed, 2 bad target file or pattern, \
                3 the --metrics address cannot be listened on, 5 a report or --jsonl cannot be written, \
                64 bad flags or a host refused without --yes, 130 Ctrl-C (the report so far is printed and written).
                """
        )

        @Argument(help: ArgumentHelp("Services (github) or service.target globs ('httpbin.status*'); default: all.",
                                     valueName: "pattern"),
                  completion: .custom(completeTargetNames))
        var patterns: [String] = []

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var environment: EnvironmentOptions
        @OptionGroup var request: RequestOptions
        @Option(help: SendOptions.retriesHelp)
        var retries = 0

        @Option(help: ArgumentHelp("Stop starting requests after this long (30s, 2m; default 10s, or the ramp's length).", valueName: "time"))
        var duration: String?

        @Option(help: ArgumentHelp("Stop after this many requests.", valueName: "n"))
        var requests: Int?

        @Option(help: ArgumentHelp("Closed model: virtual users, each looping over the targets.", valueName: "n"))
        var users: Int?

        @Option(help: ArgumentHelp("Closed model: pause after each request of a user (100ms).", valueName: "time"))
        var think: String?

        @Option(help: ArgumentHelp("Open model: requests started a second (500/s, 6000/m).", valueName: "rate"))
        var rate: String?

        @Option(help: ArgumentHelp("Open model: rate stages 'from:to duration, …' ('0:100/s 10s, 100:500/s 30s'); the last rate holds after them.",
                                   valueName: "stages"))
        var ramp: String?

        @Option(name: .customLong("max-in-flight"), help: ArgumentHelp("Open model: requests in flight at most (default 1000); a start waits for a slot, late.",
                                                                       valueName: "n"))
        var maxInFlight = 1000

        @Option(name: .customLong("max-body"),
                help: ArgumentHelp("The most bytes of a response body held, for until: and needs: only (default 1 MiB; a larger one is an error); every other body is counted and dropped.",
                                   valueName: "bytes"))
        var maxBody: Int64?

        @Option(help: ArgumentHelp("A target's weight (service.target=3), over its load: { weight: }. Repeatable.", valueName: "name=n"))
        var weight: [String] = []

        @Option(help: ArgumentHelp("A threshold: [service.target:]metric<value (p99<500ms, errors<1%, rps>=100). Repeatable.",
                                   valueName: "rule"))
        var threshold: [String] = []

        @Option(help: ArgumentHelp("Rows for every selected target (CSV with a header row, JSON array of objects, YAML list), over their each:; each request of a target sends one row.",
                                   valueName: "file"))
        var data: String?

        @Option(name: .customLong("data-order"),
                help: ArgumentHelp("How a target's requests go through its rows: round-robin (default: 1, 2, …, n, 1, …) or random.",
                                   valueName: "round-robin|random"))
        var dataOrder: String?

        @Option(help: ArgumentHelp("With --data-order random: the generator's seed (0 to 2^64-1), so a run with --requests sends the same rows again; default: a new seed each run.",
                                   valueName: "n"))
        var seed: UInt64?

        @Flag(help: "Stop the run as soon as a threshold fails.")
        var abortOnFail = false

        @Option(help: ArgumentHelp("Run this shard's share of the users or the rate (i/n, 1-based); auto: from the CI engine's environment.",
                                   valueName: "i/n|auto"))
        var shard: String?

        @Option(name: .customLong("start-at"), help: ArgumentHelp("Start at this time (Unix seconds, or YYYY-MM-DDTHH:MM:SSZ): shards start together.",
                                                                  valueName: "time"))
        var startAt: String?

        @Option(help: ArgumentHelp("Serve live Prometheus metrics at http://ADDR/metrics while the run goes (127.0.0.1:9464; :9464 is loopback, :0 a free port, 0.0.0.0:9464 every address).",
                                   valueName: "addr"))
        var metrics: String?

        @Option(name: .customLong("metrics-linger"),
                help: ArgumentHelp("After the run, serve --metrics until it is scraped once more, at most this long (default 0s: set it above the scrape interval).",
                                   valueName: "time"))
        var metricsLinger: String?

        @Option(help: ArgumentHelp("Stream one JSON line a second (what finished in it) to this file while the run goes; - is stdout (the summary then goes to stderr).",
                                   valueName: "file"))
        var jsonl: String?

        @Flag(help: "Also load targets with check: false and methods other than GET, HEAD, OPTIONS that are not named.")
        var all = false

        @Flag(help: "Send load to a host that is neither loopback nor in the target files' baseURLs.")
        var yes = false

        @Flag(name: .shortAndLong, help: "No progress lines.")
        var quiet = false

        @Option(help: ArgumentHelp("Write a JSON report (histograms included: apicli report merge adds shards up).", valueName: "file"))
        var json: String?

        @Option(help: ArgumentHelp("Write a JUnit XML report: one case per threshold.", valueName: "file"))
        var junit: String?

        @Option(help: ArgumentHelp("Write a self-contained HTML report with latency and throughput charts.", valueName: "file"))
        var reportHTML: String?

        func validate() throws {
            try SendOptions.validate(retries: retries)
            _ = try LoadFlags(self)
        }

        func run() async throws {
            Terminal.setUp()
            let flags = try LoadFlags(self)
            LoadRunner.startLoops()
            var console = Console.plain
            let (setup, workspace): (LoadSetup, Workspace)
            do throws(APIError) {
                workspace = try APICLI.workspace(targets, environment, request, maxBody: flags.maxBody)
                console = Console(workspace)
                setup = try LoadSetup(workspace, flags.request(patterns))
            } catch {
                throw console.fail(error, target: nil)
            }
            switch setup.problem {
            case .weight(let name)?:
                console.err("apicli: --weight names \(name), which is not among the selected targets\n")
                throw ExitStatus.usage.code
            case .threshold(let name)?:
                console.err("apicli: --threshold names \(name), which is not among the selected targets\n")
                throw ExitStatus.usage.code
            case nil: break
            }
            for (name, reason) in setup.leftOut where !quiet { console.err("apicli: left out \(name): \(reason)\n") }
            try confirmHosts(setup, console)
            try await execute(setup, workspace, flags, console)
        }
    }
}
