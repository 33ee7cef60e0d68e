import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1

/// A request as `KeepAlivePool` writes it: its bytes on the wire (head and body, encoded once into
/// one buffer: no `HTTPHeaders`, no trip through NIO's request encoder, header validator and
/// decompressor for every request of a load run), and the head the response decoder is told about
/// (the method decides whether a body follows). The head is what NIO's `HTTPRequestEncoder` writes
/// for the same request with `NIOHTTPRequestHeadersValidator`'s checks (a header name, value,
/// method or target it would refuse fails with the same `HTTPParserError.invalidHeaderToken`); the
/// fields are `PreparedRequest.wireHeaders` (Host, framing, `Accept-Encoding` already decided).
struct KeepAliveRequest {
    var bytes: ByteBuffer
    /// The method only (the response decoder reads nothing else).
    var decoderHead: HTTPRequestHead
    /// No `Connection: close` asked: the connection may be kept after the response.
    var keepAlive: Bool

    /// `fields`: every header in order, as `PreparedRequest.wireHeaders` decided them.
    package init(method: String, uri: String, fields: [HeaderField], body: Data?) throws {
        guard Self.all(method, Self.isToken), !method.isEmpty, Self.all(uri, Self.isTarget) else { throw HTTPParserError.invalidHeaderToken }
        var size = method.utf8.count + uri.utf8.count + 40 + (body?.count ?? 0)
        for field in fields { size += field.name.utf8.count + field.value.utf8.count + 4 }
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        buffer.writeString(method)
        buffer.writeStaticString(" ")
        buffer.writeString(uri)
        buffer.writeStaticString(" HTTP/1.1\r\n")
        var keepAlive = true
        for field in fields {
            guard Self.all(field.name, Self.isToken), !field.name.isEmpty, HeaderField.forbiddenCharacter(in: field.value) == nil
            else { throw HTTPParserError.invalidHeaderToken }
            if field.name.equalsIgnoringCase("Connection"), field.value.lowercased().split(separator: ",").contains(where: {
                $0.trimmingSpaces() == "close"
            }) { keepAlive = false }
            buffer.writeString(field.name)
            buffer.writeStaticString(": ")
            buffer.writeString(field.value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
        if let body, !body.isEmpty { buffer.writeBytes(body) }
        self.bytes = buffer
        self.keepAlive = keepAlive
        decoderHead = Self.head(for: method)
    }

    private static let get = HTTPRequestHead(version: .http1_1, method: .GET, uri: "")
    private static func head(for method: String) -> HTTPRequestHead {
        method == "GET" ? get : HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: "")
    }

    /// Whether every byte of `string` is `allowed`: its UTF-8 bytes in place, not through an
    /// iterator that asks the string's kind on every byte (each field of every request is checked).
    private static func all(_ string: String, _ allowed: (UInt8) -> Bool) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(allowed) } ?? string.utf8.allSatisfy(allowed)
    }

    // A byte of an RFC 9110 token (a header name, a method), as NIO's validator checks it.
    private static func isToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    // A byte of the request target: RFC 3986's characters, as NIO's validator allows them.
    private static func isTarget(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "/"),
             UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "@"), UInt8(ascii: "!"),
             UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
             UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "%"):
            true
        default:
            false
        }
    }
}

/// The outbound end of a keep-alive connection's pipeline (in place of `HTTPRequestEncoder`): the
/// request's head passes the response decoder (which learns the method from it) and arrives here,
/// where the request's encoded bytes (`pending`, set just before) go to the socket.
final class KeepAliveRequestWriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = ByteBuffer

    var pending: ByteBuffer?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head = unwrapOutboundIn(data), let bytes = pending else {
            promise?.succeed()
            return
        }
        pending = nil
        context.write(wrapOutboundOut(bytes), promise: promise)
    }
}
