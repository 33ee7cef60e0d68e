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
/// decompressor for every request of a load run), and whether its response has no body whatever
/// its head says (HEAD, CONNECT). The head is what NIO's `HTTPRequestEncoder` writes
/// for the same request with `NIOHTTPRequestHeadersValidator`'s checks (a header name, value,
/// method or target it would refuse fails with the same `HTTPParserError.invalidHeaderToken`); the
/// fields are `PreparedRequest.wireHeaders` (Host, framing, `Accept-Encoding` already decided).
struct KeepAliveRequest {
    var bytes: ByteBuffer
    /// HEAD or CONNECT: the response has no body (`KeepAliveResponseParser` is told).
    var bodiless: Bool
    /// No `Connection: close` asked: the connection may be kept after the response.
    var keepAlive: Bool

    /// `fields`: every header in order, as `PreparedRequest.wireHeaders` decided them.
    package init(method: String, uri: String, fields: [HeaderField], body: Data?) throws {
        try self.init(method: method, uri: uri, block: HeaderBlock(fields), body: body)
    }

    /// `block`: the header fields already encoded and checked (a run's requests mostly share theirs:
    /// `KeepAliveRequestMemo.block` keeps the last one).
    init(method: String, uri: String, block: HeaderBlock, body: Data?) throws {
        let size = method.utf8.count + uri.utf8.count + block.bytes.count + 14  // " ", " HTTP/1.1\r\n", the last "\r\n"
        var buffer = ByteBufferAllocator().buffer(capacity: size + (body?.count ?? 0))
        // The head copied in one write (one ByteBuffer call a piece cost more than the copying), the
        // method and target checked where they landed.
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { (out) throws(HTTPParserError) -> Int in
            var head = HeadWriter(out: out)
            let verb = head.put(method)
            head.put(" ")
            let target = head.put(uri)
            head.put(" HTTP/1.1\r\n")
            guard !verb.isEmpty, verb.allSatisfy({ Self.allowed($0, target: false) }), target.allSatisfy({ Self.allowed($0, target: true) }) else {
                throw .invalidHeaderToken
            }
            block.bytes.withUnsafeBytes { head.put($0) }
            head.put("\r\n")
            return head.at
        }
        if let body, !body.isEmpty { buffer.writeBytes(body) }
        self.bytes = buffer
        self.keepAlive = block.keepAlive
        bodiless = method == "HEAD" || method == "CONNECT"
    }

    /// Header fields on the wire (`Name: value\r\n` each), every name a token and no value holding a
    /// forbidden character (else `HTTPParserError.invalidHeaderToken`), and whether they leave the
    /// connection open (no `Connection: close`).
    struct HeaderBlock {
        let bytes: [UInt8]
        let keepAlive: Bool

        init(_ fields: [HeaderField]) throws {
            var size = 0
            for field in fields { size += field.name.utf8.count + field.value.utf8.count + 4 }
            var keepAlive = true
            bytes = try [UInt8](unsafeUninitializedCapacity: size) { out, count in
                var block = HeadWriter(out: UnsafeMutableRawBufferPointer(out))
                for field in fields {
                    let name = block.put(field.name)
                    block.put(": ")
                    let value = block.put(field.value)
                    block.put("\r\n")
                    count = block.at
                    guard !name.isEmpty, name.allSatisfy({ KeepAliveRequest.allowed($0, target: false) }),
                          HeaderField.forbiddenCharacter(in: value) == nil else {
                        throw HTTPParserError.invalidHeaderToken
                    }
                    if field.name.equalsIgnoringCase("Connection"), field.value.lowercased().split(separator: ",").contains(where: {
                        $0.trimmingSpaces() == "close"
                    }) { keepAlive = false }
                }
            }
            self.keepAlive = keepAlive
        }
    }

    /// Copies a request head's pieces into a buffer of the right size, one after another.
    private struct HeadWriter {
        let out: UnsafeMutableRawBufferPointer
        var at = 0

        /// `string`'s UTF-8 bytes, copied: where they now are.
        @discardableResult
        mutating func put(_ string: String) -> UnsafeRawBufferPointer {
            let into = UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + string.utf8.count)])
            if string.utf8.withContiguousStorageIfAvailable({ into.copyMemory(from: UnsafeRawBufferPointer($0)) }) == nil {
                for (i, byte) in string.utf8.enumerated() { into[i] = byte }  // a string not stored as UTF-8
            }
            at += into.count
            return UnsafeRawBufferPointer(into)
        }

        mutating func put(_ bytes: UnsafeRawBufferPointer) {
            UnsafeMutableRawBufferPointer(rebasing: out[at..<(at + bytes.count)]).copyMemory(from: bytes)
            at += bytes.count
        }

        mutating func put(_ literal: StaticString) {
            put(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
    }

    /// Whether `byte` may stand in an RFC 9110 token (a header name, a method) or, with `target`, in
    /// the request target (RFC 3986's characters), as NIO's validator allows them.
    @inline(__always)
    private static func allowed(_ byte: UInt8, target: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        case UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "|"):
            !target
        case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "@"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            target
        default:
            false
        }
    }
}
