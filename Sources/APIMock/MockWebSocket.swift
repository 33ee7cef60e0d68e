import APISupport
import APITargets
import APITransport
import APIVerdict
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// `apicli mock` serving a `messages:` sample as a WebSocket: a GET with `Upgrade: websocket` to
/// a route whose sample has messages is upgraded (RFC 6455); each message goes out as a text
/// frame after its delay, then the server closes with 1000. Pings are answered; a client's close
/// ends it at once. Other upgrade requests are answered as plain HTTP.
extension MockTable {
    /// The messages (text, seconds before it) for a WebSocket request to `uri`, with the log names.
    package func webSocket(uri: String) -> (messages: [(delay: Double, text: String)], target: String, sample: String)? {
        let (path, query) = Self.split(uri)
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let chosen = Self.queryValue(Self.sampleParameter, in: query)
        for entry in entries where entry.route.method == "GET" {
            guard let captures = entry.route.match(parts) else { continue }
            let target = entry.route.target
            let pick = chosen.flatMap { name in target.samples.first { $0.name == name }.map { ($0.name as String?, $0.sample) } }
                ?? target.sample.map { (nil, $0) }
            guard let (name, sample) = pick, let messages = sample.messages else { return nil }
            let stub = workspace.stub(sample, of: target, in: entry.route.service, bindings: entry.bindings, captures: captures)
            var out: [(delay: Double, text: String)] = []
            for m in messages {
                guard let text = try? stub.messageText(m) else { return nil }
                out.append((m.delay, text))
            }
            return (out, target.qualifiedName, name ?? "sample")
        }
        return nil
    }
}

enum MockWebSocket {
    /// The upgrader `MockConnection` asks: upgrades only requests for a messages sample.
    static func upgrader(table: MockServing, log: (@Sendable (MockServer.Event) -> Void)?) -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 20,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(table.current.table.webSocket(uri: head.uri) != nil ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                guard let answer = table.current.table.webSocket(uri: head.uri) else { return channel.close() }
                let start = DispatchTime.now().uptimeNanoseconds
                // on the channel's loop: the handler is made and added there (it is not Sendable)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(MessagesHandler(messages: answer.messages) {
                        log?(MockServer.Event(method: "GET", uri: head.uri, target: answer.target, sample: answer.sample,
                                              status: 101, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
                    })
                }
            })
    }
}

/// Sends the messages, then closes; answers pings and the client's close.
final class MessagesHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let messages: [(delay: Double, text: String)]
    private let done: @Sendable () -> Void
    private var closing = false
    /// The next message, waiting for the ones before it to drain.
    private var waiting: Int?

    init(messages: [(delay: Double, text: String)], done: @escaping @Sendable () -> Void) {
        (self.messages, self.done) = (messages, done)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        send(0, context: context)
    }

    private func send(_ index: Int, context: ChannelHandlerContext) {
        guard !closing else { return }
        guard index < messages.count else { return close(context: context, code: .normalClosure) }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .nanoseconds(Int64(messages[index].delay * 1e9))) {
            let (handler, context) = bound.value
            guard !handler.closing, context.channel.isActive else { return }
            handler.emit(index, context: context)
        }
    }

    /// Message `index`, once the ones before it have drained (a client that does not read them
    /// would otherwise hold the whole sample in the mock's memory, once per connection).
    private func emit(_ index: Int, context: ChannelHandlerContext) {
        guard context.channel.isWritable else {
            waiting = index
            return
        }
        let data = context.channel.allocator.buffer(string: messages[index].text)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: data)), promise: nil)
        send(index + 1, context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let index = waiting, !closing {
            waiting = nil
            emit(index, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    private func close(context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closing else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let channel = context.channel
        let done = self.done
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))).whenComplete { _ in
            done()
            // the client answers with its close; then (or after a second) the connection goes
            channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            if closing { context.close(promise: nil) } else { close(context: context, code: .normalClosure) }
        default:
            break
        }
    }
}
