import APISupport
import APIJSON
import APIDiagnostics
import APISchema
import APITargets
import APITransport
import APIVerdict
import APILive
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOPosix
import Atomics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `apicli mock`'s HTTP/1.1 server (SwiftNIO): every request is answered from the current
/// `MockTable`, which `reload` swaps whole. It never prints: each answered request is reported
/// to `log` as a `MockServer.Event`.
package final class MockServer: Sendable {
    /// One request and what it got: the log line's fields.
    package struct Event: Sendable {
        package var method: String
        package var uri: String
        package var target: String?
        package var sample: String?
        /// nil: the connection was closed without a response (an `error:` sample).
        package var status: Int?
        package var seconds: Double

        /// `GET /v1/users/octocat  github.user  sample  200  0.3 ms`.
        package var line: String {
            let outcome = status.map(String.init) ?? "closed"
            return Self.joined(method, " ", uri, "  ", target ?? "-", "  ", sample ?? "-", "  ", outcome, "  ",
                               Text.fixed(seconds * 1000, 1), " ms")
        }

        /// The pieces' bytes copied into one string made at its size, not appended one by one: the
        /// server makes a line for every request it answers.
        static func joined(_ pieces: String...) -> String {
            let count = pieces.reduce(0) { $0 + $1.utf8.count }
            return String(unsafeUninitializedCapacity: count) { out in
                var at = 0
                for var piece in pieces {
                    piece.withUTF8 { bytes in
                        guard let from = bytes.baseAddress, let to = out.baseAddress else { return }
                        (to + at).initialize(from: from, count: bytes.count)
                        at += bytes.count
                    }
                }
                return at
            }
        }
    }

    /// What a client may hold: the server stays up and answering whatever clients do.
    package struct Limits: Sendable {
        /// Connections open at once (idle connections must not use up the file descriptors the
        /// reload needs to read the targets); at the limit the one idle longest makes room.
        package var connections: Int
        /// Seconds a connection may take to send a whole request, counted from when it opened or
        /// its last response was sent: an idle keep-alive connection and a client that trickles
        /// its headers (slowloris) are closed when it runs out.
        package var requestTimeout: Double
        /// The longest request target (path and query) answered; a longer one gets 414.
        package var uriLength: Int
        /// Requests a connection may have waiting for their answers (pipelined); one more closes it.
        /// (A connection whose answers are not being read is not read either, and is closed when
        /// they have not drained for `requestTimeout`: `MockBackpressure`.)
        package var pipelined: Int

        package init(connections: Int = 512, requestTimeout: Double = 30, uriLength: Int = 8192, pipelined: Int = 128) {
            self.connections = connections
            self.requestTimeout = requestTimeout
            self.uriLength = uriLength
            self.pipelined = pipelined
        }
    }

    private let table: MockServing
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The port bound (the one asked for, or the one the system picked for 0).
    package let port: Int
    package let host: String

    /// Listens on `host:port` (0: a free port). A port that cannot be bound is a network error.
    package static func start(host: String, port: Int, table: MockTable, limits: Limits = Limits(),
                             log: (@Sendable (Event) -> Void)?) async throws(APIError) -> MockServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let shared = MockServing(table)
        let connections = MockConnections(limit: limits.connections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 512)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard let slot = connections.admit(channel) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in connections.closed(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    let upgrade: NIOHTTPServerUpgradeConfiguration = (upgraders: [MockWebSocket.upgrader(table: shared, log: log)],
                                                                        completionHandler: { _ in })
                    let pipeline = channel.pipeline.syncOperations
                    let waiting = MockPipelineGuard.Waiting()
                    try pipeline.addHandler(MockBackpressure(stall: limits.requestTimeout))
                    // The answers' header fields are checked by the mock itself (`MockHandler.isSendable`: a
                    // rendered answer's once, when the table is made), not by one more handler every answer's
                    // three parts pass through.
                    // NIO's protocol error handler is left out too: MockHandler answers a request its parser
                    // refuses (`errorCaught`), so the answers' parts pass through one handler less.
                    // And the encoder writes the framing fields as the mock set them (`MockHandler.framed`), not
                    // checking and rewriting every answer's head.
                    var encoder = HTTPResponseEncoder.Configuration()
                    encoder.automaticallySetFramingHeaders = false
                    try pipeline.configureHTTPServerPipeline(withServerUpgrade: upgrade, withErrorHandling: false,
                                                             withOutboundHeaderValidation: false, withEncoderConfiguration: encoder)
                    try pipeline.addHandler(MockPipelineGuard(limit: limits.pipelined, waiting: waiting), name: MockPipelineGuard.name,
                                            position: .before(try pipeline.handler(type: HTTPServerPipelineHandler.self)))
                    try pipeline.addHandler(MockHandler(table: shared, limits: limits, slot: slot,
                                                        waiting: NIOLoopBound(waiting, eventLoop: channel.eventLoop), log: log),
                                            name: MockHandler.name)
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            let bound = channel.localAddress?.port ?? port
            return MockServer(table: shared, group: group, channel: channel, host: host, port: bound)
        } catch {
            try? await group.shutdownGracefully()
            throw .network(.other("cannot listen on \(host):\(port): " + Self.listenProblem(error)))
        }
    }

    /// Why the address cannot be listened on, in plain words.
    static func listenProblem(_ error: any Error) -> String {
        ListenProblem.describe(error, port: "pick another with --port, or --port 0 for a free one",
                               host: "--host takes one of its own addresses (127.0.0.1, 0.0.0.0)")
    }

    private init(table: MockServing, group: MultiThreadedEventLoopGroup, channel: any Channel, host: String, port: Int) {
        self.table = table
        self.group = group
        self.channel = channel
        self.host = host
        self.port = port
    }

    /// `http://127.0.0.1:PORT`.
    package var url: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)"
    }

    /// Serves `table` from the next request on.
    package func reload(_ table: MockTable) { self.table.set(table) }

    /// Stops listening, closes the connections, and frees the threads.
    package func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// The table the handlers answer from. A reload publishes a new one; each handler keeps the one it
/// answered the last request from and takes the lock only when the generation has moved, not on
/// every request (the connections of every event loop would wait for each other on it).
final class MockServing: Sendable {
    /// One published table.
    final class Snapshot: Sendable {
        let table: MockTable
        let generation: Int

        init(_ table: MockTable, generation: Int) {
            (self.table, self.generation) = (table, generation)
        }

        /// The table's answer to a whole request (`body`: what was kept of its body).
        func answer(_ head: HTTPRequestHead, body: Data) -> MockTable.Answer {
            // The request's fields are judged by `--validate` only (header parameters): not copied otherwise.
            table.answer(method: head.method.rawValue, uri: head.uri, sampleHeader: head.headers.first(name: MockTable.sampleHeader),
                         body: body, headers: table.validateRequests ? head.headers.map { ($0.name, $0.value) } : [])
        }
    }

    private let published: Locked<Snapshot>
    private let generation = ManagedAtomic(0)

    init(_ table: MockTable) {
        published = Locked(Snapshot(table, generation: 0))
    }

    /// Serves `table` from the next request on.
    func set(_ table: MockTable) {
        published.withLock { snapshot in
            snapshot = Snapshot(table, generation: snapshot.generation + 1)
            generation.store(snapshot.generation, ordering: .releasing)
        }
    }

    /// The table now.
    var current: Snapshot { published.current }

    /// `snapshot`, or the table published since.
    func fresh(_ snapshot: Snapshot) -> Snapshot {
        generation.load(ordering: .acquiring) == snapshot.generation ? snapshot : current
    }
}

/// One connection's requests, in order (NIO's pipelining handler queues the next request until a
/// response is complete).
final class MockHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    /// Its name in the pipeline (a WebSocket upgrade removes it).
    static let name = "apicli-mock"

    private let table: MockServing
    private var snapshot: MockServing.Snapshot
    private let limits: MockServer.Limits
    private let slot: MockConnections.Slot
    /// The pipelining guard's count of this connection's requests waiting for answers: one less
    /// for each answer's end written.
    private let waiting: NIOLoopBound<MockPipelineGuard.Waiting>
    private let log: (@Sendable (MockServer.Event) -> Void)?
    private var head: HTTPRequestHead?
    private var start: UInt64 = 0
    /// The request body, for `mock --validate`.
    private var body = Data()
    static let maxBody = 8 << 20
    /// Since when the next request is awaited (nil while one is being answered): the connection is
    /// closed when it is not in by `limits.requestTimeout` after that.
    private var awaited: NIODeadline?
    /// The one timer that checks `awaited`. It is not cancelled and made again for every request:
    /// when it fires early (a request came in meanwhile) it is set again for the deadline then.
    private var timer: Scheduled<Void>?
    /// A request whose answer waits for the answers before it to drain.
    private var parked: (HTTPRequestHead, Data)?

    init(table: MockServing, limits: MockServer.Limits, slot: MockConnections.Slot,
         waiting: NIOLoopBound<MockPipelineGuard.Waiting>, log: (@Sendable (MockServer.Event) -> Void)?) {
        self.table = table
        snapshot = table.current
        self.limits = limits
        self.slot = slot
        self.waiting = waiting
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    /// The table now (a reload swaps it whole), in the snapshot that holds it: answered from there,
    /// not copied out for every request.
    private var current: MockServing.Snapshot {
        snapshot = table.fresh(snapshot)
        return snapshot
    }

    private var timeout: TimeAmount { .nanoseconds(Int64(limits.requestTimeout * 1e9)) }

    /// The next request must be in within the limit, or the connection is closed.
    private func arm(_ channel: any Channel) {
        let now = NIODeadline.now()
        awaited = now
        if timer == nil { schedule(at: now + timeout, channel) }
    }

    private func schedule(at deadline: NIODeadline, _ channel: any Channel) {
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        timer = channel.eventLoop.scheduleTask(deadline: deadline) { handler.value.expired(channel) }
    }

    private func expired(_ channel: any Channel) {
        timer = nil
        guard channel.isActive else { return }
        guard let awaited else { return schedule(at: .now() + timeout, channel) }  // answering: look again later
        let deadline = awaited + timeout
        if deadline <= .now() { channel.close(promise: nil) } else { schedule(at: deadline, channel) }
    }

    /// The answer is out (or on its way): idle, and the next request is awaited from now.
    private func becomeIdle(_ channel: any Channel) {
        guard channel.isActive else { return }
        slot.busy(false)
        arm(channel)
    }

    /// A request NIO's parser refused (`HTTP/9.9`, a bad header line): answered 400 with
    /// `Connection: close` (what NIO's HTTPServerProtocolErrorHandler sent), and the connection is
    /// closed as it says (it stayed open: a file descriptor kept per bad request). NIO's pipelining
    /// handler hands an error on only when no answer is being written (it holds it until the answer's
    /// end), so the 400 never cuts into another answer.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            let fields = HTTPHeaders([("Connection", "close"), ("Content-Length", "0")])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: fields))),
                          promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            context.close(promise: nil)
        }
        context.fireErrorCaught(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            slot.busy(true)
            body = Data()
            if log != nil { start = DispatchTime.now().uptimeNanoseconds }
        case .body(var part):
            // kept only when requests are validated, and at most `maxBody` bytes (a longer one is cut: not JSON)
            if current.table.keepsBodies, body.count < Self.maxBody, let bytes = part.readBytes(length: min(part.readableBytes, Self.maxBody - body.count)) {
                body.append(contentsOf: bytes)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            awaited = nil
            // Answers not drained yet (a client not reading them): this one waits for them, and NIO's
            // pipelining handler holds the requests after it (and stops reading) until it is sent.
            guard context.channel.isWritable else {
                parked = (head, body)
                body = Data()
                return
            }
            answer(head, body: body, context: context)
            body = Data()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let (head, body) = parked {
            parked = nil
            answer(head, body: body, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Answers a whole request (`body`: what was kept of its body).
    private func answer(_ head: HTTPRequestHead, body: Data, context: ChannelHandlerContext) {
        let channel = context.channel
        if head.uri.utf8.count > limits.uriLength {
            let answer = MockTable.Answer(reply: MockTable.json(414, [("error", .string(
                "the request target is longer than \(limits.uriLength) bytes"))]), target: nil, sample: nil)
            respond(answer, to: head, context: context, close: true)
            return
        }
        let answer = current.answer(head, body: body)
        if case .events(let status, let headers, let events, let delay) = answer.reply {
            // the connection is busy (not timed out) until the stream has ended
            let log = self.logger(answer, head)
            let loop = context.eventLoop
            let handler = NIOLoopBound(self, eventLoop: loop)
            let waiting = self.waiting
            Self.after(delay, on: channel) {
                Self.stream(status: status, headers: headers, events: events, to: head, channel: channel, waiting: waiting) { sent in
                    log?(sent ? status : nil)
                    loop.execute { handler.value.becomeIdle(channel) }
                }
            }
            return
        }
        respond(answer, to: head, context: context, close: false)
    }

    /// Reports the answer to `head` with the status sent (nil: closed without a response); nil
    /// when nothing is logged (`mock -q`).
    private func logger(_ answer: MockTable.Answer, _ head: HTTPRequestHead) -> (@Sendable (Int?) -> Void)? {
        guard let log else { return nil }
        let start = self.start
        return { @Sendable (status: Int?) in
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            log(MockServer.Event(method: head.method.rawValue, uri: head.uri, target: answer.target,
                                 sample: answer.sample, status: status, seconds: seconds))
        }
    }

    private func respond(_ answer: MockTable.Answer, to head: HTTPRequestHead, context: ChannelHandlerContext, close: Bool) {
        let channel = context.channel
        let event = logger(answer, head)
        let waiting = self.waiting
        // Idle before the answer is written: writing its end hands NIO's pipelining handler's next
        // request (if one waits) to this handler at once, and that one is busy from its head on.
        becomeIdle(channel)
        switch answer.reply {
        case .events:
            break  // streamed by channelRead
        case .close(let delay):
            Self.after(delay, on: channel) {
                event?(nil)
                channel.close(promise: nil)
            }
        case .response(let status, _, _, let delay) where answer.wire != nil:
            // a rendered response: its head's fields and body made once
            let wire = answer.wire!
            let close = close || status == 400 || status == 414
            if delay > 0 {
                Self.after(delay, on: channel) {
                    Self.write(status: wire.status, fields: wire.headers, body: wire.body, to: head, channel: channel,
                               close: close, waiting: waiting)
                    event?(status)
                }
            } else {
                Self.write(status: wire.status, fields: wire.headers, body: wire.body, to: head, channel: channel,
                           close: close, waiting: waiting)
                event?(status)
            }
        case .response(let status, let headers, let body, let delay):
            Self.after(delay, on: channel) {
                // A header value a path capture filled with CR, LF or another control character
                // cannot go on the wire: a 500 that says which, at once (it used to hang the client).
                if let bad = headers.first(where: { !Self.isValidHeaderValue($0.value) }) {
                    let text = JSONValue.object([(key: "error", value: .string(
                        "the sample's header \(bad.name) holds a control character (CR, LF or another): it cannot be sent"))]).jsonText + "\n"
                    Self.write(status: 500, headers: [HeaderField("Content-Type", "application/json")], body: Data(text.utf8),
                               to: head, channel: channel, close: true, waiting: waiting)
                    event?(500)
                    return
                }
                Self.write(status: status, headers: headers, body: body, to: head, channel: channel,
                           close: close || status == 400 || status == 414, waiting: waiting)
                event?(status)
            }
        }
    }

    /// Header text that may go on the wire: the one rule (no line break or other C0 control,
    /// no DEL), and no C1 control either (a terminal would read U+009B as CSI).
    static func isValidHeaderValue(_ value: String) -> Bool {
        HeaderField.forbiddenCharacter(in: value) == nil && !value.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }
    }

    /// A header field that may go on the wire: its name a token (RFC 9110), its value valid. Target
    /// files' names are tokens already (checked when loaded); this is the last check before a write
    /// (NIO's outbound header validator is left out of the pipeline).
    static func isSendable(_ field: HeaderField) -> Bool {
        TargetFile.isToken(field.name) && isValidHeaderValue(field.value)
    }

    static func after(_ delay: Double, on channel: any Channel, _ body: @escaping @Sendable () -> Void) {
        if delay > 0 {
            channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { body() }
        } else {
            body()
        }
    }

    /// `fields` as NIO's encoder framed an answer (it no longer does it for the mock): an answer that
    /// has no body (1xx, 204, 304, or to CONNECT) carries neither Content-Length nor Transfer-Encoding.
    static func framed(_ fields: HTTPHeaders, status: HTTPResponseStatus, to head: HTTPRequestHead) -> HTTPHeaders {
        guard head.method == .CONNECT || !status.mayHaveResponseBody else { return fields }
        var fields = fields
        fields.remove(name: "content-length")
        fields.remove(name: "transfer-encoding")
        return fields
    }

    /// The head's fields of a response: the sample's (its own framing fields left out) and Content-Length.
    static func fields(_ headers: [HeaderField], bodyCount: Int) -> HTTPHeaders {
        var fields = HTTPHeaders()
        for h in headers {
            let name = h.name.lowercased()
            if name == "content-length" || name == "transfer-encoding" || name == "connection" { continue }
            fields.add(name: h.name, value: h.value)
        }
        fields.add(name: "Content-Length", value: String(bodyCount))
        return fields
    }

    static func write(status: Int, headers: [HeaderField], body: Data, to head: HTTPRequestHead, channel: any Channel,
                      close: Bool, waiting: NIOLoopBound<MockPipelineGuard.Waiting>) {
        // as NIO's validator did: a field that cannot be sent closes the connection, nothing written
        guard headers.allSatisfy(isSendable) else { return channel.close(promise: nil) }
        write(status: HTTPResponseStatus(statusCode: status), fields: fields(headers, bodyCount: body.count),
              body: ByteBuffer(bytes: body), to: head, channel: channel, close: close, waiting: waiting)
    }

    static func write(status: HTTPResponseStatus, fields: HTTPHeaders, body: ByteBuffer, to head: HTTPRequestHead,
                      channel: any Channel, close: Bool, waiting: NIOLoopBound<MockPipelineGuard.Waiting>) {
        let keepAlive = head.isKeepAlive && !close
        var fields = framed(fields, status: status, to: head)
        if !keepAlive { fields.add(name: "Connection", value: "close") }
        let response = HTTPResponseHead(version: head.version, status: status, headers: fields)
        channel.write(HTTPServerResponsePart.head(response), promise: nil)
        if head.method != .HEAD && body.readableBytes > 0 {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
        }
        waiting.value.answered()
        if keepAlive {
            channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
        } else {
            channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
