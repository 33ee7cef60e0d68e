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
public struct KeepAliveTransport: Transport {
    private let jar: CookieJar
    private let proxies: ProxySettings
    private let fallback: NIOTransport

    public init(proxies: ProxySettings = .environment, cookies: CookieJar = .run) {
        self.jar = cookies
        self.proxies = proxies
        fallback = NIOTransport(proxies: proxies, cookies: cookies)
    }

    /// Whether this transport sends `request` (else `NIOTransport` does): plain http, no proxy, no
    /// unix socket, the body in memory (or none), the response body held in memory or streamed
    /// (stdout; not into a file). The same answer for every request of a target (none of it
    /// depends on what a request captured).
    public func covers(_ request: PreparedRequest, _ transfer: Transfer) -> Bool {
        guard transfer.destination == nil, request.socket == nil, request.websocket == nil,
              !request.http2PriorKnowledge, request.url.scheme?.lowercased() == "http", request.url.host != nil else { return false }
        if case .some(let body) = request.body, case .data = body {} else if request.body != nil { return false }
        if ConnectionOptions.run.withLock({ $0.unixSocket != nil }) { return false }
        return proxies.server(for: request.url) == nil
    }

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    public func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard covers(request, transfer) else { return try await fallback.send(request, transfer: transfer) }
        let start = DispatchTime.now()
        let holder = Canceller()
        let last = Locked<(request: PreparedRequest, counts: (bytes: Int64, expected: Int64?))>((request, (0, nil)))
        do {
            var response = try await Deadline.bound(request.timeout, onTimeout: { holder.cancel() }) { () async throws -> Response in
                var hop = request
                for _ in 0...Redirect.limit {
                    last.set((hop, (0, nil)))
                    let (received, next) = try await exchange(hop, transfer: transfer, holder: holder, last: last)
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
        } catch {
            let (hop, counts) = last.current
            if let e = error as? ChannelError, case .connectTimeout = e { throw APIError.timedOut(request.timeout) }
            throw NIOTransport.describe(error, hop, received: counts)
        }
    }

    /// One request and its response; the next hop's request when the response is a redirect to follow.
    private func exchange(_ request: PreparedRequest, transfer: Transfer, holder: Canceller,
                          last: Locked<(request: PreparedRequest, counts: (bytes: Int64, expected: Int64?))>)
        async throws -> (Response, PreparedRequest?) {
        guard let host = request.url.host else { throw APIError.network(.failed(host: request.hostAndPort, detail: "no host")) }
        let route = ConnectionOptions.run.withLock { $0 }.route(for: request.url, socket: nil)
        var headers = HTTPHeaders()
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        if !headers.contains(name: "Host") {
            let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            headers.add(name: "Host", value: request.url.port.flatMap { $0 == 80 ? nil : "\(name):\($0)" } ?? name)
        }
        if request.cookies, let cookies = jar.header(for: request.url) {
            headers.replaceOrAdd(name: "Cookie", value: headers.first(name: "Cookie").map { $0 + "; " + cookies } ?? cookies)
        }
        // Framing as async-http-client sets it: the body's length, or 0 for methods that carry one.
        headers.remove(name: "Content-Length")
        headers.remove(name: "Transfer-Encoding")
        var body: ByteBuffer?
        if case .data(let data)? = request.body, !data.isEmpty {
            body = ByteBuffer(bytes: data)
            headers.add(name: "Content-Length", value: String(data.count))
        } else if !["GET", "HEAD", "DELETE", "CONNECT", "TRACE"].contains(request.method) {
            headers.add(name: "Content-Length", value: "0")
        }
        var uri = request.url.path(percentEncoded: true)
        if uri.isEmpty { uri = "/" }
        if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: uri, headers: headers)
        let address = KeepAlivePool.Address(host: route.dns[host] ?? host, port: route.port ?? request.url.port ?? 80)
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
            head, body: body, to: address, timeout: request.timeout, limit: request.maxBody, stream: stream, holder: holder,
            follows: { Redirect.next(status: Int($0.status.code), location: $0.headers.first(name: "Location"), after: request) != nil },
            counts: { counts in last.withLock { $0.counts = counts } })
        if request.cookies { jar.store(received.head.headers[canonicalForm: "Set-Cookie"].map(String.init), from: request.url) }
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
}
