import APISupport
import APIDiagnostics
import APIEndpoint
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One way of opening a connection (async-http-client, the keep-alive pool, h2c, URLSession): it
/// sends one request and gives back its response. Everything around that — following redirects
/// (`Redirect`), the cookie jar, choosing the proxy and the route, the deadline over all the hops —
/// is the engine's (`LiveTransport` in APILive), written once for every connector.
///
/// The connector's part of the contract: `request` goes out as it is (its `Cookie` already holds
/// the jar's), through `hop.proxy` to where `hop.route` says; the response's head reaches
/// `transfer.head` before any of its body moves, and its body is held up to `request.maxBody` or
/// written into `transfer`'s destination or stream as it comes (`saved`/`streamed` set), gzip and
/// deflate inflated within `ClientPool.inflationRatio` — unless `Redirect.follows` says the engine
/// follows it: then its head is not reported and its body is dropped. Its failures are thrown as
/// `APIError`s; `holder` cancels the exchange (the deadline).
package protocol Connector: Sendable {
    func exchange(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller) async throws(APIError) -> Exchanged

    /// Whether `holder.cancel()` ends an exchange at once: then the deadline waits in the calling
    /// task (`Deadline.bound`), else the exchange runs in a task of its own that the deadline
    /// gives up on (`Deadline.race`).
    static var cancelsPromptly: Bool { get }
}

/// How one request leaves: through which proxy, to which address, under which connection limits.
/// Worked out by the engine for every hop from the run's settings (`RunSettings.hop`).
package struct Hop: Sendable {
    /// nil: a direct connection. Never set with a unix socket.
    package var proxy: ProxySettings.Server?
    /// `--resolve`, `--connect-to`, a unix socket.
    package var route: ConnectionOptions.Route
    /// `--http1.1`.
    package var http1Only: Bool
    /// HTTP/1.1 connections kept per host by async-http-client's pool.
    package var connectionsPerHost: Int
}

/// A connector's answer to one request.
package struct Exchanged: Sendable {
    package var response: Response
    /// A redirect the engine follows (`Redirect.follows`): its head was not reported, its body dropped.
    package var follows: Bool

    package init(_ response: Response, follows: Bool) {
        self.response = response
        self.follows = follows
    }
}

/// The run's settings as the engine and the WebSocket handshake use them, and nowhere else: each
/// hop's proxy and route, the jar's cookies going out and coming back.
extension RunSettings {
    /// How `request` leaves: its route, and its proxy unless the route is a unix socket.
    package func hop(_ request: PreparedRequest) -> Hop {
        let route = connection.route(for: request.url, socket: request.socket)
        return Hop(proxy: route.socket == nil ? proxies.server(for: request.url) : nil, route: route,
                   http1Only: connection.http1Only, connectionsPerHost: connection.connectionsPerHost)
    }

    /// The jar's `Cookie` value for `request` (nil with `cookies: false`, or when none applies).
    package func cookieHeader(for request: PreparedRequest, url: URL? = nil) -> String? {
        Self.cookieHeader(for: request, url: url, in: cookies)
    }

    package static func cookieHeader(for request: PreparedRequest, url: URL? = nil, in jar: CookieJar) -> String? {
        request.cookies ? jar.header(for: url ?? request.url) : nil
    }

    /// `request` with `jar` (the jar's cookies) joined to its own `Cookie` (the first; the others
    /// dropped), at the end of its headers.
    package static func joining(_ jar: String, to request: PreparedRequest) -> PreparedRequest {
        var out = request
        let own = out.headers.value(of: "Cookie")
        if own != nil { out.headers.removeAll { $0.name.equalsIgnoringCase("Cookie") } }
        out.headers.append(HeaderField("Cookie", own.map { $0 + "; " + jar } ?? jar))
        return out
    }

    /// Keeps the `Set-Cookie` fields of a response to `request` (a redirect's too), unless the
    /// request says `cookies: false`.
    package func store(_ response: Response, of request: PreparedRequest) {
        Self.store(response, of: request, in: cookies)
    }

    package static func store(_ response: Response, of request: PreparedRequest, in jar: CookieJar) {
        guard request.cookies, response.headers.contains(where: { isSetCookie($0.name) }) else { return }
        jar.store(response.headers.compactMap { isSetCookie($0.name) ? $0.value : nil }, from: request.url)
    }

    /// The hops of one exchange, as every engine goes through them (`LiveTransport`'s connectors, the
    /// library's URLSession client): `RedirectWalk`'s, each hop sent by `exchange` (`redirected`: not
    /// the first), which says whether its response is a redirect to follow (`Redirect.follows`).
    package func follow(_ request: PreparedRequest,
                        exchange: (_ request: PreparedRequest, _ redirected: Bool) async throws(APIError) -> Exchanged)
        async throws(APIError) -> Response {
        var walk = RedirectWalk(request, self)
        while true {
            if let response = try walk.answered(await exchange(walk.outgoing, walk.redirected)) { return response }
        }
    }

    /// `Set-Cookie`, ASCII case-insensitively: asked of every field of every response, so compared
    /// here on concrete bytes (the generic `equalsIgnoringCase` looked up metadata for `Connection`).
    private static func isSetCookie(_ name: String) -> Bool {
        name.utf8.count == 10 && name.utf8.lazy.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }.elementsEqual("set-cookie".utf8)
    }
}

/// The hops of one exchange, one step at a time (`RunSettings.follow` walks them; the engine walks
/// them in its own loop, one async call less a hop): the jar's cookies joined to each hop's request,
/// `Set-Cookie` kept from every response (a redirect's too), then the next hop `Redirect.next`
/// allows (`followRedirects`, no credential to another origin, 303/301/302 method changes), at most
/// `Redirect.limit` of them.
package struct RedirectWalk {
    /// The settings' jar, all of them the walk uses (the settings copied into each walk were
    /// a dozen retains and releases a request).
    private let jar: CookieJar
    private let first: PreparedRequest
    private var current: PreparedRequest
    private var hops = 0

    package init(_ request: PreparedRequest, _ settings: borrowing RunSettings) {
        jar = settings.cookies
        first = request
        current = request
    }

    /// The request the next hop sends: the current one with the jar's cookies.
    package var outgoing: PreparedRequest {
        RunSettings.cookieHeader(for: current, in: jar).map { RunSettings.joining($0, to: current) } ?? current
    }

    /// Whether the next hop follows a redirect (is not the first).
    package var redirected: Bool { hops > 0 }

    /// After a hop: the response when it is the last one, nil when a redirect is to be followed
    /// (`outgoing` is then its request); throws after `Redirect.limit` redirects.
    package mutating func answered(_ exchanged: Exchanged) throws(APIError) -> Response? {
        RunSettings.store(exchanged.response, of: current, in: jar)
        guard exchanged.follows,
              let next = Redirect.next(status: exchanged.response.status, location: exchanged.response.headers.value(of: "Location"),
                                       after: current) else { return exchanged.response }
        guard hops < Redirect.limit else { throw .network(.tooManyRedirects(host: first.hostAndPort)) }
        hops += 1
        current = next
        return nil
    }
}

/// Cancels the running exchange from the deadline, also when the deadline fires before the
/// exchange has started (then it is cancelled as soon as it starts).
package struct Canceller: Sendable {
    private let state = Locked<(action: (@Sendable () -> Void)?, cancelled: Bool)>((nil, false))

    package init() {}

    package func set(_ cancel: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            s.action = cancel
            return s.cancelled
        }
        if now { cancel() }
    }

    /// Whether the deadline (or the task's cancellation) has cancelled the exchange.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    package func cancel() {
        let action = state.withLock { s in
            s.cancelled = true
            return s.action
        }
        action?()
    }
}
