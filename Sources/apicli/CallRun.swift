import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APIVerdict
import APISend
import APIImport
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `call`'s options as plain values, and its one run: `APICLI.Call` (argument-parser) and the hand
/// parser (HandParser.swift) both fill these.
struct CallValues {
    var target: String
    var targets = TargetsValues()
    var environment = EnvironmentValues()
    var request = RequestValues()
    var form = FormValues()
    var retries = 0
    var stub = false
    var sample: String?
    var include = false
    var verbose = 0
    var curl = false
    var dryRun = false
    var output: String?
    var download = false
    var format: EventFormat?
    var quiet = false
    /// `--data FILE`: a row file for the target (over its `each:`).
    var data: String?
    /// `--row N|LABEL`: one row of the target's rows.
    var row: String?
    /// A one-off request's curl flags (taken out of the command line before parsing: `AdHocOptions.extract`).
    var adHoc = AdHocOptions()

    /// `call`'s own checks (the groups' are `request.validate()` and `form.validate()`).
    func validate() throws {
        try SendOptions.validate(retries: retries)
        if Self.isURL(target), let problem = URLBuilder.problem(withPortOf: target) {
            throw ValidationError("'\(target)' \(problem)")
        }
        if let problem = Self.urlProblem(target) { throw ValidationError(problem) }
        if sample != nil && !stub { throw ValidationError("--sample works with --stub") }
        if download && output != nil { throw ValidationError("--download and -o do not go together: -o names the file") }
        if Self.isURL(target) && (data != nil || row != nil) {
            throw ValidationError("--data and --row pick rows of a target; a one-off request's body is -d DATA")
        }
    }

    func run() async throws {
        Terminal.setUp()
        var console = Console.plain
        do {
            let workspace = try APICLI.workspace(targets, environment, request, parts: try form.parts(), projectJar: true)
            console = Console(workspace)
            let (verbose, progress) = (self.verbose, self.progress(console))
            let caller = Caller(workspace: workspace, mode: stub ? .stub : .live, policy: SendPolicy(retries: retries),
                                plugins: { [console] call in progress + logger(call.endpoint, console, level: verbose) })
            var calls: [(Service, Target)]
            if Self.isURL(self.target) {
                calls = [try adHocTarget(self.target, workspace)]
                if let save = adHoc.save { try saveAdHoc(self.target, as: save, workspace, console) }
            } else {
                let (service, target) = try workspace.find(self.target)
                console.warn(target.warnings)
                calls = try rows(of: target, in: service, workspace)
            }
            if dryRun {
                for (i, (service, target)) in calls.enumerated() {
                    if i > 0 { console.out("\n") }
                    let captured = FlowRunner.unsent(target, in: service, find: workspace.find)
                    show(try workspace.shownOnly().build(target, in: service, captured: captured), console, workspace.settings.connection)
                }
                return
            }
            // Live, the call runs as a task on one of NIO's loops, as check's workers do: one exchange after
            // another there, over the keep-alive transport (LiveTransport's rule), with no hop to Swift's pool.
            // Rows one after another, each named on stderr; the first that fails stops the run.
            try await OneCall.run(live: !stub) {
                for (service, target) in calls {
                    if calls.count > 1 && !quiet { console.err("apicli: \(target.qualifiedName)\n") }
                    try await send(try await caller.prepare(target, in: service), caller, console)
                }
            }
        } catch let error as APIError {
            throw console.fail(error, target: target)
        }
    }

    /// The target once per row (`each:`, `--data`), or only the row `--row` picks (its 1-based
    /// number, else its label; only that row is built); the target itself when it has no rows.
    private func rows(of target: Target, in service: Service, _ workspace: Workspace) throws(APIError) -> [(Service, Target)] {
        func problem(_ message: String, hint: String? = nil) -> APIError {
            .invalid(Diagnostic(file: service.file, mark: target.mark, message: message, hint: hint))
        }
        guard let rows = try workspace.rowData(of: target, in: service, data: data) else {
            if row != nil {
                throw problem("--row picks a row, and \(target.qualifiedName) has none", hint: "give it rows with each: in the target file, or with --data FILE")
            }
            return [(service, target)]
        }
        guard let row else {
            if rows.count > 1, output != nil || download || target.task.download != nil {
                throw problem("\(target.qualifiedName) has \(rows.count) rows and one file to save the body to",
                              hint: "pick one with --row N (its number or label)")
            }
            return try workspace.rows(of: target, rows).map { (service, $0) }
        }
        var picked: DataRow?
        if let n = Int(row) {
            guard rows.indices.contains(n - 1) else { throw problem("--row \(n): \(target.qualifiedName) has rows 1 to \(rows.count)") }
            picked = rows[n - 1]
        } else {
            picked = rows.first { $0.label == row }
        }
        guard let picked else {
            let labels = rows.map(\.label)
            throw problem("--row \(row): \(target.qualifiedName) has no row labelled '\(row)'",
                          hint: Suggestions.hint(for: row, in: labels) ?? "its rows: " + labels.prefix(10).joined(separator: ", "))
        }
        return try workspace.rows(of: target, [picked]).map { (service, $0) }
    }

    /// `--dry-run`: the request (or with `--curl` the curl command) on stdout; nothing is sent,
    /// the needs neither (their captures show as {name}).
    private func show(_ call: PreparedCall, _ console: Console, _ connection: ConnectionOptions) {
        if let reason = call.skipReason { console.err("apicli: \(call.target.qualifiedName) would be skipped: \(reason)\n") }
        console.out(curl ? Curl.command(call.prepared, redactor: console.redactor, connection: connection)
                         : LogFormat.request(call.prepared, redactor: console.redactor, prefix: ""))
    }

    private func send(_ call: PreparedCall, _ caller: Caller, _ console: Console) async throws {
        let (target, endpoint) = (call.target, call.endpoint)
        if let reason = call.skipReason {  // `when:` is false: nothing is sent, and that is no failure
            return console.err("apicli: \(target.qualifiedName) skipped: \(reason)\n")
        }
        if curl { console.err(Curl.command(call.prepared, redactor: console.redactor, connection: caller.workspace.settings.connection)) }
        if !stub && !endpoint.tls.verify {
            console.err("apicli: warning: TLS certificate verification is off for \(target.qualifiedName)\n")
        }
        var answer: Sample?
        if stub {
            answer = try call.stub(sample: sample).sample
            if verbose > 0 { console.err("* stub: \(sample.map { "sample '\($0)'" } ?? "sample") of \(target.qualifiedName)\n") }
            try reportStubUploads(call.prepared, console)
        }
        let destination = try openDestination(endpoint)
        defer { destination?.discard() }
        // Not to a terminal (where JSON is re-indented whole) and not with -vv (which shows a
        // rejected body on stderr), the body streams to stdout as it comes, in flat memory;
        // -i's head goes first. An attempt that is sent again (a retry, an OAuth2 401) never
        // reaches stdout: the Caller holds it.
        // (A GraphQL response is judged for its errors: it is held.)
        let graphql = target.expect?.graphqlErrors == true
        // A text/event-stream body is printed event by event (--format), on a terminal too; there
        // any other body is held by the sink and shown whole.
        let tty = Terminal.stdoutIsTTY
        let stream = destination == nil && verbose < 2 && !graphql
            ? EventStreamOutput(format: format ?? (tty ? .events : .raw), holdOthers: tty, maxHeld: call.prepared.maxBody,
                                maxEvent: call.prepared.maxEvent,
                                host: call.prepared.hostAndPort) : nil
        let include = self.include
        var transfer = Transfer(destination: destination, stream: stream, head: { response in
            stream?.head(response)
            if include, stream != nil {
                console.out(LogFormat.responseHead(response, redactor: console.redactor) + "\n")
            }
        })
        if call.prepared.websocket != nil, destination == nil {
            transfer.message = MessageOutput.printer(format ?? .raw)
        }
        let sent = await caller.send(call, answer: answer, transfer: transfer)
        let response = try sent.response()
        try emit(response, held: stream?.heldBody, console)
        if let refusal = Judge.refusal(response, validation: endpoint.validation, graphqlErrors: graphql) {
            var line = refusal.message
            if case .status = refusal {
                let unwritten = destination.map { $0.destination == "." ? "nothing was saved" : "\($0.destination) was not written" }
                line = "rejected: " + line + (unwritten.map { "; \($0)" } ?? "")
            }
            console.err("apicli: \(target.qualifiedName): \(line)\n")
            throw ExitStatus.failed.code
        }
        if let destination { try save(destination, response, sent.request, console) }
    }

    /// Where the body goes when not to stdout: `-o`, `--download` (named later), `task: download`.
    private func openDestination(_ endpoint: Endpoint) throws(APIError) -> PartialFile? {
        if let output { return try PartialFile.create(for: output) }
        if download { return try PartialFile.create(inFolder: ".") }
        if let path = endpoint.download { return try PartialFile.create(for: path, createFolders: true) }
        return nil
    }

    /// Renames the complete, accepted body into place; says where, unless `-o` named it or `--quiet`.
    private func save(_ file: PartialFile, _ response: Response, _ request: PreparedRequest, _ console: Console) throws(APIError) {
        let bytes = file.bytesWritten
        if download {
            let name = DownloadName.derive(contentDisposition: response.headers.value(of: "Content-Disposition"),
                                           url: request.url)
            try file.commit(as: name, replace: false)
            if !quiet { console.err("apicli: saved \(name) (\(bytes) bytes)\n") }
        } else {
            try file.commit()
            if output == nil && !quiet { console.err("apicli: saved \(file.destination) (\(bytes) bytes)\n") }
        }
    }

    /// A stub sends nothing: the files an upload would send are checked and listed instead.
    private func reportStubUploads(_ request: PreparedRequest, _ console: Console) throws(APIError) {
        let files = try StubTransport.uploads(in: request)
        guard !quiet else { return }
        for file in files { console.err("apicli: stub: not sending \(file.path) (\(file.bytes) bytes)\n") }
    }

    /// The progress bar, on a terminal's stderr only.
    private func progress(_ console: Console) -> [any Plugin] {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return [] }
        return [ProgressPlugin(sink: { console.progress($0) })]
    }

    /// `-i`'s head, and the body when it goes to stdout (a saved body is committed by `save`).
    private func emit(_ response: Response, held: Data?, _ console: Console) throws(APIError) {
        if include && !response.streamed { console.out(LogFormat.responseHead(response, redactor: console.redactor) + "\n") }
        if let held { Terminal.write(BodyDisplay.body(held, forTerminal: true)); return }
        guard response.saved == nil, !response.streamed else { return }
        Terminal.write(BodyDisplay.body(response.body, forTerminal: Terminal.stdoutIsTTY))
    }
}

/// `-v`/`-vv`: the core's logger, writing to stderr through the run's redactor; every step of a
/// flow and every attempt is logged.
func logger(_ endpoint: Endpoint, _ console: Console, level verbose: Int) -> [any Plugin] {
    guard verbose > 0 else { return [] }
    return [LoggerPlugin(level: verbose > 1 ? .bodies : .heads, redactor: console.redactor,
                         validation: endpoint.validation, sink: { console.err($0) })]
}
