import APISupport
import APIDiagnostics
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOPosix

/// HTTP/2 over cleartext with prior knowledge (`http2: prior-knowledge`, curl's
/// `--http2-prior-knowledge`): async-http-client speaks HTTP/2 only after TLS's ALPN, so an
/// `http://` request that asks for it goes here: one connection per exchange, the HTTP/2 preface
/// sent at once (RFC 9113 §3.3), the request and response through swift-nio-http2's HTTP/1 codec
/// and NIO's response decompressor (the same ratio limit as the other connectors). Through a proxy
/// the connection is a CONNECT tunnel (`ProxyTunnel`), as curl sends h2c through an HTTP proxy.
struct H2CConnector: Connector {
    /// A connection per exchange, cancelled by closing it; the connect itself is bounded by the
    /// request's timeout only: the deadline does not wait for it.
    static var cancelsPromptly: Bool { false }

    /// Whether this connector sends `request` (else `NIOConnector` does): `http://` to a host, not
    /// over a unix socket, HTTP/2 allowed (`--http1.1` not given).
    func covers(_ request: PreparedRequest, _ hop: Hop) -> Bool {
        request.url.scheme?.lowercased() == "http" && request.url.host != nil && hop.route.socket == nil && !hop.http1Only
    }

    func exchange(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller) async throws(APIError) -> Exchanged {
        let counts = Locked<(bytes: Int64, expected: Int64?)>((0, nil))
        do {
            return try await send(request, hop, transfer: transfer, holder: holder, counts: counts)
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.describe(error, request, received: counts.current)
        }
    }

    /// The connection's limits on what a server may send, as NIO's HTTP/2 server-side guards (its
    /// defaults, set here so the documented numbers stay true): more than 200 PING, SETTINGS,
    /// PRIORITY, ALTSVC or ORIGIN frames in 30 s, more than 200 RST_STREAM in 30 s, more than 5
    /// CONTINUATION frames in a row, 2 empty DATA frames in a row, or 10,000 of its own answers
    /// (ACKs) the server does not read are a flood: a connection error, after which
    /// `H2CConnectionGuard` drops the connection.
    static var guards: NIOHTTP2Handler.ConnectionConfiguration {
        var c = NIOHTTP2Handler.ConnectionConfiguration()
        c.controlFrameRateLimit.maximumCount = 200
        c.controlFrameRateLimit.windowLength = .seconds(30)
        c.maximumSequentialContinuationFrames = 5
        c.maximumSequentialEmptyDataFrames = 1
        c.maximumBufferedControlFrames = 10_000
        return c
    }

    static var streamGuards: NIOHTTP2Handler.StreamConfiguration {
        var c = NIOHTTP2Handler.StreamConfiguration()
        c.streamResetFrameRateLimit.maximumCount = 200
        c.streamResetFrameRateLimit.windowLength = .seconds(30)
        return c
    }

    /// An HTTP/2 error code's name (RFC 9113 §7), else its number.
    static func errorName(_ code: HTTP2ErrorCode) -> String {
        let names = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
                     "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
                     "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]
        return names.indices.contains(code.networkCode) ? names[code.networkCode] : "0x" + String(code.networkCode, radix: 16)
    }

    /// NIO's HTTP/2 errors in words (a flood, a reset stream, a broken frame), else as the other connectors'.
    static func describe(_ error: any Error, _ request: PreparedRequest, received: (bytes: Int64, expected: Int64?)) -> APIError {
        let (host, detail) = (request.hostAndPort, String(describing: error))
        let flood: String? = switch error {
        case is NIOHTTP2Errors.ExcessiveControlFrames: "PING or SETTINGS frames (more than 200 in 30 s)"
        case is NIOHTTP2Errors.ExcessiveRSTFrames: "RST_STREAM frames (more than 200 in 30 s)"
        case is NIOHTTP2Errors.ExcessiveContinuationFrames: "CONTINUATION frames (more than 5 in a row)"
        case is NIOHTTP2Errors.ExcessiveEmptyDataFrames: "empty DATA frames (2 in a row)"
        case is NIOHTTP2Errors.ExcessiveOutboundFrameBuffering: "frames to answer while it does not read the answers (10000 unsent)"
        case is NIOHTTP2Errors.ExcessiveStreamErrors, is NIOHTTP2Errors.ExcessiveNumberOfGlitches: "frames that break the protocol"
        default: nil
        }
        if let flood {
            return .network(.protocolViolation(host: host, reason: "flooded the HTTP/2 connection with \(flood); apicli dropped the connection", detail: detail))
        }
        if let closed = error as? NIOHTTP2Errors.StreamClosed {
            return .network(.protocolViolation(host: host, reason: "reset the HTTP/2 stream (RST_STREAM \(errorName(closed.errorCode)))", detail: detail))
        }
        if error is any NIOHTTP2Error {
            return .network(.protocolViolation(host: host, reason: "broke the HTTP/2 protocol; apicli dropped the connection (-v shows NIO's error)", detail: detail))
        }
        return NIOConnector.describe(error, request, socket: nil, received: received)
    }

    private func send(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller,
                      counts: Locked<(bytes: Int64, expected: Int64?)>) async throws -> Exchanged {
        guard let host = request.url.host else { throw APIError.network(.failed(host: request.hostAndPort, detail: "no host")) }
        let body = try Self.bodyBytes(request.body)  // a missing file fails before anything is sent
        let port = hop.route.port ?? request.url.port ?? 80
        let target = hop.route.dns[host] ?? host
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let tunnel = hop.proxy.map { ProxyTunnel(to: target, port: port, credentials: $0.credentials, opened: loop.makePromise()) }
        // Without a tunnel nothing is read until the HTTP/2 handlers are in: a server may send its
        // SETTINGS at once, and bytes read before would go to the pipeline's end, lost (NIO then
        // saw the next frame as the first: "missing preface"). A tunnel's handler holds them.
        let connecting = ClientBootstrap(group: loop)
            .connectTimeout(.milliseconds(Int64((request.timeout * 1000).rounded(.up))))
            .channelOption(.autoRead, value: tunnel != nil)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tunnel { try channel.pipeline.syncOperations.addHandler(tunnel) }
                }
            }
            .connect(host: hop.proxy?.host ?? target, port: hop.proxy?.port ?? port)
        connecting.whenFailure { tunnel?.fail($0) }
        let channel = try await connecting.get()
        holder.set { channel.close(promise: nil) }
        defer { channel.close(promise: nil) }
        if let tunnel { try await tunnel.opened.futureResult.get() }
        let promise = channel.eventLoop.makePromise(of: H2CCollector.Received.self)
        // The HTTP/2 handlers go in once the tunnel (if any) is open; the tunnel's handler leaves,
        // handing on what the server sent after the proxy's answer.
        let opening = channel.eventLoop.flatSubmit { () -> EventLoopFuture<Channel> in
            do {
                let multiplexer = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
                    mode: .client, connectionConfiguration: Self.guards, streamConfiguration: Self.streamGuards,
                    inboundStreamInitializer: { $0.eventLoop.makeSucceededVoidFuture() })
                try channel.pipeline.syncOperations.addHandler(H2CConnectionGuard(promise: promise))
                if let tunnel {
                    channel.pipeline.syncOperations.removeHandler(tunnel, promise: nil)
                } else {
                    try channel.syncOptions?.setOption(.autoRead, value: true)
                }
                return multiplexer.createStreamChannel { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandlers([
                            HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .http),
                            NIOHTTPResponseDecompressor(limit: .ratio(ClientPool.inflationRatio)),
                            H2CCollector(promise: promise, request: request, transfer: transfer, counts: counts)])
                    }
                }
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        opening.whenFailure { promise.fail($0) }
        let stream = try await opening.get()

        var headers = HTTPHeaders()
        if request.headers.value(of: "Host") == nil {
            headers.add(name: "Host", value: request.url.port.map { "\(host):\($0)" } ?? host)
        }
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        if let body, !headers.contains(name: "Content-Length") { headers.add(name: "Content-Length", value: String(body.count)) }
        if let body { transfer.progress(TransferProgress(.upload, bytes: 0, total: Int64(body.count))) }
        var uri = request.url.path(percentEncoded: true)
        if uri.isEmpty { uri = "/" }
        if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: uri, headers: headers)
        stream.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body { stream.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        try await stream.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
        if let body { transfer.progress(TransferProgress(.upload, bytes: Int64(body.count), total: Int64(body.count))) }
        let received = try await promise.futureResult.get()
        var response = Response(status: Int(received.head.status.code), headers: NIOConnector.fields(received.head.headers),
                                body: received.body, duration: 0)
        response.httpVersion = ResponseCollector.version(.http2)
        if !received.follows {
            response.saved = transfer.destination
            response.streamed = transfer.stream != nil
        }
        return Exchanged(response, follows: received.follows)
    }

    /// The request body in memory: files (and a multipart body's files) read with the reader
    /// the streaming connector uses.
    static func bodyBytes(_ body: PreparedRequest.Body?) throws(APIError) -> Data? {
        guard let body else { return nil }
        if case .data(let data) = body { return data }
        let reader = BodyReader(try SizedBody(body))
        var data = Data()
        while let chunk = try reader.next(limit: 1 << 20) { data.append(chunk) }
        return data
    }
}

/// One stream's response: its head, and its body — dropped for a redirect the engine follows,
/// written into the transfer's destination or stream as it comes (on the loop: h2c has a
/// connection of its own per exchange), else held up to the request's `maxBody`.
final class H2CCollector: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    struct Received: Sendable {
        var head: HTTPResponseHead
        var body: Data
        var follows: Bool
    }

    private let promise: EventLoopPromise<Received>
    private let request: PreparedRequest
    private let transfer: Transfer
    private let counts: Locked<(bytes: Int64, expected: Int64?)>
    private var head: HTTPResponseHead?
    private var follows = false
    private var body = Data()
    private var received: Int64 = 0
    private var total: Int64?
    private var done = false

    init(promise: EventLoopPromise<Received>, request: PreparedRequest, transfer: Transfer,
         counts: Locked<(bytes: Int64, expected: Int64?)>) {
        self.promise = promise
        self.request = request
        self.transfer = transfer
        self.counts = counts
    }

    private var sink: (any BodySink)? { transfer.destination ?? transfer.stream }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            // An informational answer (100 Continue) comes before the real head.
            guard h.status.code >= 200 else { return }
            head = h
            follows = Redirect.follows(status: Int(h.status.code), location: h.headers.first(name: "Location"), after: request)
            guard !follows else { return }
            total = h.headers.first(name: "Content-Length").flatMap { Int64($0) }
            counts.set((0, total))
            if sink != nil { transfer.progress(TransferProgress(.download, bytes: 0, total: total)) }
            transfer.head(Response(status: Int(h.status.code), headers: NIOConnector.fields(h.headers), body: Data(), duration: 0,
                                   httpVersion: ResponseCollector.version(.http2)))
        case .body(let buffer):
            guard head != nil, !follows else { return }
            received += Int64(buffer.readableBytes)
            counts.set((received, total))
            if let sink {
                do {
                    try buffer.withUnsafeReadableBytes { raw in try sink.write(raw) }
                } catch {
                    fail(error, context)
                    return
                }
                transfer.progress(TransferProgress(.download, bytes: received, total: total))
                return
            }
            guard received <= request.maxBody else { return fail(ResponseCollector.BodyTooLarge(limit: request.maxBody), context) }
            body.append(contentsOf: buffer.readableBytesView)
        case .end:
            if let head { finish(.success(Received(head: head, body: body, follows: follows))) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        fail(error, context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(HTTPParserError.invalidEOFState))
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error, _ context: ChannelHandlerContext) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    private func finish(_ result: Result<Received, Error>) {
        guard !done else { return }
        done = true
        promise.completeWith(result)
    }
}

/// The connection's last handler: NIO's HTTP/2 handler reports a connection error (a flood its
/// guards caught, a frame that breaks the protocol) here, after its GOAWAY, and leaves the
/// connection open; left open, the server's frames keep coming (and memory grows without bound).
/// The first error fails the exchange with it and closes the connection.
final class H2CConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    private let promise: EventLoopPromise<H2CCollector.Received>

    init(promise: EventLoopPromise<H2CCollector.Received>) { self.promise = promise }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        promise.fail(error)  // ignored once the exchange has its answer
        context.close(promise: nil)
    }
}

/// Opens a tunnel through an HTTP proxy: `CONNECT host:port` (with Basic `Proxy-Authorization`
/// when the proxy URL has a login), then the proxy's answer: a 2xx opens the tunnel, anything
/// else fails the exchange. Bytes after the answer are handed on when the handler leaves.
final class ProxyTunnel: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {  // used on its channel's loop only
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let request: String
    private var answer = ByteBuffer()
    private var open = false
    private var settled = false
    /// Completed once the proxy has answered (a promise of the channel's loop).
    let opened: EventLoopPromise<Void>

    /// The proxy refused the tunnel.
    struct Refused: Error, CustomStringConvertible {
        var status: String
        var description: String { "the proxy refused the tunnel: \(status)" }
    }

    init(to host: String, port: Int, credentials: String?, opened: EventLoopPromise<Void>) {
        self.opened = opened
        let authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        var lines = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let credentials { lines += "Proxy-Authorization: Basic \(Data(credentials.utf8).base64EncodedString())\r\n" }
        request = lines + "\r\n"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendConnect(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendConnect(context)
        context.fireChannelActive()
    }

    private func sendConnect(_ context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        answer.writeBuffer(&bytes)
        guard !open else { return }
        let view = answer.readableBytesView
        guard let end = view.firstRange(of: Array("\r\n\r\n".utf8)) else {
            if answer.readableBytes > 16 << 10 { fail(Refused(status: "an answer of more than 16 KiB")) }
            return
        }
        let head = String(decoding: view[view.startIndex..<end.lowerBound], as: UTF8.self)
        answer.moveReaderIndex(to: end.upperBound)
        let status = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? head
        let code = status.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        if (200..<300).contains(code) {
            open = true
            settled = true
            opened.succeed()
        } else {
            fail(Refused(status: status))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HTTPParserError.closedConnection)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        fail(error)
        context.fireErrorCaught(error)
    }

    /// Fails the tunnel unless the proxy's answer has settled it.
    func fail(_ error: any Error) {
        guard !settled else { return }
        settled = true
        opened.fail(error)
    }

    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        if answer.readableBytes > 0 {
            context.fireChannelRead(wrapInboundOut(answer))
            answer = ByteBuffer()
        }
        context.leavePipeline(removalToken: removalToken)
    }
}
