import NIOCore
import NIOHTTP1

/// The first handler of a mock connection: one whose answers are not draining (NIO's writability:
/// more than its high watermark, 64 KiB, waiting to go out, the kernel's buffers being full) for
/// `stall` seconds is closed: a client that does not read its answers does not keep its connection
/// (nor, a WebSocket, the rest of its messages) for good. While it is so, the mock does not read it
/// either: an HTTP answer waits for the ones before it to drain (`MockHandler`), and NIO's
/// pipelining handler reads no more while an answer is pending; a WebSocket's next message waits too.
final class MockBackpressure: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let stall: Double
    private var closing: Scheduled<Void>?

    init(stall: Double) {
        self.stall = stall
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            closing?.cancel()
            closing = nil
        } else if closing == nil {
            let channel = context.channel
            closing = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(stall * 1e9))) { channel.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closing?.cancel()
    }
}

/// Between NIO's request decoder and its pipelining handler (which holds a connection's requests
/// until the answer before them is sent): a connection with more than `limit` requests waiting for
/// their answers is closed. Reading stops while an answer is pending, but one read of tiny
/// pipelined requests still decodes into thousands of them. It counts the requests in; the mock's
/// handler counts each answer out as it writes the answer's end (`Waiting.answered`), so the
/// answers' parts do not pass through one more handler.
final class MockPipelineGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    /// Its name in the pipeline (a WebSocket upgrade removes it: it reads HTTP parts only).
    static let name = "apicli-mock-pipelining"

    /// A connection's requests waiting for their answers (on its event loop only).
    final class Waiting {
        fileprivate var count = 0

        /// An answer's end is written.
        func answered() { count = max(count - 1, 0) }
    }

    private let limit: Int
    private let waiting: Waiting
    private var closed = false

    init(limit: Int, waiting: Waiting) {
        self.limit = limit
        self.waiting = waiting
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closed else { return }
        if case .head = unwrapInboundIn(data) {
            waiting.count += 1
            if waiting.count > limit {
                closed = true
                context.close(promise: nil)
                return
            }
        }
        context.fireChannelRead(data)
    }
}
