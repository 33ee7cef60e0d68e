import NIOCore

/// The first handler of a mock connection upgraded to a WebSocket: one whose messages are not
/// draining (NIO's writability: more than its high watermark, 64 KiB, waiting to go out, the kernel's
/// buffers being full) for `stall` seconds is closed: a client that does not read them does not keep
/// its connection (nor the rest of its messages) for good; the next message waits for them to drain.
/// (`MockConnection` does the same for HTTP answers.)
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
