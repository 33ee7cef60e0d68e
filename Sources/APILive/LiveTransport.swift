import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one HTTP engine of live calls. What every exchange does whatever carries it is written here,
/// once: the deadline over the whole exchange (redirects included), the redirect loop (`Redirect`:
/// `followRedirects`, at most `Redirect.limit` hops, no credential to another origin, 303/301/302
/// method changes), the cookie jar (read before each hop, `Set-Cookie` kept from every response, a
/// redirect's included), the proxy and route of each hop (`RunSettings.hop`). A `Connector` only
/// sends one request and gives back its response; which one sends a hop is chosen per hop:
/// - h2c (`H2CConnector`) for `http2: prior-knowledge` over `http://`;
/// - URLSession (`URLSessionConnector`) on Apple platforms, and on Linux when built with the package
///   trait `URLSessionTransport` (`swift build --traits URLSessionTransport`), for plain exchanges
///   whose bodies are held in memory (no TLS options, route or proxy);
/// - our keep-alive connections (`KeepAliveConnector`) where a task on an event loop sends one
///   request after another (a load run's users, check's workers, a live `call`): plain http, bodies
///   in memory or streamed to stdout;
/// - async-http-client (`NIOConnector`) for everything else (TLS, proxies, unix sockets, files;
///   the open model's burst of requests in flight, whose connections its pool caps per host).
///
/// `settings`: the run's connection options, proxies and cookie jar (the workspace's); nothing of
/// them is process-wide.
///
/// A class (its fields are constants): each request's deadline closure and the `Decorated` around it
/// hold one reference, where the struct was copied whole into them (16 retains and as many releases
/// a request: its settings' strings and arrays and its connectors').
package final class LiveTransport: Transport {
    /// A connector.
    package enum Connection: Sendable, CaseIterable {
        case nio, keepAlive, h2c
        #if !os(Linux) || URLSessionTransport
        case urlSession
        #endif
    }

    /// nil: the choice above; set: this connector wherever it can, async-http-client for the rest
    /// (the contract tests run each connector through the same cases).
    private let only: Connection?
    private let settings: RunSettings
    private let nio: NIOConnector
    private let keepAlive = KeepAliveConnector()
    private let h2c = H2CConnector()
    #if !os(Linux) || URLSessionTransport
    private let session = URLSessionConnector()
    #endif

    /// `tls`: the TLS options of every request (a request's own win when they ask for more).
    package init(_ settings: RunSettings = RunSettings(), only: Connection? = nil, tls: TLSOptions = TLSOptions()) {
        self.only = only
        self.settings = settings
        nio = NIOConnector(tls: tls)
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        // Files and command lines are checked where they are read; this is the last guard before an
        // engine turns the number into a socket address (which traps on one above 65535).
        if let port = request.url.port, let problem = URLBuilder.problem(withPort: port) {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "\(request.url.absoluteString) \(problem)"))
        }
        let start = DispatchTime.now()
        let hop = settings.hop(request)
        let first = connection(for: request, transfer, hop)
        let holder = Canceller()
        do {
            var response: Response
            if first.cancelsPromptly {
                response = try await Deadline.bound(request.timeout, onTimeout: { holder.cancel() }) { () async throws(APIError) -> Response in
                    try await self.follow(request, hop, first, transfer: transfer, holder: holder)
                }
            } else {
                response = try await Deadline.race(request.timeout, onTimeout: { holder.cancel() }) { () async throws(APIError) -> Response in
                    try await self.follow(request, hop, first, transfer: transfer, holder: holder)
                }
            }
            response.duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            return response
        } catch let error as APIError {
            throw error
        } catch {
            throw .network(.other("\(error)"))  // connectors and deadlines throw APIErrors only
        }
    }

    /// One hop after another until a response that is not a redirect to follow (`RedirectWalk`, as
    /// `RunSettings.follow` walks it, here with no closure and no async call of its own a hop);
    /// each redirect leaves by its own hop and connector.
    @inline(__always)  // into the deadline's closure: one async frame less a request
    nonisolated(nonsending) private func follow(_ request: PreparedRequest, _ hop: Hop, _ connection: Connection,
                        transfer: Transfer, holder: Canceller) async throws(APIError) -> Response {
        var (hop, connection) = (hop, connection)
        var walk = RedirectWalk(request, settings)
        while true {
            let sent = walk.outgoing
            if walk.redirected {
                hop = settings.hop(sent)
                connection = self.connection(for: sent, transfer, hop)
            }
            if let response = try walk.answered(await exchange(sent, hop, connection, transfer: transfer, holder: holder)) { return response }
        }
    }

    nonisolated(nonsending) private func exchange(_ request: PreparedRequest, _ hop: Hop, _ connection: Connection, transfer: Transfer,
                          holder: Canceller) async throws(APIError) -> Exchanged {
        switch connection {
        case .nio: try await nio.exchange(request, hop, transfer: transfer, holder: holder)
        case .keepAlive: try await keepAlive.exchange(request, hop, transfer: transfer, holder: holder)
        case .h2c: try await h2c.exchange(request, hop, transfer: transfer, holder: holder)
        #if !os(Linux) || URLSessionTransport
        case .urlSession: try await session.exchange(request, hop, transfer: transfer, holder: holder)
        #endif
        }
    }

    /// The connector that sends `request`, leaving as `hop` says.
    func connection(for request: PreparedRequest, _ transfer: Transfer, _ hop: Hop) -> Connection {
        switch only {
        case nil:
            if request.http2PriorKnowledge, h2c.covers(request, hop) { return .h2c }
            #if !os(Linux) || URLSessionTransport
            // Bodies in memory both ways: async-http-client's reads wait for each write (back-pressure
            // URLSession's delegate does not give) and it sees a compressed body's size on the wire.
            if transfer.destination == nil, transfer.stream == nil, request.body?.isStreamed != true,
               session.covers(request, hop) { return .urlSession }
            #endif
            if EventLoopExecutor.current != nil, keepAlive.covers(request, transfer, hop) { return .keepAlive }
            return .nio
        case .nio?: return .nio
        case .keepAlive?: return keepAlive.covers(request, transfer, hop) ? .keepAlive : .nio
        case .h2c?: return h2c.covers(request, hop) ? .h2c : .nio
        #if !os(Linux) || URLSessionTransport
        case .urlSession?: return session.covers(request, hop) ? .urlSession : .nio
        #endif
        }
    }

    /// The first hop's headers as its connector writes them: async-http-client's and the keep-alive
    /// connections' from `PreparedRequest.wireHeaders`, with the cookie jar's; h2c and URLSession
    /// add theirs where apicli does not see them (`:authority`; URLSession's Host, Accept-Encoding,
    /// Connection…), so only the request's own (with the jar's cookies) are told for those.
    package func headersSent(_ request: PreparedRequest, transfer: Transfer) -> [HeaderField] {
        let sent = settings.cookieHeader(for: request).map { RunSettings.joining($0, to: request) } ?? request
        switch connection(for: request, transfer, settings.hop(request)) {
        case .nio, .keepAlive: return sent.wireHeaders
        case .h2c: return sent.headers
        #if !os(Linux) || URLSessionTransport
        case .urlSession: return sent.headers
        #endif
        }
    }

    /// Whether URLSession sends this exchange (in a build that has it).
    package func usesURLSession(_ request: PreparedRequest, _ transfer: Transfer) -> Bool {
        #if !os(Linux) || URLSessionTransport
        connection(for: request, transfer, settings.hop(request)) == .urlSession
        #else
        false
        #endif
    }
}

extension LiveTransport.Connection {
    var cancelsPromptly: Bool {
        switch self {
        case .nio: NIOConnector.cancelsPromptly
        case .keepAlive: KeepAliveConnector.cancelsPromptly
        case .h2c: H2CConnector.cancelsPromptly
        #if !os(Linux) || URLSessionTransport
        case .urlSession: URLSessionConnector.cancelsPromptly
        #endif
        }
    }
}
