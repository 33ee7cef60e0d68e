import APISupport
import NIOCore
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response's head as `KeepAliveResponseParser` read it: its fields sorted by name (as
/// `NIOConnector.fields` sorts every connection's), made once for the response the engine returns.
struct KeepAliveHead: Sendable {
    var status: Int
    var version: HTTPVersion
    var fields: [HeaderField]
    /// Its `Content-Length`.
    var length: Int64?

    /// NIO's form, for its response decompressor.
    var nio: HTTPResponseHead {
        HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status),
                         headers: HTTPHeaders(fields.map { ($0.name, $0.value) }))
    }

    init(status: Int, version: HTTPVersion, fields: [HeaderField], length: Int64?) {
        (self.status, self.version, self.fields, self.length) = (status, version, fields, length)
    }

    /// From NIO's form (a head the decompressor passed back).
    init(_ head: HTTPResponseHead) {
        self.init(status: Int(head.status.code), version: head.version, fields: NIOConnector.fields(head.headers),
                  length: head.headers.first(name: "Content-Length").flatMap { Int64($0) })
    }
}

/// An HTTP/1.1 response read straight from a connection's bytes, for `KeepAliveHandler` (in place of
/// NIO's `ByteToMessageHandler(HTTPResponseDecoder)`: one handler in the pipeline, not three). The
/// bytes may come split anywhere; each read is parsed as far as it goes, an unfinished line kept
/// (bounded) until the rest comes. What it accepts is what NIO's decoder (llhttp) accepts, or
/// less, and a refusal is an `HTTPParserError` of the case NIO's gives for the same bytes (so the
/// words a user reads are the same), but for `Content-Length` with `Transfer-Encoding`, which NIO
/// reports by the order they come, and what only this parser refuses:
/// - the status line `HTTP/1.x NNN reason` (`invalidConstant`, `invalidVersion`, `invalidStatus`);
/// - header fields: a token, `:`, a value of visible characters, spaces and tabs (else
///   `invalidHeaderToken`, obs-fold too; a bare LF: `unknown`, a bare CR: `lfExpected`, as NIO's decoder
///   reports them); a head (or the
///   trailers) over `headLimit` bytes or `fieldLimit` fields: `headerOverflow`;
/// - `Content-Length`: digits only, at most once, never with `Transfer-Encoding` (a response
///   smuggling another: `invalidContentLength`, `unexpectedContentLength`);
/// - chunked bodies: hex sizes range-checked (`invalidChunkSize`), extensions skipped, trailers
///   checked as fields and dropped;
/// - no body after HEAD and CONNECT requests, nor in 1xx, 204 and 304 responses; otherwise the
///   body runs until the connection closes when neither length nor chunking is given;
/// - 1xx interim responses (100, 103) are skipped, at most `interimLimit` of them; 101 is the
///   final response, bodiless (and the connection is not kept: it no longer speaks HTTP/1.1).
struct KeepAliveResponseParser {
    enum Event {
        /// The final response's head; `keepAlive`: the connection may carry another exchange after
        /// it; `encoded`: it has a `Content-Encoding`.
        case head(KeepAliveHead, keepAlive: Bool, encoded: Bool)
        case body(ByteBuffer)
        /// The response ended; `leftover`: bytes followed it in the same read (nothing was asked for
        /// them: the connection must not be kept).
        case end(leftover: Bool)
    }

    /// More than `interimLimit` interim (1xx) responses before the final one.
    struct TooManyInterimResponses: Error, CustomStringConvertible {
        var description: String { "more than \(KeepAliveResponseParser.interimLimit) interim (1xx) responses" }
    }

    /// NIO's decoder's limits: 80 KiB of head (status line and fields), and as much of trailers.
    static let headLimit = 80 * 1024
    /// Fields in a head (NIO allows 65,534; 80 KiB of head holds at most ~16,000 anyway).
    static let fieldLimit = 1000
    static let interimLimit = 16
    /// A chunk-size line with its extensions.
    static let chunkLineLimit = 4096

    private enum State {
        case statusLine
        case fields
        case fixed(Int64)
        case chunkSize
        case chunkData(Int64)
        case chunkDataEnd
        case trailers
        case untilClose
        case done
    }

    private var state = State.statusLine
    /// The bytes of a line not yet ended by its LF (a line split across reads).
    private var partial: [UInt8] = []
    /// Head (or trailer) bytes so far, for `headLimit`.
    private var headBytes = 0
    private var interims = 0
    /// The request was HEAD or CONNECT: whatever the head says, no body follows.
    private var bodiless = false
    /// Some byte of the response (an interim one included) has come.
    private(set) var started = false

    // The head being read.
    private var version = HTTPVersion.http1_1
    private var status = 0
    /// In the order they came.
    private var fields: [HeaderField] = []
    /// `fields`' names' first 16 bytes, lowered, as two big-endian numbers: compared before the names.
    private var keys: [(UInt64, UInt64)] = []
    private var contentLength: Int64?
    /// The fields of the heads read before on this connection, by their place in the head (the
    /// first `seenLimit`), with the bytes of the line each was read from: a line that is the same
    /// bytes as the one at its place before is that field again, its checks passed and its strings
    /// made (a server's heads repeat but for a date: nginx's five fields were ten strings made,
    /// three of them allocated, every response).
    private var seen: [Seen] = []
    private struct Seen {
        var line: [UInt8]
        var field: HeaderField
        var key: (UInt64, UInt64)
        /// Where the name ends and the value (without the spaces around it) begins and ends.
        var colon: Int, start: Int, end: Int
    }
    static let seenLimit = 32
    /// The longest line remembered: a connection holds at most `seenLimit` of them (8 KiB), whatever
    /// heads a server sends (a long line at each place would otherwise be 32 × the head limit).
    static let seenLineLimit = 256
    private var transferEncoding = false
    private var chunked = false
    private var close = false
    private var keepAliveAsked = false
    private var encoded = false

    /// Ready for the response to a new request (`bodiless`: HEAD or CONNECT).
    mutating func expect(bodiless: Bool) {
        newHead()
        interims = 0
        started = false
        self.bodiless = bodiless
    }

    /// Ready for a head (a new response's, or the one after an interim answer); the buffers keep their room.
    private mutating func newHead() {
        state = .statusLine
        partial.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        headBytes = 0
        version = .http1_1
        status = 0
        fields = []
        contentLength = nil
        transferEncoding = false
        chunked = false
        close = false
        keepAliveAsked = false
        encoded = false
    }

    /// Whether the response is done (`end` was emitted).
    var ended: Bool {
        if case .done = state { return true }
        return false
    }

    /// The connection closed: `.end` when the body ran until the close, else whether the response had begun.
    enum Closed { case ended, unanswered, truncated }
    func closed() -> Closed {
        switch state {
        case .untilClose: .ended
        case .done: .ended
        default: started ? .truncated : .unanswered
        }
    }

    /// Parses `buffer` as far as it goes, handing the events to `emit`; stops after `.end`.
    mutating func parse(_ buffer: ByteBuffer, _ emit: (Event) throws -> Void) throws {
        guard buffer.readableBytes > 0 else { return }
        started = true
        try buffer.withUnsafeReadableBytes { raw in
            var at = 0
            while at < raw.count {
                switch state {
                case .statusLine, .fields, .trailers, .chunkSize, .chunkDataEnd:
                    let limit: Int
                    switch state {
                    case .chunkSize: limit = Self.chunkLineLimit
                    case .chunkDataEnd: limit = 2
                    default: limit = Self.headLimit - headBytes
                    }
                    guard let lf = Self.lineFeed(in: raw, from: at) else {
                        guard partial.count + (raw.count - at) <= limit else { throw overflow() }
                        partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[at...]))
                        return
                    }
                    let length = partial.count + (lf + 1 - at)
                    guard length <= limit else { throw overflow() }
                    switch state {  // chunk-size lines do not count toward the head
                    case .statusLine, .fields, .trailers: headBytes += length
                    default: break
                    }
                    if partial.isEmpty {
                        try line(UnsafeRawBufferPointer(rebasing: raw[at..<lf]), emit)
                    } else {
                        partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[at..<lf]))
                        let whole = partial
                        partial.removeAll(keepingCapacity: true)
                        try whole.withUnsafeBytes { try line($0, emit) }
                    }
                    at = lf + 1
                case .fixed(let left):
                    let n = Int(min(Int64(raw.count - at), left))
                    try emit(.body(buffer.getSlice(at: buffer.readerIndex + at, length: n)!))
                    at += n
                    if left == Int64(n) {
                        state = .done
                        return try emit(.end(leftover: at < raw.count))
                    }
                    state = .fixed(left - Int64(n))
                case .chunkData(let left):
                    let n = Int(min(Int64(raw.count - at), left))
                    try emit(.body(buffer.getSlice(at: buffer.readerIndex + at, length: n)!))
                    at += n
                    state = left == Int64(n) ? .chunkDataEnd : .chunkData(left - Int64(n))
                case .untilClose:
                    try emit(.body(buffer.getSlice(at: buffer.readerIndex + at, length: raw.count - at)!))
                    return
                case .done:
                    return
                }
                if case .done = state { return try emit(.end(leftover: at < raw.count)) }
            }
        }
    }

    private func overflow() -> HTTPParserError {
        switch state {
        case .chunkSize: .invalidChunkSize
        case .chunkDataEnd: .strictModeAssertion
        default: .headerOverflow
        }
    }

    /// The index of the next LF at or after `from` (`line` checks the CR before it).
    private static func lineFeed(in raw: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard from < raw.count, let base = raw.baseAddress,
              let found = memchr(base + from, 0x0A, raw.count - from) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// One line, its LF (and the bytes before it in earlier reads) included in `line`'s end but not
    /// in `line`: the CR must end it.
    private mutating func line(_ withCR: UnsafeRawBufferPointer, _ emit: (Event) throws -> Void) throws {
        // A bare LF: what NIO's decoder reports it as (llhttp's "CR expected" has no case of its own).
        guard let last = withCR.last, last == 0x0D else { throw HTTPParserError.unknown }
        let line = UnsafeRawBufferPointer(rebasing: withCR.dropLast())
        switch state {
        case .statusLine:
            try statusLine(line)
            state = .fields
        case .fields:
            if line.isEmpty { return try headEnded(emit) }
            try field(line, trailer: false)
        case .trailers:
            if line.isEmpty {
                state = .done
                return
            }
            try field(line, trailer: true)
        case .chunkSize:
            // Hex digits (no sign) worth at most what fits an `Int64`, then `;` extensions, which are
            // ignored (whitespace before the `;` is refused, as NIO's decoder does).
            guard let size = HTTP1Syntax.chunkSize(line, limit: UInt64(Int64.max)).map(Int64.init) else { throw HTTPParserError.invalidChunkSize }
            state = size == 0 ? .trailers : .chunkData(size)
            if size == 0 { headBytes = 0 }
        case .chunkDataEnd:
            guard line.isEmpty else { throw HTTPParserError.strictModeAssertion }  // as NIO's decoder says it
            state = .chunkSize
        default:
            break
        }
    }

    private mutating func statusLine(_ line: UnsafeRawBufferPointer) throws {
        // "HTTP/1.1 200 OK", "HTTP/1.1 200 " or "HTTP/1.1 200"
        let prefix: StaticString = "HTTP/"
        guard line.count >= 5, memcmp(line.baseAddress!, prefix.utf8Start, 5) == 0 else { throw HTTPParserError.invalidConstant }
        guard line.count >= 8, line[6] == UInt8(ascii: "."), line[5] == UInt8(ascii: "1"),
              line[7] == UInt8(ascii: "0") || line[7] == UInt8(ascii: "1") else { throw HTTPParserError.invalidVersion }
        version = line[7] == UInt8(ascii: "1") ? .http1_1 : .http1_0
        guard line.count >= 12, line[8] == UInt8(ascii: " ") else { throw HTTPParserError.invalidStatus }
        var code = 0
        for i in 9..<12 {
            let d = line[i] &- UInt8(ascii: "0")
            guard d < 10 else { throw HTTPParserError.invalidStatus }
            code = code * 10 + Int(d)
        }
        guard code >= 100 else { throw HTTPParserError.invalidStatus }
        if line.count > 12 {
            guard line[12] == UInt8(ascii: " ") else { throw HTTPParserError.invalidStatus }
            for byte in line[13...] where !HTTP1Syntax.isFieldByte(byte) { throw HTTPParserError.invalidStatus }
        }
        status = code
    }

    private mutating func field(_ line: UnsafeRawBufferPointer, trailer: Bool) throws {
        let p = line.baseAddress!, count = line.count
        let place = fields.count
        if !trailer, place < seen.count {
            // Looked at in place (a copy of the entry retained its line and strings, and released them).
            let known = seen.withUnsafeBufferPointer { all -> (HeaderField, (UInt64, UInt64), Int, Int, Int)? in
                let entry = all.baseAddress! + place
                guard entry.pointee.line.count == count,
                      entry.pointee.line.withUnsafeBytes({ memcmp($0.baseAddress!, p, count) }) == 0 else { return nil }
                return (entry.pointee.field, entry.pointee.key, entry.pointee.colon, entry.pointee.start, entry.pointee.end)
            }
            if let (field, key, colon, start, end) = known {
                try effect(name: UnsafeRawBufferPointer(start: p, count: colon),
                           value: UnsafeRawBufferPointer(start: p + start, count: end - start))
                if fields.isEmpty { fields.reserveCapacity(16) }
                fields.append(field)
                keys.append(key)
                return
            }
        }
        // The name: token bytes up to the colon (a line starting with a space or tab, obs-fold,
        // RFC 9112 §5.2, or a space before the colon: refused). Bytes through a pointer, each once.
        var colon = 0
        while colon < count, p.load(fromByteOffset: colon, as: UInt8.self) != UInt8(ascii: ":") {
            guard HTTP1Syntax.isTokenByte(p.load(fromByteOffset: colon, as: UInt8.self)) else { throw HTTPParserError.invalidHeaderToken }
            colon += 1
        }
        guard colon > 0, colon < count else { throw HTTPParserError.invalidHeaderToken }
        var start = colon + 1, end = count
        while start < end, Self.space(p.load(fromByteOffset: start, as: UInt8.self)) { start += 1 }
        while end > start, Self.space(p.load(fromByteOffset: end - 1, as: UInt8.self)) { end -= 1 }
        for i in start..<end where !HTTP1Syntax.isFieldByte(p.load(fromByteOffset: i, as: UInt8.self)) {
            // A CR not ending the line: what NIO's decoder says of it.
            throw p.load(fromByteOffset: i, as: UInt8.self) == 0x0D ? HTTPParserError.lfExpected : HTTPParserError.invalidHeaderToken
        }
        if trailer { return }  // read and dropped
        guard fields.count < Self.fieldLimit else { throw HTTPParserError.headerOverflow }
        let name = UnsafeRawBufferPointer(start: p, count: colon)
        let value = UnsafeRawBufferPointer(start: p + start, count: end - start)
        try effect(name: name, value: value)
        if fields.isEmpty { fields.reserveCapacity(16) }
        let field = HeaderField(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
        let key = Self.key(name)
        fields.append(field)
        keys.append(key)
        if place < Self.seenLimit, count <= Self.seenLineLimit {
            let known = Seen(line: Array(line), field: field, key: key, colon: colon, start: start, end: end)
            if place < seen.count { seen[place] = known } else if place == seen.count { seen.append(known) }
        } else if place < seen.count {
            seen[place].line.removeAll()  // not this place's line any more: never matched, its room freed
        }
    }

    /// What a field of the head says of the response's framing and connection.
    private mutating func effect(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) throws {
        switch name.count {
        case 14 where HTTP1Syntax.equalsLowercased(name, "content-length"):
            guard contentLength == nil else { throw HTTPParserError.unexpectedContentLength }
            guard let length = HTTP1Syntax.decimal(value, limit: UInt64(Int64.max)) else { throw HTTPParserError.invalidContentLength }
            contentLength = Int64(length)
        case 17 where HTTP1Syntax.equalsLowercased(name, "transfer-encoding"):
            transferEncoding = true
            // The last coding decides: chunked only when it is last (else the body runs until the close).
            var last = false
            Self.tokens(value) { last = HTTP1Syntax.equalsLowercased($0, "chunked") }
            chunked = last
        case 10 where HTTP1Syntax.equalsLowercased(name, "connection"):
            Self.tokens(value) { token in
                if HTTP1Syntax.equalsLowercased(token, "close") { close = true } else if HTTP1Syntax.equalsLowercased(token, "keep-alive") { keepAliveAsked = true }
            }
        case 16 where HTTP1Syntax.equalsLowercased(name, "content-encoding"):
            encoded = true
        default:
            break
        }
    }

    /// Puts the fields in order: by name as `HeaderField.nameOrder` sorts them (the order
    /// `NIOConnector.fields` gives every connection's response), repeated names in the order they
    /// came (a stable insertion sort, `keys` compared first: at most `fieldLimit` fields). In place,
    /// by swaps (moves): the fields are not copied (a copy retained each field's strings, and the
    /// head's array dropped them again: 10 retains and as many releases for nginx's five fields).
    private mutating func sortFields() {
        let n = fields.count
        guard n > 1 else { return }
        fields.withUnsafeMutableBufferPointer { fields in
            keys.withUnsafeMutableBufferPointer { keys in
                for i in 1..<n {
                    var at = i
                    while at > 0 {
                        let (key, before) = (keys[at], keys[at - 1])
                        guard before.0 != key.0 ? key.0 < before.0 : before.1 != key.1 ? key.1 < before.1
                            : HeaderField.nameOrder(fields[at].name, fields[at - 1].name) else { break }
                        fields.swapAt(at, at - 1)
                        keys.swapAt(at, at - 1)
                        at -= 1
                    }
                }
            }
        }
    }

    /// A name's first 16 bytes, ASCII letters lowered, as two big-endian numbers (zeros after a
    /// shorter name, which sorts first): names that differ there compare as these numbers do.
    private static func key(_ name: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: name.prefix(16))) }
        return (lowered(UInt64(bigEndian: words.0)), lowered(UInt64(bigEndian: words.1)))
    }

    /// `word`'s bytes (ASCII: a name's token bytes) with A-Z lowered, all eight at once.
    @inline(__always)
    private static func lowered(_ word: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        let atLeastA = word &+ 0x3F3F_3F3F_3F3F_3F3F  // the high bit set where a byte is >= "A" (0x41)
        let aboveZ = word &+ 0x2525_2525_2525_2525  // ... where a byte is > "Z" (0x5A)
        return word | ((atLeastA & ~aboveZ & high) >> 2)
    }

    /// Each comma-separated element of a field's value, without the spaces around it (empty ones too).
    private static func tokens(_ value: UnsafeRawBufferPointer, _ each: (UnsafeRawBufferPointer) -> Void) {
        guard let p = value.baseAddress else { return each(value) }
        var from = 0
        while true {
            var to = from
            while to < value.count, p.load(fromByteOffset: to, as: UInt8.self) != UInt8(ascii: ",") { to += 1 }
            var a = from, b = to
            while a < b, space(p.load(fromByteOffset: a, as: UInt8.self)) { a += 1 }
            while b > a, space(p.load(fromByteOffset: b - 1, as: UInt8.self)) { b -= 1 }
            each(UnsafeRawBufferPointer(start: p + a, count: b - a))
            guard to < value.count else { return }
            from = to + 1
        }
    }

    @inline(__always)
    private static func space(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private mutating func headEnded(_ emit: (Event) throws -> Void) throws {
        if status < 200 && status != 101 {
            // An interim answer (100 Continue, 103 Early Hints): skipped, the final head follows.
            interims += 1
            guard interims <= Self.interimLimit else { throw TooManyInterimResponses() }
            newHead()
            return
        }
        if transferEncoding && contentLength != nil { throw HTTPParserError.unexpectedContentLength }
        var keepAlive = version == .http1_1 ? !close : keepAliveAsked && !close
        sortFields()
        let head = KeepAliveHead(status: status, version: version, fields: fields, length: contentLength)
        fields = []
        if bodiless || status == 204 || status == 304 || status == 101 {
            if status == 101 { keepAlive = false }
            state = .done
        } else if chunked {
            state = .chunkSize
            headBytes = 0
        } else if let length = contentLength, !transferEncoding {
            state = length == 0 ? .done : .fixed(length)
        } else {
            state = .untilClose
            keepAlive = false
        }
        try emit(.head(head, keepAlive: keepAlive, encoded: encoded))
    }
}
