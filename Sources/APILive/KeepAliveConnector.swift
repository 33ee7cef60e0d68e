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
import NIOCore
import NIOHTTP1

/// Plain `http://` HTTP/1.1 exchanges whose bodies are held in memory or streamed to stdout, over
/// keep-alive connections of our own (`KeepAlivePool`: NIO's HTTP/1 codecs, one request at a time on a
/// connection, connections kept per event loop): what a load run and a `check` send thousands of
/// times. async-http-client's per-request machinery (request bag, connection-pool state machines,
/// futures, its task and delegate) was a quarter of a load run's CPU (perf, load-4 notes); this
/// does the same exchange with one promise. The transfer contract is `NIOTransport`'s: the same
/// `Host:` and framing headers, gzip/deflate inflated with the same ratio limit (NIO's response
/// decompressor, which asks for them as async-http-client does), `maxBody`, one deadline over
/// the whole exchange, redirects followed by `Redirect`, cookies from the run's jar, the same
/// errors. Everything else — TLS, proxies, unix sockets, request bodies streamed from files, a
/// response body going into a file — `covers` leaves to `NIOTransport`, and so does a redirect to
/// such a URL.
package struct KeepAliveTransport: Transport {
    private let jar: CookieJar
    private let proxies: ProxySettings
    private let fallback: NIOTransport
    private let memo = KeepAliveRequestMemo()

    package init(proxies: ProxySettings = .environment, cookies: CookieJar = .run) {
        self.jar = cookies
        self.proxies = proxies
        fallback = NIOTransport(proxies: proxies, cookies: cookies)
    }

    /// Whether this transport sends `request` (else `NIOTransport` does): plain http, no proxy, no
    /// unix socket, the body in memory (or none), the response body held in memory or streamed
    /// (stdout; not into a file). The same answer for every request of a target (none of it
    /// depends on what a request captured).
    package func covers(_ request: PreparedRequest, _ transfer: Transfer) -> Bool {
        guard transfer.destination == nil, request.socket == nil, request.websocket == nil,
              !request.http2PriorKnowledge else { return false }
        if case .some(let body) = request.body, case .data = body {} else if request.body != nil { return false }
        if ConnectionOptions.run.withLock({ $0.unixSocket != nil }) { return false }
        return memo.plain(request.url) { url in
            (url.scheme ?? "").equalsIgnoringCase("http") && url.host != nil && proxies.server(for: url) == nil
        }
    }

    package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard covers(request, transfer) else { return try await fallback.send(request, transfer: transfer) }
        return try await sendCovered(request, transfer: transfer)
    }

    /// `send` for a request `covers` said yes to (`LiveTransport` asked already).
    func sendCovered(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        let start = DispatchTime.now()
        let holder = Canceller()
        var hop = request  // the hop in flight, for an error's description
        do {
            var response = try await Deadline.bound(request.timeout, onTimeout: { holder.cancel() }) { () async throws -> Response in
                for _ in 0...Redirect.limit {
                    let (received, next) = try await exchange(hop, transfer: transfer, holder: holder)
                    guard let next else {
                        // A streamed body's head went out before the body (`Stream.head`).
                        if transfer.stream == nil { transfer.head(received) }
                        return received
                    }
                    guard covers(next, transfer) else {
                        // The rest of the exchange (an https hop, a proxied one) is async-http-client's, in the time left.
                        var rest = next
                        rest.timeout = max(request.timeout - Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9, 0.001)
                        return try await fallback.send(rest, transfer: transfer)
                    }
                    hop = next
                }
                throw APIError.network(.tooManyRedirects(host: request.hostAndPort))
            }
            response.duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            return response
        } catch let error as APIError {
            throw error
        } catch let failed as KeepAlivePool.Failed {
            // The stream's own failure (stdout, what a terminal holds) as it said it.
            if let error = failed.error as? APIError { throw error }
            throw NIOTransport.describe(failed.error, hop, received: failed.counts)
        } catch {
            if let e = error as? ChannelError, case .connectTimeout = e { throw APIError.timedOut(request.timeout) }
            throw NIOTransport.describe(error, hop, received: (0, nil))
        }
    }

    private static let bodiless: Set<String> = ["GET", "HEAD", "DELETE", "CONNECT", "TRACE"]

    /// One request and its response; the next hop's request when the response is a redirect to follow.
    private func exchange(_ request: PreparedRequest, transfer: Transfer, holder: Canceller) async throws -> (Response, PreparedRequest?) {
        let cookies = request.cookies ? jar.header(for: request.url) : nil
        let encoded: KeepAliveRequestMemo.Encoded
        if let known = memo.encoded(request, cookies: cookies) {
            encoded = known
        } else {
            encoded = try encode(request, cookies: cookies)
            memo.keep(encoded, of: request, cookies: cookies)
        }
        let wire = encoded.wire, host = encoded.host
        let route = ConnectionOptions.run.withLock { $0.route(for: request.url, socket: nil) }
        let address = KeepAlivePool.Address(host: route.dns[host] ?? host, port: route.port ?? encoded.port ?? 80)
        let stream = transfer.stream.map { sink in
            // As `ResponseCollector` does: the head (no body) first, then progress as parts are written.
            KeepAliveHandler.Stream(sink: sink, head: { head in
                let total = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
                transfer.progress(TransferProgress(.download, bytes: 0, total: total))
                transfer.head(Response(status: Int(head.status.code), headers: NIOTransport.fields(head.headers), body: Data(),
                                       duration: 0, httpVersion: ResponseCollector.version(head.version)))
            }, progress: { bytes, total in transfer.progress(TransferProgress(.download, bytes: bytes, total: total)) })
        }
        let received = try await KeepAlivePool.shared.exchange(
            wire, to: address, timeout: request.timeout, limit: request.maxBody, stream: stream, holder: holder,
            follows: { head in
                // Most answers are no redirect: no look for a Location in them.
                Redirect.statuses.contains(Int(head.status.code))
                    && Redirect.next(status: Int(head.status.code), location: head.headers.first(name: "Location"), after: request) != nil
            })
        if request.cookies, received.head.headers.contains(name: "Set-Cookie") { jar.store(received.head.headers[canonicalForm: "Set-Cookie"].map(String.init), from: request.url) }
        let status = Int(received.head.status.code)
        var response = Response(status: status, headers: NIOTransport.fields(received.head.headers),
                                body: received.body.withUnsafeReadableBytes { Data($0) }, duration: 0)
        response.httpVersion = ResponseCollector.version(received.head.version)
        if received.follows {
            return (response, Redirect.next(status: status, location: received.head.headers.first(name: "Location"), after: request))
        }
        response.streamed = stream != nil
        return (response, nil)
    }

    /// `request` on the wire: the header block as async-http-client's request would carry it (the
    /// request's headers in order, `Host:` when it names none, the jar's `cookies`, framing: the
    /// body's length, or 0 for methods that carry one; TE/CL from the request dropped).
    private func encode(_ request: PreparedRequest, cookies: String?) throws -> KeepAliveRequestMemo.Encoded {
        guard let host = request.url.host else { throw APIError.network(.failed(host: request.hostAndPort, detail: "no host")) }
        let port = request.url.port
        var fields = [HeaderField]()
        fields.reserveCapacity(request.headers.count + 3)
        var hasHost = false
        var cookieAt: Int?
        for header in request.headers {
            if header.name.equalsIgnoringCase("Content-Length")
                || header.name.equalsIgnoringCase("Transfer-Encoding") { continue }
            if header.name.equalsIgnoringCase("Host") { hasHost = true }
            if header.name.equalsIgnoringCase("Cookie"), cookieAt == nil { cookieAt = fields.count }
            fields.append(header)
        }
        if !hasHost {
            let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            fields.append(HeaderField("Host", port.flatMap { $0 == 80 ? nil : "\(name):\($0)" } ?? name))
        }
        if let cookies {
            // As HTTPHeaders.replaceOrAdd: the request's own Cookie (its first) joined with the jar's, at the end.
            let own = cookieAt.map { fields[$0].value }
            if cookieAt != nil { fields.removeAll { $0.name.equalsIgnoringCase("Cookie") } }
            fields.append(HeaderField("Cookie", own.map { $0 + "; " + cookies } ?? cookies))
        }
        var body: Data?
        if case .data(let data)? = request.body, !data.isEmpty {
            body = data
            fields.append(HeaderField("Content-Length", String(data.count)))
        } else if !Self.bodiless.contains(request.method) {
            fields.append(HeaderField("Content-Length", "0"))
        }
        var uri = request.url.path(percentEncoded: true)
        if uri.isEmpty { uri = "/" }
        if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
        return .init(wire: try KeepAliveRequest(method: request.method, uri: uri, fields: fields, body: body), host: host, port: port)
    }
}
