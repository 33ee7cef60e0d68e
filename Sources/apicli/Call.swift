import APICore
import ArgumentParser
import Foundation

extension APICLI {
    struct Call: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a target's request, or answer with its sample (--stub), and print the body.",
            discussion: "Exit codes: 0 ok, 1 rejected by validate:, 2 bad target file or name, 3 network, 4 timeout, 5 cannot write -o file."
        )

        @Argument(help: "The target, as service.target.", completion: .custom(completeTargetNames))
        var target: String

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var request: RequestOptions

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
            "Write the body to this file, only if the response is accepted (never a partial file).", valueName: "file"))
        var output: String?

        func validate() throws {
            if sample != nil && !stub { throw ValidationError("--sample works with --stub") }
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
            let call = try ResolvedCall(self.target, targets: targets, options: request)
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
            let exchange = try await Exchange.perform(call.request, validation: endpoint.validation, transport: transport,
                                                      plugins: call.plugins + logger(endpoint))
            try emit(exchange)
            if !exchange.accepted {
                let r = exchange.response
                Terminal.err("apicli: \(target.qualifiedName): rejected: status \(r.statusLine.dropFirst(9)) is not accepted by "
                             + "validate: \(exchange.validation)\(output.map { "; \($0) was not written" } ?? "")\n")
                throw ExitCode(1)
            }
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

        private func emit(_ exchange: Exchange) throws(APIError) {
            let response = exchange.response
            if include { Terminal.out(Printer.responseHead(response) + "\n") }
            guard let output else {
                Terminal.write(Printer.body(response.body, forTerminal: Terminal.stdoutIsTTY))
                return
            }
            guard exchange.accepted else { return }
            try OutputFile.write(response.body, to: output)
        }
    }
}
