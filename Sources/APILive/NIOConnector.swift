import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import Dispatch
import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// One exchange through async-http-client (SwiftNIO, BoringSSL): what the engine uses on Linux for
/// everything its other connectors do not cover (TLS, proxies, unix sockets, bodies streamed from
/// or into files). The client never follows a redirect itself (the engine does); gzip/deflate is
/// decoded as a stream with a ratio limit; HTTP/2 is used over TLS when the server offers it.
struct NIOConnector: Connector {
    private let tls: TLSOptions

    /// `tls` for every request this value sends; the request's own TLS options (from its endpoint)
    /// win when they ask for more than the default.
    init(tls: TLSOptions = TLSOptions()) {
        self.tls = tls
    }

    static var cancelsPromptly: Bool { true }  // async-http-client fails a cancelled request's future at once

    /// Request bodies from files are streamed from disk with a Content-Length; with a destination
    /// or a stream, the response body is streamed into it. async-http-client's delegate API gives
    /// back-pressure both ways (its next read waits for the previous chunk's write; the next chunk
    /// of a file is read only when the previous one is on its way), so memory stays flat whatever
    /// the size. File reads and writes run on NIO's thread pool, off the event loops.
    func exchange(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller) async throws(APIError) -> Exchanged {
        let collector = ResponseCollector(request: request, transfer: transfer)
        do {
            return try await exchange(request, hop, transfer: transfer, holder: holder, collector: collector)
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.describe(error, request, socket: hop.route.socket, received: collector.counts)
        }
    }

    private func exchange(_ request: PreparedRequest, _ hop: Hop, transfer: Transfer, holder: Canceller,
                          collector: ResponseCollector) async throws -> Exchanged {
        let client = try ClientPool.client(tls: tls.isDefault ? request.tls : tls.overridden(by: request.tls), hop: hop)
        let wire = try Self.wireURL(request.url, route: hop.route)
        var body: HTTPClient.Body?
        var length: Int64 = 0
        switch request.body {
        case .data(let data)?: (body, length) = (.bytes(data), Int64(data.count))
        case let streamed?:
            let sized = try SizedBody(streamed)
            body = .stream(contentLength: sized.length, Self.upload(sized, on: client.eventLoopGroup, progress: transfer.progress))
            length = sized.length
        case nil: break
        }
        // Host, Accept-Encoding and the framing decided as for the keep-alive connector (and as
        // -v prints them): async-http-client keeps a Host and an Accept-Encoding it is given and
        // frames the body with the same Content-Length.
        var headers = HTTPHeaders()
        for header in request.wireHeaders(bodyLength: length) { headers.add(name: header.name, value: header.value) }
        var outgoing = try Self.parsed(wire, method: request.method)
        (outgoing.headers, outgoing.body) = (headers, body)
        // A task running on an event loop (`EventLoopExecutor`) prefers a connection of that loop and
        // gets its response there. Preferred, not required: a request that requires a loop with no idle
        // connection on it gets an "overflow" connection, closed once used (a connect per request).
        let task = client.execute(request: outgoing, delegate: collector,
                                  eventLoop: EventLoopExecutor.current.map { .delegate(on: $0) } ?? .indifferent,
                                  deadline: .now() + .seconds(Int64(request.timeout.rounded(.up)) + 1))
        holder.set { task.cancel() }
        let received: ResponseCollector.Received
        do {
            received = try await task.futureResult.get()
        } catch let error as HTTPClientError where error == .remoteConnectionClosed {
            // The server answered in full (every byte its Content-Length announced) and closed
            // while the request body was still going out (an answer before the whole body was
            // read, or the close racing the body's end): async-http-client fails such a request;
            // the answer is here, and it is the answer (as curl takes it).
            guard let answered = try collector.answeredBeforeClose() else { throw error }
            received = answered
        }
        var response = Response(status: received.status, headers: Self.fields(received.headers), body: received.body, duration: 0)
        response.httpVersion = received.version
        if !received.follows {
            response.saved = transfer.destination
            response.streamed = transfer.stream != nil
        }
        return Exchanged(response, follows: received.follows)
    }

    /// async-http-client's request for a URL and method, taken apart once: `HTTPClient.Request(url:)`
    /// parses the URL again on every call (2% of a load run, whose users send the same URLs over and
    /// over). Headers and body are set per exchange. At most `parsedLimit` kept (then started afresh).
    static func parsed(_ url: URL, method: String) throws -> HTTPClient.Request {
        let key = ParsedKey(method: method, url: url.absoluteString)
        if let known = parsedRequests.withLock({ $0[key] }) { return known }
        let made = try HTTPClient.Request(url: url, method: HTTPMethod(rawValue: method))
        parsedRequests.withLock { known in
            if known.count >= parsedLimit { known.removeAll(keepingCapacity: true) }
            known[key] = made
        }
        return made
    }

    private struct ParsedKey: Hashable {
        var method: String
        var url: String
    }

    private static let parsedRequests = Locked<[ParsedKey: HTTPClient.Request]>([:])
    static let parsedLimit = 1024

    /// Response headers sorted by name (stable: repeated fields keep their order), on every
    /// platform alike (URLSession does not keep wire order).
    static func fields(_ headers: HTTPHeaders) -> [HeaderField] {
        // A usual head (a few fields): sorted in place as they come, names compared without
        // lowering them (lowering and sorting copies was 2% of a load run's CPU).
        if headers.count <= 32 {
            var fields = [HeaderField]()
            fields.reserveCapacity(headers.count)
            for (name, value) in headers {
                var at = fields.count
                while at > 0, HeaderField.nameOrder(name, fields[at - 1].name) { at -= 1 }
                fields.insert(HeaderField(name, value), at: at)
            }
            return fields
        }
        // Each name lowered once, not twice per comparison.
        return headers.enumerated().map { (key: $0.element.name.lowercased(), offset: $0.offset, field: HeaderField($0.element.name, $0.element.value)) }
            .sorted { ($0.key, $0.offset) < ($1.key, $1.offset) }.map(\.field)
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
                    let written = writer.write(.byteBuffer(buffer))
                    // The last bytes (the reader gives exactly `total`): the body ends now, right
                    // behind them, not once they are flushed and one more read found the end. A
                    // server that reads the body, answers and closes (gunicorn's sync worker,
                    // `Connection: close`) could otherwise deliver its whole answer and its close
                    // while async-http-client still counts the request as streaming, which it then
                    // fails as a lost connection (its HTTPRequestStateMachine: a close in
                    // `.running(.streaming, .endReceived)`). The end goes through the same queues
                    // as this write, after it.
                    if reader.sent >= total { return loop.makeSucceededVoidFuture() }
                    return written.flatMap { step() }
                }
            }
            return step()
        }
    }
}

/// The response as async-http-client hands it over: the head, then the body — in memory (at most
/// `maxBody` bytes), written to the destination or stream (on the thread pool; the next chunk is
/// read from the connection only when this write is done), or dropped when the response is a
/// redirect that will be followed. Its callbacks come one at a time, in order.
final class ResponseCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Received: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        var version: String
        /// A redirect that will be followed: its body was dropped.
        var follows: Bool
    }

    struct BodyTooLarge: Error {
        package init(limit: Int64) { self.limit = limit }
        var limit: Int64
    }

    private let request: PreparedRequest
    private let transfer: Transfer
    private var head: HTTPResponseHead?
    private var follows = false
    private var body = ByteBuffer()
    private var received: Int64 = 0
    private var total: Int64?

    package init(request: PreparedRequest, transfer: Transfer) {
        self.request = request
        self.transfer = transfer
    }

    /// Where the body goes when it is not kept in memory.
    private var sink: (any BodySink)? { transfer.destination ?? transfer.stream }

    func didReceiveHead(task: HTTPClient.Task<Received>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        let status = Int(head.status.code)
        follows = Redirect.follows(status: status, location: head.headers.first(name: "Location"), after: request)
        guard !follows else { return task.eventLoop.makeSucceededVoidFuture() }
        total = head.headers.first(name: "Content-Length").flatMap { Int64($0) }
        if sink != nil { transfer.progress(TransferProgress(.download, bytes: 0, total: total)) }
        transfer.head(APITransport.Response(status: status, headers: NIOConnector.fields(head.headers), body: Data(), duration: 0,
                               httpVersion: Self.version(head.version)))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Received>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard !follows else { return task.eventLoop.makeSucceededVoidFuture() }
        received += Int64(buffer.readableBytes)
        guard let sink else {
            guard received <= request.maxBody else { return task.eventLoop.makeFailedFuture(BodyTooLarge(limit: request.maxBody)) }
            var part = buffer
            body.writeBuffer(&part)
            return task.eventLoop.makeSucceededVoidFuture()
        }
        // Parts arrive a few KiB at a time; a thread-pool hop per part capped a 1 GiB download at
        // about 200 MB/s. Gather up to `flushSize` in memory, then write it (and report progress)
        // while reading waits. A stream (stdout) is written part by part, so output is not held back.
        var part = buffer
        pending.writeBuffer(&part)
        let bytes = received
        guard pending.readableBytes >= (transfer.destination == nil ? 1 : Self.flushSize) else {
            return task.eventLoop.makeSucceededVoidFuture()
        }
        let chunk = pending
        pending = ByteBuffer()
        return NIOThreadPool.singleton.runIfActive(eventLoop: task.eventLoop) {
            try chunk.withUnsafeReadableBytes { raw in try sink.write(raw) }
        }.map {
            self.transfer.progress(TransferProgress(.download, bytes: bytes, total: self.total))
        }
    }

    /// The most a download holds in memory before writing it out.
    static let flushSize = 1 << 20
    private var pending = ByteBuffer()

    /// The body bytes received so far and the length the head announced (read after the task ended).
    var counts: (bytes: Int64, expected: Int64?) { (received, total) }

    /// The response, when its head and every body byte its Content-Length announced had come
    /// before the connection closed under a request still sending its body (read after the task
    /// failed, when no callback is left to come); nil otherwise.
    func answeredBeforeClose() throws -> Received? {
        guard let head, !follows, let total, received == total else { return nil }
        return try finish(head)
    }

    func didFinishRequest(task: HTTPClient.Task<Received>) throws -> Received {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        return try finish(head)
    }

    private func finish(_ head: HTTPResponseHead) throws -> Received {
        if let sink, !follows, pending.readableBytes > 0 {
            // The last (at most 1 MiB) part, written here: the request is over, nothing waits on the loop.
            try pending.withUnsafeReadableBytes { raw in try sink.write(raw) }
            pending.clear()
            transfer.progress(TransferProgress(.download, bytes: received, total: total))
        }
        return Received(status: Int(head.status.code), headers: head.headers, body: Data(body.readableBytesView),
                        version: Self.version(head.version), follows: follows)
    }

    /// `HTTP/1.1`, `HTTP/2`.
    static func version(_ v: HTTPVersion) -> String {
        if v == .http1_1 { return "HTTP/1.1" }  // nearly every response: no interpolation
        return v.minor == 0 && v.major >= 2 ? "HTTP/\(v.major)" : "HTTP/\(v.major).\(v.minor)"
    }
}
