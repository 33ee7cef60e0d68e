import APIImport
import ArgumentParser

extension APICLI {
    struct Call: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "call",
            abstract: "Send a target's request, or answer with its sample (--stub), and print the body.",
            discussion: """
                Downloads (-o, --download, task: download) stream the body to a temporary file next to the \
                destination, renamed into place only when complete and accepted. A progress bar shows on \
                stderr for transfers longer than a second when stderr is a terminal (not with --quiet).

                A URL instead of a target sends a one-off request, read as curl reads the same flags: \
                -X METHOD (--request), -d DATA (--data, repeatable), --json JSON, and -H, -F as for a target; \
                --save service.target writes it as a target into targets/SERVICE.yaml.

                Exit codes: apicli help exit-codes.
                """
        )

        @Argument(help: "The target, as service.target; or a URL for a one-off request (with -X METHOD, -d DATA, --json JSON, --save service.target).",
                  completion: .custom(completeTargetNames))
        var target: String

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var environment: EnvironmentOptions
        @OptionGroup var request: RequestOptions
        @OptionGroup var form: FormOptions
        @Option(help: SendOptions.retriesHelp)
        var retries = 0

        @Flag(help: "Answer with the target's sample response; nothing is sent.")
        var stub = false

        @Option(help: ArgumentHelp("With --stub, use this entry of samples: instead of sample:.", valueName: "name"))
        var sample: String?

        @Option(help: ArgumentHelp("Send the target once per row of this file (CSV with a header row, JSON array of objects, YAML list), over its each:; the row's fields are {placeholders}.",
                                   valueName: "file"))
        var data: String?

        @Option(help: ArgumentHelp("With rows (each: or --data), send only this one: its 1-based number, or its label.", valueName: "n"))
        var row: String?

        @Flag(name: .shortAndLong, help: "Print the status line and headers before the body.")
        var include = false

        @Flag(name: .shortAndLong, help: "Print the request and the response head to stderr; -vv adds the body of a rejected response.")
        var verbose: Int

        @Flag(help: "Print a runnable curl command for the request (stderr; stdout with --dry-run).")
        var curl = false

        @Flag(name: .customLong("dry-run"), help: "Send nothing: print the request (or, with --curl, the curl command) and exit 0.")
        var dryRun = false

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Stream the body to this file, kept only if the response is accepted (never a partial file).", valueName: "file"))
        var output: String?

        @Flag(help: "Save the body in the current folder under the name the server gives (Content-Disposition) or the URL's last segment.")
        var download = false

        @Option(help: ArgumentHelp(
            "How a text/event-stream response is printed, each event as it comes: raw (the bytes), events (event:/id:/data: blocks; the default on a terminal, raw otherwise) or json (one {\"event\",\"data\",\"id\"} object a line). A WebSocket conversation: each message on a line (raw, events) or one {\"type\",\"data\",\"at\"} object a line (json).",
            valueName: "raw|events|json"))
        var format: EventFormat?

        @Flag(name: .shortAndLong, help: "No progress bar and no notes on stderr; errors are still printed.")
        var quiet = false

        /// The plain values the run works from (CallRun.swift); the hand parser fills them too.
        var values: CallValues {
            CallValues(target: target, targets: targets.values, environment: environment.values, request: request.values,
                       form: form.values, retries: retries, stub: stub, sample: sample, include: include, verbose: verbose,
                       curl: curl, dryRun: dryRun, output: output, download: download, format: format, quiet: quiet, data: data, row: row)
        }

        func validate() throws { try values.validate() }

        func run() async throws { try await values.run() }
    }
}
