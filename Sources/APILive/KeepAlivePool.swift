import APISupport
import APIDiagnostics
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `KeepAliveConnector`'s connections: idle ones kept per event loop and address, so a task that
/// runs on a loop (`EventLoopExecutor`: a load run's users) takes a connection of that loop and
/// its whole exchange stays on one thread. A connection carries one exchange at a time; it goes
/// back when its response ended and both sides keep it alive, else it is closed.
final class KeepAlivePool: Sendable {
    static let shared = KeepAlivePool()

    struct Address: Hashable, Sendable {
        var host: String
        var port: Int
    }

    /// The most idle connections kept per address and loop (more are closed when they come back).
    static let idleLimit = 512
    /// The most addresses a loop keeps idle connections to (a connection to one more is closed).
    static let addressLimit = 256

    /// A connection with its handler (not looked up in its pipeline each exchange).
    struct Kept: @unchecked Sendable {  // the handler is used on its channel's loop only
        let channel: Channel
        let handler: KeepAliveHandler
    }

    /// One loop's idle connections by address (a list of the addresses that have one, at most
    /// `addressLimit`: a run talks to few hosts) and its pending
    /// flushes. Each loop's own lock, taken by the tasks on that loop: no lock and no cache line
    /// shared by the loops' threads a request (one dictionary for every loop was, hashed twice a request).
    final class LoopConnections: Sendable {
        let loop: ObjectIdentifier
        let flushes: LoopFlushes
        let idle = Locked<[(address: Address, kept: [Kept])]>([])

        init(_ loop: any EventLoop) {
            self.loop = ObjectIdentifier(loop as AnyObject)
            flushes = LoopFlushes(loop)
        }
    }

    /// The singleton group's loops (every loop a task runs on: `EventLoopExecutor`), made once.
    private let loops: [LoopConnections]

    private init() {
        loops = MultiThreadedEventLoopGroup.singleton.makeIterator().map { LoopConnections($0) }
    }

    /// `loop`'s connections; nil for a loop of another group (its connections are not kept).
    private func connections(of loop: any EventLoop) -> LoopConnections? {
        let id = ObjectIdentifier(loop as AnyObject)
        for each in loops where each.loop == id { return each }
        return nil
    }

    /// An exchange that failed once the response had begun (or its bytes were counted): with the
    /// counts, for a truncated body's message.
    struct Failed: Error {
        var error: any Error
        var counts: (bytes: Int64, expected: Int64?)
    }

    struct Received: Sendable {
        var head: KeepAliveHead
        var body: ByteBuffer
        /// A redirect that will be followed: its body was dropped.
        var follows: Bool
    }

    /// Sends `head` and `body` on an idle connection to `address` (or a new one) and returns the
    /// response. A kept connection the server closed before answering is replaced by a new one,
    /// once (as curl does); `holder` cancels by closing the connection in use.
    nonisolated(nonsending) func exchange(_ request: KeepAliveRequest, to address: Address, timeout: Double, limit: Int64,
                  stream: KeepAliveHandler.Stream? = nil,
                  holder: Canceller, follows: @escaping @Sendable (KeepAliveHead) -> Bool) async throws -> Received {
        let loop = EventLoopExecutor.current ?? MultiThreadedEventLoopGroup.singleton.any()
        let home = connections(of: loop)
        if let home, let kept = take(address, from: home) {
            do {
                return try await run(request, on: kept, home: home, address: address, limit: limit, stream: stream, holder: holder, follows: follows)
            } catch is KeepAliveHandler.ClosedBeforeAnswer where !holder.isCancelled {
                // The server had closed the kept connection: a new one, below.
            }
        }
        let kept = try await connect(address, on: loop, flushes: home?.flushes, timeout: timeout)
        do {
            return try await run(request, on: kept, home: home, address: address, limit: limit, stream: stream, holder: holder, follows: follows)
        } catch is KeepAliveHandler.ClosedBeforeAnswer {
            throw HTTPParserError.closedConnection
        }
    }

    /// Where `address`'s connections are in a loop's list (the port compared before the host).
    private static func place(of address: Address, in idle: [(address: Address, kept: [Kept])]) -> Int? {
        idle.firstIndex { $0.address.port == address.port && $0.address.host == address.host }
    }

    private func take(_ address: Address, from home: LoopConnections) -> Kept? {
        home.idle.withLock { idle in
            guard let at = Self.place(of: address, in: idle) else { return nil }
            defer { if idle[at].kept.isEmpty { idle.remove(at: at) } }  // the list: addresses with an idle connection
            while let kept = idle[at].kept.popLast() {
                if kept.channel.isActive { return kept }
            }
            return nil
        }
    }

    private func give(_ kept: Kept, _ address: Address, to home: LoopConnections?) {
        let given = home?.idle.withLock { idle -> Bool in
            guard let at = Self.place(of: address, in: idle) else {
                // A list scanned each exchange: a run's redirects to ever new ports cannot make it long.
                guard idle.count < Self.addressLimit else { return false }
                idle.append((address, [kept]))
                return true
            }
            guard idle[at].kept.count < Self.idleLimit else { return false }
            idle[at].kept.append(kept)
            return true
        } ?? false
        if !given { kept.channel.close(promise: nil) }
    }

    private func connect(_ address: Address, on loop: EventLoop, flushes: LoopFlushes?, timeout: Double) async throws -> Kept {
        if let problem = URLBuilder.problem(withPort: address.port) {  // a redirect's, a route's: never a trap
            throw APIError.invalid(Diagnostic(file: nil, mark: nil, message: "\(address.host):\(address.port) \(problem)"))
        }
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(.milliseconds(Int64((timeout * 1000).rounded(.up))))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // One handler: it writes each request's encoded bytes (`KeepAliveRequest`) and reads
                    // the response from the socket's bytes itself (`KeepAliveResponseParser`). NIO's
                    // response decompressor sees only responses with a `Content-Encoding` (added after it
                    // at the first such response; `KeepAliveInflated` hands them back).
                    let sync = channel.pipeline.syncOperations
                    let handler = KeepAliveHandler()
                    handler.flushes = flushes
                    try sync.addHandler(handler)
                }
            }
        // An IP address (a bench's or a test's 127.0.0.1, a --resolve target) is connected to as it is:
        // no resolver queue nor Happy Eyeballs, which were a third of a one-off call's instructions.
        let channel: Channel
        if let ip = try? SocketAddress(ipAddress: address.host, port: address.port) {
            channel = try await bootstrap.connect(to: ip).get()
        } else {
            channel = try await bootstrap.connect(host: address.host, port: address.port).get()
        }
        // The handler of the connection (Happy Eyeballs may have made one for each attempt), once.
        let kept: @Sendable () throws -> Kept = { Kept(channel: channel, handler: try channel.pipeline.syncOperations.handler(type: KeepAliveHandler.self)) }
        return try channel.eventLoop.inEventLoop ? kept() : await channel.eventLoop.submit(kept).get()
    }

    nonisolated(nonsending) private func run(_ request: KeepAliveRequest, on kept: Kept, home: LoopConnections?, address: Address, limit: Int64,
                     stream: KeepAliveHandler.Stream?, holder: Canceller,
                     follows: @escaping @Sendable (KeepAliveHead) -> Bool) async throws -> Received {
        let channel = kept.channel
        holder.set { channel.close(promise: nil) }
        // The handler resumes the exchange's continuation itself (no promise, future and callback a request).
        let outcome: KeepAliveHandler.Outcome
        do {
            outcome = try await withUnsafeThrowingContinuation { (waiting: UnsafeContinuation<KeepAliveHandler.Outcome, Error>) in
                let start: @Sendable () -> Void = {
                    // Closed since it was taken (its close was seen on the loop before this ran): no event will
                    // come to end the exchange, so it fails here and goes on a new connection.
                    guard channel.isActive else { return waiting.resume(throwing: KeepAliveHandler.ClosedBeforeAnswer()) }
                    let handler = kept.handler
                    handler.start(waiting, limit: limit, stream: stream, follows: follows)
                    handler.send(request)
                }
                if channel.eventLoop.inEventLoop { start() } else { channel.eventLoop.execute(start) }
            }
        } catch {
            channel.close(promise: nil)
            throw error
        }
        if let error = outcome.error {
            channel.close(promise: nil)
            if error is KeepAliveHandler.ClosedBeforeAnswer { throw error }
            throw Failed(error: error, counts: (outcome.bytes, outcome.expected))
        }
        let received = Received(head: outcome.head!, body: outcome.body, follows: outcome.follows)
        if outcome.keepAlive && request.keepAlive { give(kept, address, to: home) } else { channel.close(promise: nil) }
        return received
    }
}

/// One connection's side of an exchange: writes the request, reads the response from the bytes
/// (`KeepAliveResponseParser`): the head, its body up to the limit or written to a stream as it comes
/// (dropped for a redirect that will be followed), then the outcome, once.
final class KeepAliveHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    /// A response with a `Content-Encoding`, to NIO's decompressor.
    typealias InboundOut = HTTPClientResponsePart
    typealias OutboundOut = ByteBuffer

    /// The kept connection was closed before any of the response came: it may be sent again.
    struct ClosedBeforeAnswer: Error {}

    struct Outcome: Sendable {
        var head: KeepAliveHead?
        var body = ByteBuffer()
        var follows = false
        var keepAlive = false
        var bytes: Int64 = 0
        var expected: Int64?
        var error: (any Error)?
    }

    private var waiting: UnsafeContinuation<Outcome, Error>?
    /// This handler's context while it is in the pipeline: a request written from it goes straight
    /// to the socket. Held strongly and let go in `handlerRemoved` (NIO removes every handler when
    /// the channel closes): a weak reference gave the context a side table, and every retain and
    /// release of it (NIO's own, each read and write) took the runtime's slow path.
    private var writer: ChannelHandlerContext?
    private var parser = KeepAliveResponseParser()
    /// The response coming has a `Content-Encoding`: its parts go on through NIO's response
    /// decompressor (next in the pipeline) and come back inflated to `received` (`KeepAliveInflated`).
    private var inflating = false
    /// The decompressor and `KeepAliveInflated` are in the pipeline: added at the connection's first
    /// encoded response, not when it opens (each handler type's first use in a process costs the
    /// Swift runtime two scans of every protocol conformance in the binary: a one-off call's plain
    /// response need not pay for them).
    private var canInflate = false
    /// Bytes came after the response's end in the same read: the connection is not kept.
    private var leftover = false
    /// Its loop's pending flushes (`LoopFlushes`).
    var flushes: LoopFlushes?
    private var limit: Int64 = 0
    private var stream: Stream?
    private var follows: (@Sendable (KeepAliveHead) -> Bool)?
    private var outcome = Outcome()

    /// Where the body goes as it comes (stdout), instead of being held: each part is written on the
    /// loop before the next is read (the loop waits for the write: flat memory; a slow reader holds
    /// this loop, which is why only a task that sends one exchange at a time on it streams here).
    /// A class, told what to do rather than handed closures: made once a request, where the two
    /// closures over the transfer were two allocations, and each copy of the struct three retains.
    final class Stream: Sendable {
        let sink: any BodySink
        private let transfer: Transfer

        init(_ sink: any BodySink, transfer: Transfer) {
            self.sink = sink
            self.transfer = transfer
        }

        /// The final response's head, before any of its body (as `ResponseCollector` tells it: the
        /// head with no body, after the progress at 0 bytes).
        func head(_ head: KeepAliveHead) {
            transfer.progress(TransferProgress(.download, bytes: 0, total: head.length))
            transfer.head(Response(status: head.status, headers: head.fields, body: Data(),
                                   duration: 0, httpVersion: ResponseCollector.version(head.version)))
        }

        /// Body bytes written so far and the length the head announced.
        func progress(_ bytes: Int64, _ total: Int64?) {
            transfer.progress(TransferProgress(.download, bytes: bytes, total: total))
        }
    }

    func start(_ waiting: UnsafeContinuation<Outcome, Error>, limit: Int64, stream: Stream?,
               follows: @escaping @Sendable (KeepAliveHead) -> Bool) {
        self.waiting = waiting
        self.limit = limit
        self.stream = stream
        self.follows = follows
        outcome = Outcome()
        leftover = false
        inflating = false
    }

    /// Writes `request` (on the loop, after `start`, on a connection that was open then). A write
    /// that fails closes the connection, and its close ends the exchange (`channelInactive`, or
    /// `errorCaught` first): no promise is made to hear of it (a future, its callback and the
    /// runtime's look-ups of their generic types, every request).
    func send(_ request: KeepAliveRequest) {
        guard let writer else { return fail(ClosedBeforeAnswer()) }
        parser.expect(bodiless: request.bodiless)
        writer.write(wrapOutboundOut(request.bytes), promise: nil)
        if let flushes { flushes.add(writer.channel) } else { writer.flush() }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        writer = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        writer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard waiting != nil, !parser.ended else {
            // Bytes nobody asked for (after a response, on an idle connection): never kept.
            return context.close(promise: nil)
        }
        let buffer = unwrapInboundIn(data)
        do {
            try parser.parse(buffer) { event in try self.event(event, context: context) }
        } catch is Stop {
        } catch {
            errorCaught(context: context, error: error)
        }
    }

    /// An exchange ended while its bytes were being parsed.
    private struct Stop: Error {}

    private func event(_ event: KeepAliveResponseParser.Event, context: ChannelHandlerContext) throws {
        switch event {
        case .head(let head, let keepAlive, let encoded):
            outcome.keepAlive = keepAlive
            if encoded {
                if !canInflate {
                    do {
                        try context.pipeline.syncOperations.addHandlers([
                            NIOHTTPResponseDecompressor(limit: .ratio(ClientPool.inflationRatio)), KeepAliveInflated(self),
                        ], position: .after(self))
                    } catch {
                        fail(error)
                        context.close(promise: nil)
                        throw Stop()
                    }
                    canInflate = true
                }
                inflating = true
                context.fireChannelRead(wrapInboundOut(.head(head.nio)))
            } else {
                began(head)
            }
        case .body(let bytes):
            if inflating { context.fireChannelRead(wrapInboundOut(.body(bytes))) } else { received(.body(bytes), context: context) }
        case .end(let leftover):
            self.leftover = leftover
            if inflating {
                inflating = false
                context.fireChannelRead(wrapInboundOut(.end(nil)))
            } else {
                received(.end(nil), context: context)
            }
            return  // the parser stops after `.end` by itself (no error made and caught every response)
        }
        if waiting == nil { throw Stop() }
    }

    /// A part of the response (inflated, when it was encoded).
    func received(_ part: HTTPClientResponsePart, context: ChannelHandlerContext) {
        guard waiting != nil else { return }
        switch part {
        case .head(let head):
            began(KeepAliveHead(head))
        case .body(var buffer):
            guard outcome.head != nil, !outcome.follows else { return }
            outcome.bytes += Int64(buffer.readableBytes)
            if let stream {
                do {
                    try buffer.withUnsafeReadableBytes { raw in try stream.sink.write(raw) }
                } catch {
                    fail(error)
                    context.close(promise: nil)
                    return
                }
                return stream.progress(outcome.bytes, outcome.expected)
            }
            guard outcome.bytes <= limit else {
                fail(ResponseCollector.BodyTooLarge(limit: limit))
                context.close(promise: nil)
                return
            }
            // A body that came in one read is that read's bytes (a slice, not a copy).
            if outcome.body.capacity == 0 { outcome.body = buffer } else { outcome.body.writeBuffer(&buffer) }
        case .end:
            guard outcome.head != nil else { return }
            if leftover { outcome.keepAlive = false }
            finish()
        }
    }

    /// The final head.
    private func began(_ head: KeepAliveHead) {
        guard waiting != nil else { return }
        outcome.head = head
        outcome.follows = follows?(head) ?? false
        outcome.expected = head.length
        if !outcome.follows, let stream { stream.head(head) }
    }

    /// The connection failed (a reset, a request that could not be written): the exchange ends, as a
    /// drop when nothing of the answer came (a kept connection the server closed: sent again once).
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A reset before any answer is the same as a close (a kept connection the server dropped).
        let reset = (error as? IOError).map { $0.errnoCode == ECONNRESET || $0.errnoCode == EPIPE } ?? false
        fail(reset && outcome.head == nil && outcome.bytes == 0 ? ClosedBeforeAnswer() : error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if waiting != nil {
            switch parser.closed() {
            case .ended:
                // The body ran until the close (no length given): it is whole.
                if inflating {
                    inflating = false
                    context.fireChannelRead(wrapInboundOut(.end(nil)))
                } else {
                    received(.end(nil), context: context)
                }
                if waiting != nil { fail(HTTPParserError.invalidEOFState) }
            case .unanswered:
                fail(ClosedBeforeAnswer())
            case .truncated:
                fail(HTTPParserError.invalidEOFState)
            }
        }
        context.fireChannelInactive()
    }

    private func finish() {
        let waiting = self.waiting
        self.waiting = nil
        follows = nil
        stream = nil
        let done = outcome
        outcome = Outcome()
        waiting?.resume(returning: done)
    }

    private func fail(_ error: any Error) {
        outcome.error = error
        finish()
    }
}

/// The requests written on one loop's connections in one turn of the loop, flushed together when
/// the turn's other tasks have run: when the responses to many users come in at once, each user
/// writes its next request and the writes reach the server in one burst, so it wakes once for
/// them, not once per request (a wake-up of nginx's worker was a tenth of a load run's CPU).
/// Used only on its loop.
final class LoopFlushes: @unchecked Sendable {
    private let loop: any EventLoop
    private var pending: [any Channel] = []
    private var scheduled = false

    package init(_ loop: any EventLoop) {
        self.loop = loop
    }

    /// Flushes `channel` once the tasks queued on the loop so far have run.
    func add(_ channel: any Channel) {
        loop.assertInEventLoop()
        pending.append(channel)
        guard !scheduled else { return }
        scheduled = true
        loop.execute { self.flush() }
    }

    private func flush() {
        let channels = pending
        pending.removeAll(keepingCapacity: true)
        scheduled = false
        for channel in channels { channel.flush() }
    }
}
