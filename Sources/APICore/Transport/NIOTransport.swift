import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// Live requests through async-http-client (SwiftNIO, BoringSSL), for what URLSession on Linux
/// cannot do: trust an extra CA file or skip verification. Behaviour and errors match
/// `URLSessionTransport`: redirects followed (at most 10, no cycles), gzip/deflate decoded,
/// a deadline for the whole exchange.
public struct NIOTransport: Transport {
    private let client: HTTPClient

    /// One client per TLS setting, kept for the life of the process: its connection pool is
    /// shared by every request with that setting, and it is never torn down mid-run (an
    /// HTTPClient must be shut down before it is released).
    private static let clients = Locked<[TLSOptions: HTTPClient]>([:])

    public init(tls: TLSOptions) throws(APIError) {
        let result = Self.clients.withLock { clients -> Result<HTTPClient, APIError> in
            if let client = clients[tls] { return .success(client) }
            return Result { () throws(APIError) in
                let client = try Self.makeClient(tls)
                clients[tls] = client
                return client
            }
        }
        client = try result.get()
    }

    private static func makeClient(_ tls: TLSOptions) throws(APIError) -> HTTPClient {
        var configuration = HTTPClient.Configuration(tlsConfiguration: try configuration(tls),
                                                     redirectConfiguration: .follow(max: 10, allowCycles: false),
                                                     decompression: .enabled(limit: .none))
        // A refused connection is an answer (exit 3), as with URLSession; the pool would retry
        // it until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    private static func configuration(_ tls: TLSOptions) throws(APIError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile = tls.caFile {
            do {
                configuration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
            } catch {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot read CA certificates from \(caFile): \(error)",
                                          hint: "pass a PEM file with one or more certificates"))
            }
        }
        if !tls.verify { configuration.certificateVerification = .none }
        return configuration
    }

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    /// Request bodies from files are streamed from disk with a Content-Length; with a
    /// destination, the response body is streamed into it. async-http-client's delegate API gives
    /// back-pressure both ways (its next read waits for the previous chunk's write to disk; the next
    /// chunk of a file is read only when the previous one is on its way), so memory stays flat
    /// whatever the size. File reads and writes run on NIO's thread pool, off the event loops.
    public func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        var headers = HTTPHeaders()
        for header in request.headers { headers.add(name: header.name, value: header.value) }
        var body: HTTPClient.Body?
        switch request.body {
        case .data(let data)?: body = .bytes(data)
        case let streamed?:
            let sized = try SizedBody(streamed)
            body = .stream(contentLength: sized.length, Self.upload(sized, on: client.eventLoopGroup, progress: transfer.progress))
        case nil: break
        }
        let start = DispatchTime.now()
        let holder = Canceller()
        let collector = ResponseCollector(destination: transfer.destination, progress: transfer.progress)
        do {
            let outgoing = try HTTPClient.Request(url: request.url, method: HTTPMethod(rawValue: request.method),
                                                  headers: headers, body: body)
            let received = try await Deadline.race(request.timeout, onTimeout: { holder.cancel() }) { [client] in
                let task = client.execute(request: outgoing, delegate: collector,
                                          deadline: .now() + .seconds(Int64(request.timeout.rounded(.up)) + 1))
                holder.set { task.cancel() }
                return try await task.futureResult.get()
            }
            let fields = received.headers.map { HeaderField($0.name, $0.value) }
                .sorted { $0.name.lowercased() < $1.name.lowercased() }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            var response = Response(status: received.status, headers: fields, body: received.body, duration: seconds)
            response.saved = transfer.destination
            return response
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.describe(error, request, received: collector.counts)
        }
    }

    /// Bytes per read from an upload's files.
    static let chunk = 1 << 17

    /// Writes the body a chunk at a time: read (thread pool), write, wait until the write is
    /// accepted, read the next. Each call starts from the first byte (a redirect re-sends it).
    static func upload(_ body: SizedBody, on group: EventLoopGroup, progress: @escaping @Sendable (TransferProgress) -> Void)
        -> @Sendable (HTTPClient.Body.StreamWriter) -> EventLoopFuture<Void> {
        { writer in
            let reader = BodyReader(body)
            let loop = group.any()
            let total = body.length
            progress(TransferProgress(.upload, bytes: 0, total: total))
            @Sendable func step() -> EventLoopFuture<Void> {
                NIOThreadPool.singleton.runIfActive(eventLoop: loop) { () throws -> ByteBuffer? in
                    var buffer = ByteBufferAllocator().buffer(capacity: chunk)
                    let n = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunk) { raw in
                        try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<chunk]))
                    }
                    return n == 0 ? nil : buffer
                }.flatMap { buffer in
                    guard let buffer else { return loop.makeSucceededVoidFuture() }
                    progress(TransferProgress(.upload, bytes: reader.sent, total: total))
                    return writer.write(.byteBuffer(buffer)).flatMap { step() }
                }
            }
            return step()
        }
    }

    /// async-http-client's and NIO's errors as failures. `received`: the body bytes that came
    /// before the fault, and the length the head announced, for a body cut short.
    static func describe(_ error: Error, _ request: PreparedRequest, received: (bytes: Int64, expected: Int64?)? = nil)
        -> APIError {
        let host = URLSessionTransport.host(request)
        let text = String(describing: error)
        if let e = error as? HTTPClientError {
            switch e {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return .timedOut(request.timeout)
            case .redirectLimitReached, .redirectCycleDetected: return .network(.tooManyRedirects(host: host))
            case .remoteConnectionClosed: return .network(.reset(host: host))
            default: break
            }
        }
        if let e = error as? HTTPParserError {
            switch e {
            case .invalidEOFState:
                return .network(.truncated(host: host, expected: received?.expected, received: received?.bytes))
            case .headerOverflow: return .network(.headTooLarge(host: host))
            case .closedConnection: return .network(.reset(host: host))
            case .invalidConstant, .invalidVersion, .invalidStatus, .unknown: return .network(.malformedStatusLine(host: host))
            default: return .network(.malformedResponse(host: host, detail: "\(e)"))
            }
        }
        if error is NIOHTTPDecompression.DecompressionError { return .network(.undecodable(host: host)) }
        if let e = error as? IOError, e.errnoCode == ECONNRESET || e.errnoCode == EPIPE { return .network(.reset(host: host)) }
        if error is NIOSSLError || error is BoringSSLError || text.contains("CERTIFICATE_VERIFY_FAILED") {
            return .network(.tls(host: host, reason: tlsProblem(text)))
        }
        if text.contains("connection refused") || text.contains("Connection refused") { return .network(.refused(host: host)) }
        return .network(.other("\(text) (\(host))"))
    }

    /// BoringSSL's reason, in words.
    static func tlsProblem(_ text: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "certificate verify failed (an unknown or self-signed issuer, or a name mismatch); "
                + "trust its CA with --cacert FILE, or skip verification with --insecure"
        }
        if text.contains("WRONG_VERSION_NUMBER") { return "the server does not speak TLS on this port" }
        return text
    }
}

/// The response as async-http-client hands it over: the head, then the body in memory or, for a
/// download, written to the destination (on the thread pool; the next chunk is read from the
/// connection only when this write is done). Its callbacks come one at a time, in order.
final class ResponseCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Received: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
    }

    private let destination: PartialFile?
    private let progress: @Sendable (TransferProgress) -> Void
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()
    private var received: Int64 = 0
    private var total: Int64?

    init(destination: PartialFile?, progress: @escaping @Sendable (TransferProgress) -> Void) {
        self.destination = destination
        self.progress = progress
    }

    func didReceiveHead(task: HTTPClient.Task<Received>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        total = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
        if destination != nil { progress(TransferProgress(.download, bytes: 0, total: total)) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Received>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard let destination else {
            var part = buffer
            body.writeBuffer(&part)
            received += Int64(buffer.readableBytes)
            return task.eventLoop.makeSucceededVoidFuture()
        }
        // Parts arrive a few KiB at a time; a thread-pool hop per part capped a 1 GiB download at
        // about 200 MB/s. Gather up to `flushSize` in memory, then write it (and report progress) while reading waits.
        var part = buffer
        pending.writeBuffer(&part)
        received += Int64(buffer.readableBytes)
        let bytes = received
        guard pending.readableBytes >= Self.flushSize else { return task.eventLoop.makeSucceededVoidFuture() }
        let chunk = pending
        pending = ByteBuffer()
        return NIOThreadPool.singleton.runIfActive(eventLoop: task.eventLoop) {
            try chunk.withUnsafeReadableBytes { raw in try destination.write(raw) }
        }.map {
            self.progress(TransferProgress(.download, bytes: bytes, total: self.total))
        }
    }

    /// The body bytes received so far and the length the head announced (read after the task ended).
    var counts: (bytes: Int64, expected: Int64?) { (received, total) }

    /// The most a download holds in memory before writing it out.
    static let flushSize = 1 << 20
    private var pending = ByteBuffer()

    func didFinishRequest(task: HTTPClient.Task<Received>) throws -> Received {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        if let destination, pending.readableBytes > 0 {
            // The last (at most 1 MiB) part, written here: the request is over, nothing waits on the loop.
            try pending.withUnsafeReadableBytes { raw in try destination.write(raw) }
            pending.clear()
            progress(TransferProgress(.download, bytes: received, total: total))
        }
        return Received(status: Int(head.status.code), headers: head.headers, body: Data(body.readableBytesView))
    }
}

/// Cancels the running request from the deadline, also when the deadline fires before the
/// request has started (then it is cancelled as soon as it starts).
private struct Canceller: Sendable {
    private let state = Locked<(action: (@Sendable () -> Void)?, cancelled: Bool)>((nil, false))

    func set(_ cancel: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            s.action = cancel
            return s.cancelled
        }
        if now { cancel() }
    }

    func cancel() {
        let action = state.withLock { s in
            s.cancelled = true
            return s.action
        }
        action?()
    }
}
