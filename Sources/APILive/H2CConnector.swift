import APISupport
import APIDiagnostics
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
import NIOHTTP2
import NIOPosix

/// HTTP/2 over cleartext with prior knowledge (`http2: prior-knowledge`, curl's
/// `--http2-prior-knowledge`): async-http-client speaks HTTP/2 only after TLS's ALPN, so an
/// `http://` request that asks for it goes here: one connection per exchange, the HTTP/2 preface
/// sent at once (RFC 9113 §3.3), the request and response through swift-nio-http2's HTTP/1
/// codec. The body is held (the transport contract writes it to a destination afterwards),
/// redirects are followed as `NIOTransport` follows them, cookies use the run's jar.
package struct H2CTransport: Transport {
    private let jar: CookieJar

    package init(cookies: CookieJar = .run) { self.jar = cookies }

    package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        let start = DispatchTime.now()
        let channel = Locked<Channel?>(nil)
        do {
            var response = try await Deadline.race(request.timeout, onTimeout: { channel.current?.close(promise: nil) }) {
                var hop = request
                for _ in 0...Redirect.limit {
                    let response = try await exchange(hop, holder: channel)
                    guard let next = Redirect.next(status: response.status, location: response.headers.value(of: "Location"), after: hop) else {
                        return response
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
            throw NIOTransport.describe(error, request)
        }
    }

    private func exchange(_ request: PreparedRequest, holder: Locked<Channel?>) async throws -> Response {
        guard request.url.scheme?.lowercased() == "http", let host = request.url.host else {
            throw APIError.invalid(Diagnostic(file: nil, mark: nil, message: "http2: prior-knowledge is for http:// URLs, not \(request.url.absoluteString)",
                                              hint: "over https, HTTP/2 is used when the server offers it (ALPN)"))
        }
        let port = request.url.port ?? 80
        let route = ConnectionOptions.run.withLock { $0 }.route(for: request.url)
        let connectHost = route.dns[host] ?? host
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(Int64(request.timeout.rounded(.up))))
            .channelInitializer { $0.configureHTTP2Pipeline(mode: .client, inboundStreamInitializer: nil).map { _ in } }
            .connect(host: connectHost, port: route.port ?? port).get()
        holder.set(channel)
        defer { channel.close(promise: nil) }
        let promise = channel.eventLoop.makePromise(of: H2CCollector.Received.self)
        let limit = request.maxBody
        // The multiplexer is not Sendable: it is found and used on the channel's own event loop.
        let stream = try await channel.pipeline.handler(type: HTTP2StreamMultiplexer.self).flatMap { multiplexer in
            multiplexer.createStreamChannel { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandlers([HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .http),
                                                                    H2CCollector(promise: promise, limit: limit)])
                }
            }
        }.get()

        var headers = HTTPHeaders()
        if request.headers.value(of: "Host") == nil {
            headers.add(name: "Host", value: request.url.port.map { "\(host):\($0)" } ?? host)
        }
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        if request.cookies, let cookies = jar.header(for: request.url) {
            headers.replaceOrAdd(name: "Cookie", value: headers.first(name: "Cookie").map { $0 + "; " + cookies } ?? cookies)
        }
        let body = try Self.bodyBytes(request.body)
        if let body, !headers.contains(name: "Content-Length") { headers.add(name: "Content-Length", value: String(body.count)) }
        var uri = request.url.path(percentEncoded: true)
        if uri.isEmpty { uri = "/" }
        if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: uri, headers: headers)
        stream.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { stream.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        try await stream.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        let received = try await promise.futureResult.get()
        if request.cookies { jar.store(received.head.headers[canonicalForm: "Set-Cookie"].map(String.init), from: request.url) }
        var response = Response(status: Int(received.head.status.code), headers: NIOTransport.fields(received.head.headers),
                                body: received.body, duration: 0)
        response.httpVersion = ResponseCollector.version(.http2)
        return response
    }

    /// The request body in memory: files (and a multipart body's files) read with the reader
    /// the streaming transport uses.
    static func bodyBytes(_ body: PreparedRequest.Body?) throws(APIError) -> Data? {
        guard let body else { return nil }
        if case .data(let data) = body { return data }
        let reader = BodyReader(try SizedBody(body))
        var data = Data()
        while let chunk = try reader.next(limit: 1 << 20) { data.append(chunk) }
        return data
    }
}

/// Collects one stream's response: its head and its body, up to the request's `maxBody`.
final class H2CCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    struct Received: Sendable {
        var head: HTTPResponseHead
        var body: Data
    }

    private let promise: EventLoopPromise<Received>
    private let limit: Int64
    private var head: HTTPResponseHead?
    private var body = Data()
    private var done = false

    package init(promise: EventLoopPromise<Received>, limit: Int64) {
        self.promise = promise
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            // An informational answer (100 Continue) comes before the real head.
            if h.status.code >= 200 { head = h }
        case .body(var buffer):
            if Int64(body.count + buffer.readableBytes) > limit {
                finish(.failure(ResponseCollector.BodyTooLarge(limit: limit)))
                context.close(promise: nil)
                return
            }
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            if let head { finish(.success(Received(head: head, body: body))) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(HTTPParserError.invalidEOFState))
        context.fireChannelInactive()
    }

    private func finish(_ result: Result<Received, Error>) {
        guard !done else { return }
        done = true
        promise.completeWith(result)
    }
}
