import APISupport
import APIJSON
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1

/// `apicli mock` serving an `events:` sample: `text/event-stream`, chunked, each event written
/// and flushed after its delay, then the end of the body. A client that goes away stops it.
extension MockHandler {
    /// `done(true)` when the whole stream was sent, `done(false)` when the channel closed first.
    static func stream(status: Int, headers: [HeaderField], events: [(delay: Double, bytes: Data)],
                       to head: HTTPRequestHead, channel: any Channel, waiting: NIOLoopBound<MockPipelineGuard.Waiting>,
                       done: @escaping @Sendable (Bool) -> Void) {
        if let bad = headers.first(where: { !isValidHeaderValue($0.value) }) {
            let text = JSONValue.object([(key: "error", value: .string(
                "the sample's header \(bad.name) holds a control character (CR, LF or another): it cannot be sent"))]).jsonText + "\n"
            write(status: 500, headers: [HeaderField("Content-Type", "application/json")], body: Data(text.utf8),
                  to: head, channel: channel, close: true, waiting: waiting)
            done(true)
            return
        }
        // as NIO's validator did: a field that cannot be sent closes the connection, nothing written
        guard headers.allSatisfy(isSendable) else {
            channel.close(promise: nil)
            return done(false)
        }
        var fields = HTTPHeaders()
        for h in headers {
            let name = h.name.lowercased()
            if name == "content-length" || name == "transfer-encoding" || name == "connection" { continue }
            fields.add(name: h.name, value: h.value)
        }
        if fields["Cache-Control"].isEmpty { fields.add(name: "Cache-Control", value: "no-cache") }
        // HTTP/1.0 has no chunks: the end of the stream is the connection's close.
        let chunked = head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
        // the name in lower case, as NIO's encoder wrote it when it framed answers itself
        if chunked { fields.add(name: "transfer-encoding", value: "chunked") } else { fields.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: status)
        fields = framed(fields, status: status, to: head)
        channel.writeAndFlush(HTTPServerResponsePart.head(HTTPResponseHead(version: head.version, status: status, headers: fields)),
                              promise: nil)
        let sendsBody = head.method != .HEAD
        let all = sendsBody ? events : []
        @Sendable func next(_ index: Int) {
            guard channel.isActive else { return done(false) }
            guard index < all.count else {
                waiting.value.answered()
                let end = channel.writeAndFlush(HTTPServerResponsePart.end(nil))
                if !chunked { end.whenComplete { _ in channel.close(promise: nil) } }
                return done(true)
            }
            after(all[index].delay, on: channel) {
                guard channel.isActive else { return done(false) }
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: all[index].bytes))), promise: nil)
                next(index + 1)
            }
        }
        next(0)
    }
}
