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
extension MockConnection {
    /// `done(sent, closes)`: whether the whole stream was sent (false: the channel closed first),
    /// and whether the connection closes after it (HTTP/1.0: the end of the stream is the close).
    static func stream(status: Int, headers: [HeaderField], events: [(delay: Double, bytes: Data)],
                       to request: MockRequest, channel: any Channel, done: @escaping @Sendable (Bool, Bool) -> Void) {
        if let bad = headers.first(where: { !isValidHeaderValue($0.value) }) {
            let text = JSONValue.object([(key: "error", value: .string(
                "the sample's header \(bad.name) holds a control character (CR, LF or another): it cannot be sent"))]).jsonText + "\n"
            if let (bytes, _) = bytes(status: 500, headers: [HeaderField("Content-Type", "application/json")], body: Data(text.utf8),
                                      to: request, close: true) {
                channel.writeAndFlush(bytes).whenComplete { _ in channel.close(promise: nil) }
            }
            done(true, true)
            return
        }
        // as NIO's validator did: a field that cannot be sent closes the connection, nothing written
        guard headers.allSatisfy(isSendable) else {
            channel.close(promise: nil)
            return done(false, true)
        }
        var fields: [(name: String, value: String)] = []
        for h in headers {
            let name = h.name.lowercased()
            if name == "content-length" || name == "transfer-encoding" || name == "connection" { continue }
            fields.append((h.name, h.value))
        }
        if !fields.contains(where: { $0.name.lowercased() == "cache-control" }) { fields.append(("Cache-Control", "no-cache")) }
        // HTTP/1.0 has no chunks: the end of the stream is the connection's close.
        let chunked = request.minor >= 1
        // the name in lower case, as NIO's encoder wrote it when it framed answers
        if chunked { fields.append(("transfer-encoding", "chunked")) }
        channel.writeAndFlush(render(status: HTTPResponseStatus(statusCode: status), fields: fields, body: nil, minor: request.minor,
                                     isHEAD: request.isHEAD, isCONNECT: request.isCONNECT, keepAlive: chunked), promise: nil)
        let all = request.isHEAD || request.isCONNECT ? [] : events
        @Sendable func next(_ index: Int) {
            guard channel.isActive else { return done(false, true) }
            guard index < all.count else {
                if !chunked {
                    channel.writeAndFlush(ByteBuffer()).whenComplete { _ in channel.close(promise: nil) }
                } else if !request.isHEAD && !request.isCONNECT {
                    // the last chunk (an answer to HEAD has no body, not even that)
                    channel.writeAndFlush(ByteBuffer(staticString: "0\r\n\r\n"), promise: nil)
                }
                return done(true, !chunked)
            }
            after(all[index].delay, on: channel) {
                guard channel.isActive else { return done(false, true) }
                let event = all[index].bytes
                if !event.isEmpty {
                    var chunk = channel.allocator.buffer(capacity: event.count + 16)
                    if chunked {
                        chunk.writeString(String(event.count, radix: 16))
                        chunk.writeStaticString("\r\n")
                    }
                    chunk.writeBytes(event)
                    if chunked { chunk.writeStaticString("\r\n") }
                    channel.writeAndFlush(chunk, promise: nil)
                }
                next(index + 1)
            }
        }
        next(0)
    }
}
