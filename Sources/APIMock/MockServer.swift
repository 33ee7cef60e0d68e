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
import NIOWebSocket
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
        let upgrader = MockWebSocket.upgrader(table: shared, log: log)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 512)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                guard let slot = connections.admit(channel) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in connections.closed(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    // The mock reads and writes HTTP/1.1 itself (`MockConnection`), not through NIO's
                    // decoder, pipelining handler, encoder and upgrade handler.
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(MockConnection(table: shared, limits: limits, slot: slot, upgrader: upgrader, log: log),
                                            name: MockConnection.name)
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
        /// `table.keepsBodies`, read for every request (a struct's property read through the class copies the struct).
        let keepsBodies: Bool

        init(_ table: MockTable, generation: Int) {
            (self.table, self.generation, keepsBodies) = (table, generation, table.keepsBodies)
        }

        /// The table's answer to a whole request (`body`: what was kept of its body). The request's
        /// fields are judged by `--validate` only (header parameters): not made otherwise.
        func answer(_ request: MockRequest, body: [UInt8]) -> MockTable.Answer {
            table.answer(method: request.method, uri: request.uri, sampleHeader: request.sample,
                         body: body.isEmpty ? Data() : Data(body), headers: table.validateRequests ? request.fields : [])
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
/// One connection of the mock, its HTTP/1.1 read and written by the mock itself (no HTTP handler of
/// NIO's: each of them is a hop with its own checks for every request): requests parsed from the
/// bytes read (`MockRequestParser`), answered in order, their answers written as bytes (a rendered
/// answer as made once). A WebSocket upgrade hands the connection to NIO's WebSocket handlers.
///
/// Pipelined requests are answered in order: while an answer is being sent (delayed, streamed, or
/// waiting for the answers before it to drain) the requests after it wait, and the connection is not
/// read; more than `limits.pipelined` waiting closes it.
final class MockConnection: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    /// Its name in the pipeline.
    static let name = "apicli-mock"

    /// A request read, waiting for the answers before it.
    private enum Waiting {
        case request(MockRequest, body: [UInt8])
        /// Bytes that are not a request: 400 and close, once the answers before are sent.
        case invalid
    }

    private let table: MockServing
    private var snapshot: MockServing.Snapshot
    private let limits: MockServer.Limits
    private let slot: MockConnections.Slot
    private let upgrader: NIOWebSocketServerUpgrader
    private let log: (@Sendable (MockServer.Event) -> Void)?
    private var context: ChannelHandlerContext?
    private var parser = MockRequestParser()
    /// Bytes read and not parsed yet.
    private var buffer: ByteBuffer?
    private var waiting: [Waiting] = []
    private var waitingFrom = 0
    /// An answer is being sent (delayed, streamed, waiting to drain, or an upgrade): the requests
    /// after it wait, and the connection is not read.
    private var answering = false
    /// Its last answer is out or it is being closed: nothing more is read or answered.
    private var closing = false
    /// Bytes that are not a request were read: nothing after them is.
    private var refused = false
    /// A read held back while answering.
    private var heldRead = false
    /// Written and not flushed yet.
    private var unflushed = false
    /// No request was answered yet (only the first may upgrade, as with NIO's upgrade handler).
    private var first = true
    private var start: UInt64 = 0
    /// Since when the next request is awaited (nil while one is being answered): the connection is
    /// closed when it is not in by `limits.requestTimeout` after that.
    private var awaited: NIODeadline?
    /// The one timer that checks `awaited`. It is not cancelled and made again for every request:
    /// when it fires early (a request came in meanwhile) it is set again for the deadline then.
    private var timer: Scheduled<Void>?

    init(table: MockServing, limits: MockServer.Limits, slot: MockConnections.Slot, upgrader: NIOWebSocketServerUpgrader,
         log: (@Sendable (MockServer.Event) -> Void)?) {
        self.table = table
        snapshot = table.current
        self.limits = limits
        self.slot = slot
        self.upgrader = upgrader
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        arm(context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        timer?.cancel()
        timer = nil
        stalled?.cancel()
        stalled = nil
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
        guard channel.isActive, context != nil else { return }
        guard let awaited else { return schedule(at: .now() + timeout, channel) }  // answering: look again later
        let deadline = awaited + timeout
        if deadline <= .now() { channel.close(promise: nil) } else { schedule(at: deadline, channel) }
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing, !refused else { return }
        var bytes = unwrapInboundIn(data)
        if buffer == nil || buffer!.readableBytes == 0 {
            buffer = bytes
        } else {
            buffer!.writeBuffer(&bytes)
        }
        parse(context)
        flush(context)
    }

    /// Reads are held while an answer is being sent: a client that pipelines requests faster than
    /// their answers drain is not read meanwhile (NIO's pipelining handler did the same).
    func read(context: ChannelHandlerContext) {
        if answering || closing {
            heldRead = true
        } else {
            context.read()
        }
    }

    /// A connection whose answers have not drained for the request timeout is closed (what
    /// `MockBackpressure` does for a WebSocket); an answer waiting for them to drain is sent when they have.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stalled?.cancel()
            stalled = nil
            if answering, case .request(let request, let body)? = parked {
                parked = nil
                answering = false
                answer(request, body: body, context: context)
                resume(context)
            }
        } else if stalled == nil {
            let channel = context.channel
            stalled = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    /// The close of a connection whose answers are not draining.
    private var stalled: Scheduled<Void>?

    /// The end of a read: nothing after this handler needs it.
    func channelReadComplete(context: ChannelHandlerContext) {}

    /// A request whose answer waits for the answers before it to drain.
    private var parked: Waiting?

    /// The requests in the bytes read: each answered at once when none waits before it, else queued.
    /// The parser and the bytes are taken out of the handler while it reads (no exclusivity check
    /// for every access); an upgrade finds the bytes after its request in `buffer`.
    private func parse(_ context: ChannelHandlerContext) {
        guard var bytes = buffer, !refused else { return }
        buffer = nil
        var parser = self.parser
        parser.keepBody = current.keepsBodies
        loop: while !closing {
            switch parser.next(&bytes) {
            case .incomplete:
                if parser.isMidRequest { slot.busy(true) }
                break loop
            case .invalid:
                // nothing after bytes that are not a request is read: 400 once the answers before it are out
                refused = true
                bytes.clear()
                enqueue(.invalid, context)
                break loop
            case .request(let request, let body):
                guard first, request.upgradesToWebSocket else {
                    enqueue(.request(request, body: body), context)
                    continue
                }
                self.parser = parser
                buffer = bytes
                enqueue(.request(request, body: body), context)
                // upgraded (the bytes handed on), or waiting for the upgrader: nothing more is parsed here
                guard !closing, !answering, let rest = buffer else { return }
                buffer = nil
                bytes = rest
            }
        }
        self.parser = parser
        if !closing, bytes.readableBytes > 0 {
            if bytes.readerIndex > 4096 { bytes.discardReadBytes() }
            buffer = bytes
        }
    }

    private func enqueue(_ item: Waiting, _ context: ChannelHandlerContext) {
        if !answering && waitingFrom == waiting.count {
            handle(item, context)
            return
        }
        waiting.append(item)
        if waiting.count - waitingFrom + 1 > limits.pipelined {
            closing = true
            context.close(promise: nil)
        }
    }

    /// Answers the requests that waited, in order, until one is sent later; then reads on.
    private func resume(_ context: ChannelHandlerContext) {
        while !answering, !closing, waitingFrom < waiting.count {
            let item = waiting[waitingFrom]
            waitingFrom += 1
            handle(item, context)
        }
        if waitingFrom == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingFrom = 0
        }
        if !answering, !closing, buffer != nil { parse(context) }
        flush(context)
        if heldRead, !answering, !closing {
            heldRead = false
            context.read()
        }
    }

    private func flush(_ context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            context.flush()
        }
    }

    private func handle(_ item: Waiting, _ context: ChannelHandlerContext) {
        switch item {
        case .invalid:
            refuse(context)
        case .request(let request, let body):
            awaited = nil
            slot.busy(true)
            if log != nil { start = DispatchTime.now().uptimeNanoseconds }
            if first {
                first = false
                if request.upgradesToWebSocket, upgrade(request, context) { return }
            }
            // Answers not drained yet (a client not reading them): this one waits for them.
            guard context.channel.isWritable else {
                answering = true
                parked = item
                return
            }
            answer(request, body: body, context: context)
        }
    }

    /// Bytes that are not a request the mock answers: 400 with `Connection: close` (what NIO's
    /// protocol error handler sent), and the connection is closed as it says.
    private func refuse(_ context: ChannelHandlerContext) {
        closing = true
        let channel = context.channel
        context.write(wrapOutboundOut(ByteBuffer(staticString: "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")),
                      promise: nil)
        unflushed = false
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        buffer = nil
        waiting = []
        waitingFrom = 0
        context.fireChannelInactive()
    }

    // MARK: The WebSocket upgrade

    /// Upgrades the connection when `request` asks for a WebSocket to a messages sample (NIO's
    /// upgrader checks the key and version, and the table the route): writes the 101, hands the
    /// connection to NIO's WebSocket handlers (with the bytes read after the request) and leaves.
    /// false: answered as a plain request.
    private func upgrade(_ request: MockRequest, _ context: ChannelHandlerContext) -> Bool {
        let head = request.nio
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        // NIO's upgrader answers with a future; the mock's check of the route completes it at once
        let decided = NIOLoopBoundBox<Result<HTTPHeaders, any Error>?>(nil, eventLoop: loop)
        let later = NIOLoopBoundBox(false, eventLoop: loop)
        upgrader.buildUpgradeResponse(channel: context.channel, upgradeRequest: head, initialResponseHeaders: HTTPHeaders())
            .whenComplete { result in
                guard later.value else { return decided.value = result }
                let this = handler.value
                guard let context = this.context else { return }
                this.answering = false
                switch result {
                case .failure:
                    this.answer(request, body: [], context: context)
                    this.resume(context)
                case .success(let fields):
                    this.upgrade(head, fields: fields, context)
                }
            }
        switch decided.value {
        case .failure?:
            return false
        case .success(let fields)?:
            upgrade(head, fields: fields, context)
        case nil:
            later.value = true
            answering = true
        }
        return true
    }

    /// Writes the 101 and hands the connection to NIO's WebSocket handlers, with the bytes read after the request.
    private func upgrade(_ head: HTTPRequestHead, fields: HTTPHeaders, _ context: ChannelHandlerContext) {
        var bytes = context.channel.allocator.buffer(capacity: 256)
        bytes.writeStaticString("HTTP/1.1 101 Switching Protocols\r\n")
        for (name, value) in fields {
            bytes.writeString(name)
            bytes.writeStaticString(": ")
            bytes.writeString(value)
            bytes.writeStaticString("\r\n")
        }
        bytes.writeStaticString("\r\n")
        context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
        closing = true
        let rest = buffer
        buffer = nil
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        // a WebSocket's messages not draining close it as answers do here
        try? context.pipeline.syncOperations.addHandler(MockBackpressure(stall: limits.requestTimeout), position: .first)
        upgrader.upgrade(context: context, upgradeRequest: head).whenComplete { _ in
            let context = bound.value
            if let rest, rest.readableBytes > 0 { context.fireChannelRead(NIOAny(rest)) }
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    // MARK: Answering

    /// The answer is out (or on its way): idle, and the next request is awaited from now.
    private func becomeIdle(_ channel: any Channel) {
        guard channel.isActive else { return }
        idle(channel)
    }

    private func idle(_ channel: any Channel) {
        let now = NIODeadline.now()
        slot.idle(since: now.uptimeNanoseconds)
        awaited = now
        if timer == nil { schedule(at: now + timeout, channel) }
    }

    /// An answer sent later (delayed, streamed) is out: the requests after it are answered.
    private func finished() {
        answering = false
        guard let context else { return }
        becomeIdle(context.channel)
        resume(context)
    }

    /// Answers a whole request (`body`: what was kept of its body).
    private func answer(_ request: MockRequest, body: [UInt8], context: ChannelHandlerContext) {
        if request.uri.utf8.count > limits.uriLength {
            let answer = MockTable.Answer(reply: MockTable.json(414, [("error", .string(
                "the request target is longer than \(limits.uriLength) bytes"))]), target: nil, sample: nil)
            respond(answer, to: request, context: context, close: true)
            return
        }
        respond(current.answer(request, body: body), to: request, context: context, close: false)
    }

    /// Reports the answer to `request` with the status sent (nil: closed without a response); nil
    /// when nothing is logged (`mock -q`).
    private func logger(_ answer: MockTable.Answer, _ request: MockRequest) -> (@Sendable (Int?) -> Void)? {
        guard let log else { return nil }
        let start = self.start
        let (method, uri) = (request.method, request.uri)
        return { @Sendable (status: Int?) in
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            log(MockServer.Event(method: method, uri: uri, target: answer.target, sample: answer.sample, status: status, seconds: seconds))
        }
    }

    private func respond(_ answer: MockTable.Answer, to request: MockRequest, context: ChannelHandlerContext, close: Bool) {
        let channel = context.channel
        let event = logger(answer, request)
        if case .response(let status, _, _, 0) = answer.reply, let wire = answer.wire {
            // a rendered response at once: its head's fields and body made once
            write(wire, to: request, context: context, close: close || status == 400 || status == 414)
            event?(status)
            idle(context.channel)
            return
        }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        switch answer.reply {
        case .events(let status, let headers, let events, let delay):
            // the connection is busy (not timed out) until the stream has ended
            answering = true
            Self.after(delay, on: channel) {
                Self.stream(status: status, headers: headers, events: events, to: request, channel: channel) { sent, closes in
                    event?(sent ? status : nil)
                    channel.eventLoop.execute {
                        if closes { handler.value.closing = true }
                        handler.value.finished()
                    }
                }
            }
        case .close(let delay):
            answering = true
            Self.after(delay, on: channel) {
                event?(nil)
                channel.flush()  // the answers before it go out first
                channel.close(promise: nil)
            }
        case .response(let status, _, _, let delay) where answer.wire != nil:
            // a rendered response: its head's fields and body made once
            let wire = answer.wire!
            let close = close || status == 400 || status == 414
            answering = true
            Self.after(delay, on: channel) {
                handler.value.send(Self.bytes(wire, to: request, close: close))
                event?(status)
                handler.value.finished()
            }
        case .response(let status, let headers, let body, let delay):
            let close = close || status == 400 || status == 414
            let send: @Sendable () -> Void = {
                // A header value a path capture filled with CR, LF or another control character
                // cannot go on the wire: a 500 that says which, at once (it used to hang the client).
                if let bad = headers.first(where: { !Self.isValidHeaderValue($0.value) }) {
                    let text = JSONValue.object([(key: "error", value: .string(
                        "the sample's header \(bad.name) holds a control character (CR, LF or another): it cannot be sent"))]).jsonText + "\n"
                    handler.value.send(Self.bytes(status: 500, headers: [HeaderField("Content-Type", "application/json")],
                                                  body: Data(text.utf8), to: request, close: true))
                    event?(500)
                    return
                }
                handler.value.send(Self.bytes(status: status, headers: headers, body: body, to: request, close: close))
                event?(status)
            }
            if delay > 0 {
                answering = true
                Self.after(delay, on: channel) {
                    send()
                    handler.value.finished()
                }
            } else {
                send()
                becomeIdle(channel)
            }
        }
    }

    /// Header text that may go on the wire: the one rule (no line break or other C0 control,
    /// no DEL), and no C1 control either (a terminal would read U+009B as CSI).
    static func isValidHeaderValue(_ value: String) -> Bool {
        HeaderField.forbiddenCharacter(in: value) == nil && !value.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }
    }

    /// A header field that may go on the wire: its name a token (RFC 9110), its value valid. Target
    /// files' names are tokens already (checked when loaded); this is the last check before a write.
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

    /// The head's fields of a response: the sample's (its own framing fields left out) and Content-Length.
    static func fields(_ headers: [HeaderField], bodyCount: Int) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for h in headers {
            let name = h.name.lowercased()
            if name == "content-length" || name == "transfer-encoding" || name == "connection" { continue }
            fields.append((h.name, h.value))
        }
        fields.append(("Content-Length", String(bodyCount)))
        return fields
    }

    /// An answer's head and body as bytes. An answer that has no body (1xx, 204, 304, or to
    /// CONNECT) carries neither Content-Length nor Transfer-Encoding; one to HEAD or CONNECT is
    /// sent without its body; one that closes says `Connection: close`.
    static func render(status: HTTPResponseStatus, fields: [(name: String, value: String)], body: ByteBuffer?, minor: UInt8,
                       isHEAD: Bool = false, isCONNECT: Bool = false, keepAlive: Bool) -> ByteBuffer {
        let unframed = isCONNECT || !status.mayHaveResponseBody
        let sendsBody = !isHEAD && !isCONNECT
        var size = 64 + (sendsBody ? body?.readableBytes ?? 0 : 0)
        for (name, value) in fields { size += name.utf8.count + value.utf8.count + 4 }
        var out = ByteBufferAllocator().buffer(capacity: size)
        out.writeStaticString(minor == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        out.writeString(String(status.code))
        out.writeStaticString(" ")
        out.writeString(status.reasonPhrase)
        out.writeStaticString("\r\n")
        for (name, value) in fields {
            if unframed, name.utf8.count == 14 || name.utf8.count == 17 {
                let lower = name.lowercased()
                if lower == "content-length" || lower == "transfer-encoding" { continue }
            }
            out.writeString(name)
            out.writeStaticString(": ")
            out.writeString(value)
            out.writeStaticString("\r\n")
        }
        if !keepAlive { out.writeStaticString("Connection: close\r\n") }
        out.writeStaticString("\r\n")
        if sendsBody, var body, body.readableBytes > 0 { out.writeBuffer(&body) }
        return out
    }

    /// A rendered answer, in the handler (flushed when the bytes read have been answered).
    private func write(_ wire: MockTable.Wire, to request: MockRequest, context: ChannelHandlerContext, close: Bool) {
        if request.keepAlive, !close, request.minor == 1, !request.isHEAD, !request.isCONNECT {
            context.write(wrapOutboundOut(wire.whole), promise: nil)
            unflushed = true
            return
        }
        send(Self.bytes(wire, to: request, close: close))
    }

    /// An answer's bytes; nil: the connection is closed without one (a field that cannot be sent).
    typealias Bytes = (bytes: ByteBuffer, keepAlive: Bool)?

    static func bytes(_ wire: MockTable.Wire, to request: MockRequest, close: Bool) -> Bytes {
        let keepAlive = request.keepAlive && !close
        if keepAlive && request.minor == 1 && !request.isHEAD && !request.isCONNECT { return (wire.whole, true) }
        return (render(status: wire.status, fields: wire.fields, body: wire.body, minor: request.minor,
                       isHEAD: request.isHEAD, isCONNECT: request.isCONNECT, keepAlive: keepAlive), keepAlive)
    }

    static func bytes(status: Int, headers: [HeaderField], body: Data, to request: MockRequest, close: Bool) -> Bytes {
        // as NIO's validator did: a field that cannot be sent closes the connection, nothing written
        guard headers.allSatisfy(isSendable) else { return nil }
        let keepAlive = request.keepAlive && !close
        return (render(status: HTTPResponseStatus(statusCode: status), fields: fields(headers, bodyCount: body.count),
                       body: ByteBuffer(bytes: body), minor: request.minor, isHEAD: request.isHEAD,
                       isCONNECT: request.isCONNECT, keepAlive: keepAlive), keepAlive)
    }

    /// Writes and flushes an answer; closes the connection after it when it is not kept alive, and
    /// at once when there is none.
    func send(_ answer: Bytes) {
        guard let context else { return }
        let channel = context.channel
        guard let (bytes, keepAlive) = answer else {
            closing = true
            return channel.close(promise: nil)
        }
        unflushed = false
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
        } else {
            closing = true
            context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
