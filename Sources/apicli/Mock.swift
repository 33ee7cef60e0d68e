import APISupport
import APIDiagnostics
import APITargets
import APITransport
import APIVerdict
import APIMock
import ArgumentParser
import Dispatch
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

extension APICLI {
    struct Mock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mock",
            abstract: "Serve the targets' samples over HTTP: a mock server of the declared API.",
            usage: "apicli mock [<options>] [<pattern> ...]",  // argument-parser's own is wider than 80 columns
            discussion: """
                A request is routed by its method and path: the service's baseURL path, then the target's \
                path, {name} matching one segment (and expanding {name} in the sample). The header \
                X-Apicli-Sample: NAME (or ?apicli-sample=NAME) picks an entry of samples:; otherwise \
                sample: answers. An unmatched request gets 404 with the closest routes. One line per \
                request goes to stderr (not with -q). The files are reloaded when they change, or on \
                SIGHUP; a bad edit keeps the last good version. SIGINT and SIGTERM stop the server.

                Exit codes: 0 stopped by SIGINT or SIGTERM, 2 bad target file or pattern, or a route \
                conflict, 3 the port cannot be listened on.
                """
        )

        @Argument(help: ArgumentHelp("Services (github) or service.target globs; default: all.", valueName: "pattern"),
                  completion: .custom(completeTargetNames))
        var patterns: [String] = []

        @OptionGroup var targets: TargetsOptions
        @OptionGroup var environment: EnvironmentOptions

        @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "n"))
        var port = 4010

        @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
        var host = "127.0.0.1"

        @Option(name: .customLong("service"),
                help: ArgumentHelp("When two services answer the same route, this one does (repeatable).", valueName: "name"))
        var services: [String] = []

        @Flag(name: .customLong("validate"),
              help: "Refuse to start when a sample breaks its target's expect: schema: or answers a status its operation does not document (each at its line); answer a request whose JSON body or parameters break the operation's schemas with the client-error status the operation documents (else 400) and the violations.")
        var validateSamples = false

        @Flag(name: .shortAndLong, help: "No log line per request.")
        var quiet = false

        @Option(name: .customLong("max-connections"),
                help: ArgumentHelp("Connections open at once; one more is closed at once (default 512).", valueName: "n"))
        var maxConnections = MockServer.Limits().connections

        @Option(name: .customLong("request-timeout"),
                help: ArgumentHelp("Seconds a connection has to send a whole request, from when it opened or got its last response, and the longest its answers may wait unread; then it is closed (idle, slow and non-reading clients; default 30).",
                                   valueName: "seconds"))
        var requestTimeout = MockServer.Limits().requestTimeout

        func validate() throws {
            if !(0...65535).contains(port) { throw ValidationError("--port takes 0 to 65535, got \(port)") }
            if !(1...100_000).contains(maxConnections) {
                throw ValidationError("--max-connections takes 1 to 100000, got \(maxConnections)")
            }
            if !Durations.accepts(requestTimeout, allowZero: false) {
                throw ValidationError("--request-timeout takes a positive number of seconds, at most \(Int(Durations.maxSeconds)), got \(requestTimeout)")
            }
        }

        private func load() throws(APIError) -> (MockTable, FileStamps, [Service]) {
            let workspace = try APICLI.workspace(targets, environment)
            let catalog = try workspace.catalog()
            for name in services where !catalog.services.contains(where: { $0.name == name }) {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "--service \(name): no such service",
                                          hint: Suggestions.hint(for: name, in: catalog.services.map(\.name))))
            }
            let selected = try Selection.select(catalog, patterns: patterns)
            if validateSamples {
                let broken = SampleCheck.schemaDiagnostics(selected, workspace: workspace)
                if !broken.isEmpty { throw .invalidInput(broken) }
            }
            var table = try MockTable(workspace: workspace, selected: selected, prefer: services)
            table.validateRequests = validateSamples
            let stamps = FileStamps(directory: targets.directory,
                                    files: environment.envFiles + FileStamps.referenced(by: catalog.services))
            return (table, stamps, catalog.services)
        }

        func run() async throws {
            signal(SIGPIPE, SIG_IGN)
            let events = Self.events()
            let console = Console.plain
            var (table, stamps, watched) = try loaded(console)
            let quiet = self.quiet
            var log: (@Sendable (MockServer.Event) -> Void)?
            if !quiet { log = Self.logLine }
            let server: MockServer
            do throws(APIError) {
                server = try await MockServer.start(host: host, port: port, table: table,
                                                    limits: .init(connections: maxConnections, requestTimeout: requestTimeout), log: log)
            } catch {
                throw console.fail(error, target: nil)
            }
            console.out(server.url + "\n" + Self.summary(table, url: server.url))
            for await event in events.stream {
                switch event {
                case .stop(let word):
                    await server.stop()
                    console.err("apicli mock: \(word), stopped\n")
                    return
                case .hangUp, .tick:
                    if case .tick = event {
                        let now = FileStamps(directory: targets.directory, files: environment.envFiles
                                             + FileStamps.referenced(by: watched))
                        if now == stamps { continue }
                        stamps = now
                    }
                    do throws(APIError) {
                        let (fresh, freshStamps, freshServices) = try load()
                        (table, stamps, watched) = (fresh, freshStamps, freshServices)
                        server.reload(fresh)
                        console.err("apicli mock: reloaded, \(Self.routes(fresh.routes.count))\n")
                    } catch {
                        _ = console.fail(error, target: nil)
                        console.err("apicli mock: keeping the last good version (\(Self.routes(table.routes.count)))\n")
                    }
                }
            }
        }

        private func loaded(_ console: Console) throws -> (MockTable, FileStamps, [Service]) {
            do throws(APIError) {
                return try load()
            } catch {
                throw console.fail(error, target: nil)
            }
        }

        static func routes(_ n: Int) -> String { n == 1 ? "1 route" : "\(n) routes" }

        /// The request's log line, on stderr.
        @Sendable static func logLine(_ event: MockServer.Event) {
            var line = Console.visible(event.line)  // the URI is the client's
            line += "\n"
            Terminal.write(line, to: STDERR_FILENO)
        }

        /// One line per service: where its routes are served.
        static func summary(_ table: MockTable, url: String) -> String {
            var order: [String] = []
            var counts: [String: (base: String, routes: Int)] = [:]
            for route in table.routes {
                let name = route.service.name
                if counts[name] == nil { order.append(name) }
                let base = route.basePath
                counts[name] = (base, (counts[name]?.routes ?? 0) + 1)
            }
            var out = ""
            for name in order.sorted() {
                let (base, n) = counts[name]!
                out += "  \(name)  \(url)\(base)  (\(routes(n)))\n"
            }
            if !table.withoutSamples.isEmpty {
                out += "  not served (no sample): \(table.withoutSamples.joined(separator: ", "))\n"
            }
            return out
        }

        enum Event: Sendable {
            case stop(String)
            case hangUp
            case tick
        }

        /// SIGINT and SIGTERM stop; SIGHUP reloads; every half second the files are looked at.
        /// The signals are caught by a plain handler that records the number, read by a timer every
        /// 0.1 s: with `SIG_IGN` and a dispatch signal source, a signal the kernel hands to one of
        /// SwiftNIO's threads (busy serving) would be ignored there and lost.
        static func events() -> (stream: AsyncStream<Event>, sources: [any DispatchSourceProtocol]) {
            let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
            for number in [SIGINT, SIGTERM, SIGHUP] {
                signal(number) { caughtSignal = $0 }
            }
            let timer = DispatchSource.makeTimerSource(queue: .global())
            let ticks = Locked(0)
            timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
            timer.setEventHandler {
                let number = caughtSignal
                if number != 0 {
                    caughtSignal = 0
                    continuation.yield(number == SIGHUP ? .hangUp : .stop(number == SIGINT ? "interrupted" : "terminated"))
                }
                if ticks.withLock({ $0 += 1; return $0 % 5 == 0 }) { continuation.yield(.tick) }
            }
            timer.resume()
            Self.keep = [timer]
            return (stream, [timer])
        }

        nonisolated(unsafe) private static var keep: [any DispatchSourceProtocol] = []
    }
}

/// The last SIGINT, SIGTERM or SIGHUP `mock` caught (0: none since it was read).
nonisolated(unsafe) private var caughtSignal: Int32 = 0
