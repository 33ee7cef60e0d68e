import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
/// The transport for live calls. On Linux it is async-http-client for everything (`NIOTransport`:
/// no libcurl is linked). On Apple platforms — and on Linux when built with the package trait
/// `URLSessionTransport` (`swift build --traits URLSessionTransport`), which keeps that transport
/// compiling and tested — URLSession serves plain calls whose body is held in memory, and
/// async-http-client the rest: TLS options, streamed request bodies, and bodies streamed to a file
/// or stdout (its reads wait for each write: back-pressure that URLSession's delegate does not give,
/// and a compressed body's size on the wire that libcurl hides).
///
/// `settings`: the run's connection options, proxies and cookie jar (the workspace's), read from
/// here by every engine below; nothing of them is process-wide.
package struct LiveTransport: Transport {
    private let connection: ConnectionOptions
    private let nio: NIOTransport
    private let keepAlive: KeepAliveTransport
    private let h2c: H2CTransport
    #if !os(Linux) || URLSessionTransport
    private let session = URLSessionTransport()
    #endif

    package init(_ settings: RunSettings = RunSettings()) {
        connection = settings.connection
        nio = NIOTransport(settings: settings)
        keepAlive = KeepAliveTransport(settings: settings)
        h2c = H2CTransport(settings: settings)
    }

    package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        // Files and command lines are checked where they are read; this is the last guard before an
        // engine turns the number into a socket address (which traps on one above 65535).
        if let port = request.url.port, let problem = URLBuilder.problem(withPort: port) {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "\(request.url.absoluteString) \(problem)"))
        }
        if request.http2PriorKnowledge, request.socket == nil, request.url.scheme?.lowercased() == "http",
           connection.unixSocket == nil, !connection.http1Only {
            return try await h2c.send(request, transfer: transfer)
        }
        #if !os(Linux) || URLSessionTransport
        if Self.usesURLSession(request, transfer, connection) { return try await session.send(request, transfer: transfer) }
        #endif
        // Our keep-alive connections where a task on an event loop sends one request after another (a
        // load run's users, check's workers, a live `call`): connections bounded by those tasks. Elsewhere
        // (the open model's burst of requests in flight) async-http-client's pool caps them per host.
        if EventLoopExecutor.current != nil, keepAlive.covers(request, transfer) {
            return try await keepAlive.sendCovered(request, transfer: transfer)
        }
        return try await nio.send(request, transfer: transfer)
    }

    #if !os(Linux) || URLSessionTransport
    /// Whether URLSession serves this exchange (else async-http-client). URLSession cannot route a
    /// connection (`--resolve`, `--connect-to`, a unix socket) nor refuse HTTP/2 (`--http1.1`): such
    /// exchanges go to async-http-client, which can, rather than being sent somewhere else.
    package static func usesURLSession(_ request: PreparedRequest, _ transfer: Transfer, _ connection: ConnectionOptions) -> Bool {
        guard request.tls.isDefault, transfer.destination == nil, transfer.stream == nil,
              request.body?.isStreamed != true, request.socket == nil else { return false }
        return !connection.http1Only && connection.route(for: request.url) == ConnectionOptions.Route()
    }
    #endif
}
