import NIOCore
import NIOHTTP1

/// The end of a keep-alive connection's pipeline, after NIO's response decompressor: the parts of
/// a response that had a `Content-Encoding` (which `KeepAliveHandler` sent on through the
/// decompressor) come back here inflated, and so do the decompressor's errors (a body over the
/// inflation ratio, corrupt data).
final class KeepAliveInflated: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let handler: KeepAliveHandler

    package init(_ handler: KeepAliveHandler) {
        self.handler = handler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        handler.received(unwrapInboundIn(data), context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        handler.errorCaught(context: context, error: error)
    }
}
