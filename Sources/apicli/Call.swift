import APICore
import ArgumentParser
import Foundation

extension APICLI {
    struct Call: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a target's request, or answer with its sample (--stub), and print the body.",
            discussion: """
                Downloads (-o, --download, task: download) stream the body to a temporary file next to the \
                destination, renamed into place only when complete and accepted. A progress bar shows on \
                stderr for transfers longer than a second when stderr is a terminal (not with --quiet).

                Exit codes: 0 ok, 1 rejected by validate:, 2 bad target file or name, 3 network, 4 timeout, \
                5 cannot write the output file, 130 interrupted.
                """
        )

        @Argument(help: "The target, as service.target.", completion: .custom(completeTargetNames))
        var target: String

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var request: RequestOptions
        @OptionGroup var form: FormOptions

        @Flag(help: "Answer with the target's sample response; nothing is sent.")
        var stub = false

        @Option(help: ArgumentHelp("With --stub, use this entry of samples: instead of sample:.", valueName: "name"))
        var sample: String?

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

        @Flag(name: .shortAndLong, help: "No progress bar and no notes on stderr; errors are still printed.")
        var quiet = false

        func validate() throws {
            if sample != nil && !stub { throw ValidationError("--sample works with --stub") }
            if download && output != nil { throw ValidationError("--download and -o do not go together: -o names the file") }
        }

        func run() async throws {
            Terminal.setUp()
            do {
                try await call()
            } catch let error as APIError {
                throw Terminal.fail(error, target: target)
            }
        }

        private func call() async throws {
            let call = try ResolvedCall(self.target, targets: targets, options: request, parts: try form.parts())
            let (service, target, endpoint) = (call.service, call.target, call.endpoint)
            if dryRun {
                Terminal.out(curl ? Curl.command(call.prepared, redactor: Terminal.redactor) : Printer.request(call.prepared, prefix: ""))
                return
            }
            if curl { Terminal.err(Curl.command(call.prepared, redactor: Terminal.redactor)) }
            let transport: any Transport = stub
                ? StubTransport(sample: try chosenSample(target, service),
                                bindings: try call.resolver.bindings(for: target, in: service), file: service.file)
                : LiveTransport()
            if !stub && !endpoint.tls.verify {
                Terminal.err("apicli: warning: TLS certificate verification is off for \(target.qualifiedName)\n")
            }

            if verbose > 0 && stub {
                Terminal.err("* stub: \(sample.map { "sample '\($0)'" } ?? "sample") of \(target.qualifiedName)\n")
            }
            if stub { try reportStubUploads(call.prepared) }
            let destination = try openDestination(endpoint)
            defer { destination?.discard() }
            let exchange = try await Exchange.perform(call.request, validation: endpoint.validation, transport: transport,
                                                      plugins: call.plugins + progress() + logger(endpoint),
                                                      destination: destination)
            try emit(exchange)
            if !exchange.accepted {
                let r = exchange.response
                let unwritten = destination.map { $0.destination == "." ? "nothing was saved" : "\($0.destination) was not written" }
                Terminal.err("apicli: \(target.qualifiedName): rejected: status \(r.statusLine.dropFirst(9)) is not accepted by "
                             + "validate: \(exchange.validation)\(unwritten.map { "; \($0)" } ?? "")\n")
                throw ExitCode(1)
            }
            if let destination { try save(destination, exchange) }
        }

        /// Where the body goes when not to stdout: `-o`, `--download` (named later), `task: download`.
        private func openDestination(_ endpoint: Endpoint) throws(APIError) -> PartialFile? {
            if let output { return try PartialFile.create(for: output) }
            if download { return try PartialFile.create(inFolder: ".") }
            if let path = endpoint.download { return try PartialFile.create(for: path, createFolders: true) }
            return nil
        }

        /// Renames the complete, accepted body into place; says where, unless `-o` named it or `--quiet`.
        private func save(_ file: PartialFile, _ exchange: Exchange) throws(APIError) {
            let bytes = file.bytesWritten
            if download {
                let name = DownloadName.derive(contentDisposition: exchange.response.headers.value(of: "Content-Disposition"),
                                               url: exchange.request.url)
                try file.commit(as: name, replace: false)
                if !quiet { Terminal.err("apicli: saved \(name) (\(bytes) bytes)\n") }
            } else {
                try file.commit()
                if output == nil && !quiet { Terminal.err("apicli: saved \(file.destination) (\(bytes) bytes)\n") }
            }
        }

        /// A stub sends nothing: the files an upload would send are checked and listed instead.
        private func reportStubUploads(_ request: PreparedRequest) throws(APIError) {
            let files = try StubTransport.uploads(in: request)
            guard !quiet else { return }
            for file in files { Terminal.err("apicli: stub: not sending \(file.path) (\(file.bytes) bytes)\n") }
        }

        /// The progress bar, on a terminal's stderr only.
        private func progress() -> [any Plugin] {
            guard !quiet, isatty(STDERR_FILENO) == 1 else { return [] }
            return [ProgressPlugin(sink: { Terminal.err($0) })]
        }

        /// `-v`/`-vv`: the core's logger, writing to stderr through the run's redactor.
        private func logger(_ endpoint: Endpoint) -> [any Plugin] {
            guard verbose > 0 else { return [] }
            return [LoggerPlugin(level: verbose > 1 ? .bodies : .heads, redactor: Terminal.redactor,
                                 validation: endpoint.validation, sink: { Terminal.err($0) })]
        }

        private func chosenSample(_ target: Target, _ service: Service) throws(APIError) -> Sample {
            if let found = target.sample(named: sample) { return found }
            if let sample {
                throw .invalid(Diagnostic(file: service.file, mark: target.mark,
                                          message: "\(target.qualifiedName) has no sample named '\(sample)'",
                                          hint: Suggestions.hint(for: sample, in: target.samples.map(\.name))
                                            ?? "its samples: " + (target.samples.isEmpty ? "none" : target.samples.map(\.name).joined(separator: ", "))))
            }
            throw .invalid(Diagnostic(file: service.file, mark: target.mark,
                                      message: "\(target.qualifiedName) has no sample: to answer --stub with",
                                      hint: "add sample: { status: 200, body: … } to the target"))
        }

        /// `-i`'s head, and the body when it goes to stdout (a saved body is committed by `save`).
        private func emit(_ exchange: Exchange) throws(APIError) {
            let response = exchange.response
            if include { Terminal.out(Printer.responseHead(response) + "\n") }
            guard response.saved == nil else { return }
            Terminal.write(Printer.body(response.body, forTerminal: Terminal.stdoutIsTTY))
        }
    }
}
