import APISupport
import NIOCore
import NIOHTTP1

/// One request's head as the mock's parser read it: what answering it needs, made without a
/// header list. The head's bytes are kept (a slice of the bytes read, not a copy): its fields are
/// made from them only when asked (`fields`: `mock --validate`, a WebSocket upgrade).
struct MockRequest {
    var method: String
    /// The request target as sent (origin, absolute or asterisk form).
    var uri: String
    /// HTTP/1.`minor` (0 or 1).
    var minor: UInt8
    var keepAlive: Bool
    /// The value of the first `X-Apicli-Sample` field.
    var sample: String?
    /// An `Upgrade` field names `websocket`.
    var upgradesToWebSocket: Bool
    /// The head's field lines (from the first field line to the blank line's end).
    var raw: ByteBuffer

    var isHEAD: Bool { method == "HEAD" }
    var isCONNECT: Bool { method == "CONNECT" }

    /// The fields in the order sent, their values without the whitespace around them.
    var fields: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        raw.withUnsafeReadableBytes { bytes in
            var at = 0
            while let line = MockRequestParser.line(bytes, from: at), line.end > line.start {
                guard let colon = bytes[line.start..<line.end].firstIndex(of: UInt8(ascii: ":")) else { break }
                let value = MockRequestParser.trimmed(bytes, colon + 1, line.end)
                out.append((String(decoding: bytes[line.start..<colon], as: UTF8.self),
                            String(decoding: bytes[value.start..<value.end], as: UTF8.self)))
                at = line.next
            }
        }
        return out
    }

    /// The head as NIO's types hold it (for NIO's WebSocket upgrader).
    var nio: HTTPRequestHead {
        HTTPRequestHead(version: HTTPVersion(major: 1, minor: Int(minor)), method: HTTPMethod(rawValue: method), uri: uri,
                        headers: HTTPHeaders(fields.map { ($0.name, $0.value) }))
    }
}

/// The mock's HTTP/1.1 request parser (RFC 9112), strict as NIO's (llhttp) was for it: a request
/// it refuses is answered 400 and the connection closed. It reads requests from the bytes received
/// so far, one at a time, and consumes a request's bytes only when the request is whole.
///
/// - A head is at most `maxHead` bytes; a longer one is refused.
/// - Line ends are CRLF; a bare LF, a line folded onto the one before (obs-fold) or a field line
///   starting with whitespace is refused. Blank lines before a request line are skipped.
/// - The method is one llhttp knows, the target visible ASCII, the version `HTTP/1.0` or `HTTP/1.1`.
/// - Field names are tokens followed by the colon at once; values hold no control character but tab.
/// - Content-Length is digits and sent once; Transfer-Encoding's last coding is `chunked`, and
///   `chunked` once; both together are refused (request smuggling).
/// - Chunk sizes are hex digits that fit 64 bits, then extensions; the trailer fields are checked
///   as the head's.
/// - A body is kept (`keepBody`) up to `maxBody` bytes and skipped past that; without `keepBody`
///   it is skipped.
struct MockRequestParser {
    static let maxHead = 80 << 10
    /// The longest chunk-size line (size and extensions).
    static let maxChunkLine = 4 << 10

    enum Step {
        /// A whole request: its head and what was kept of its body.
        case request(MockRequest, body: [UInt8])
        /// More bytes are needed.
        case incomplete
        /// The bytes are not a request the mock answers: 400, and the connection is closed.
        case invalid
    }

    private enum Phase {
        case head
        case fixed(remaining: UInt64)
        case chunkSize
        case chunkData(remaining: UInt64)
        case chunkEnd
        case trailers
    }

    private var phase = Phase.head
    /// Bytes of the current head or line already looked at (from the reader index).
    private var scanned = 0
    private var request: MockRequest?
    private var body: [UInt8] = []
    private var trailerBytes = 0

    var keepBody = false
    var maxBody = 8 << 20

    /// Whether part of a request has been read (a head, or some of its bytes beyond blank lines).
    var isMidRequest: Bool {
        if case .head = phase { return scanned > 0 }
        return true
    }

    /// The next request in `buffer` (its bytes consumed), or what stops it.
    mutating func next(_ buffer: inout ByteBuffer) -> Step {
        while true {
            switch phase {
            case .head:
                // one look at the bytes: blank lines before a request line skipped (RFC 9112 §2.2), the
                // head's end found, and the head read when it is whole
                let from = scanned
                let (skipped, found, parsed) = buffer.withUnsafeReadableBytes { all -> (Int, Scan, (MockRequest, Int, Framing)?) in
                    var skip = 0
                    if from == 0 {
                        while skip < all.count, all[skip] == 13 || all[skip] == 10 { skip += 1 }
                    }
                    let bytes = UnsafeRawBufferPointer(rebasing: all[skip...])
                    let found = Self.headEnd(bytes, from: from)
                    guard case .end(let end) = found, end <= Self.maxHead else { return (skip, found, nil) }
                    return (skip, found, Self.parseHead(UnsafeRawBufferPointer(rebasing: bytes[..<end])))
                }
                buffer.moveReaderIndex(forwardBy: skipped)
                switch found {
                case .invalid:
                    return .invalid
                case .more(let upTo):
                    guard upTo <= Self.maxHead else { return .invalid }
                    scanned = upTo
                    return .incomplete
                case .end(let end):
                    guard end <= Self.maxHead, let (head, fieldsStart, framing) = parsed else { return .invalid }
                    scanned = 0
                    var request = head
                    request.raw = buffer.getSlice(at: buffer.readerIndex + fieldsStart, length: end - fieldsStart) ?? ByteBuffer()
                    buffer.moveReaderIndex(forwardBy: end)
                    body = []
                    switch framing {
                    case .none, .length(0):
                        return .request(request, body: [])
                    case .length(let count):
                        self.request = request
                        phase = .fixed(remaining: count)
                    case .chunked:
                        self.request = request
                        phase = .chunkSize
                    }
                }
            case .fixed(let remaining):
                let left = consume(&buffer, upTo: remaining)
                guard left == 0 else {
                    phase = .fixed(remaining: left)
                    return .incomplete
                }
                return finish()
            case .chunkSize:
                guard let end = line(buffer, limit: Self.maxChunkLine) else { return scanned < 0 ? .invalid : .incomplete }
                guard let size = buffer.withUnsafeReadableBytes({ HTTP1Syntax.chunkSize(UnsafeRawBufferPointer(rebasing: $0[..<(end - 2)]), limit: .max) })
                else { return .invalid }
                buffer.moveReaderIndex(forwardBy: end)
                if size == 0 {
                    trailerBytes = 0
                    phase = .trailers
                } else {
                    phase = .chunkData(remaining: size)
                }
            case .chunkData(let remaining):
                let left = consume(&buffer, upTo: remaining)
                guard left == 0 else {
                    phase = .chunkData(remaining: left)
                    return .incomplete
                }
                phase = .chunkEnd
            case .chunkEnd:
                guard buffer.readableBytes >= 2 else {
                    if buffer.readableBytes == 1, buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) != 13 { return .invalid }
                    return .incomplete
                }
                guard buffer.readInteger(as: UInt16.self) == 0x0D0A else { return .invalid }
                phase = .chunkSize
            case .trailers:
                guard let end = line(buffer, limit: Self.maxHead - trailerBytes) else { return scanned < 0 ? .invalid : .incomplete }
                trailerBytes += end
                if end == 2 {
                    buffer.moveReaderIndex(forwardBy: 2)
                    return finish()
                }
                let valid = buffer.withUnsafeReadableBytes { Self.fieldLine(UnsafeRawBufferPointer(rebasing: $0[..<(end - 2)])) != nil }
                guard valid else { return .invalid }
                buffer.moveReaderIndex(forwardBy: end)
            }
        }
    }

    /// Where the line at the reader index ends (after its CRLF), at most `limit` bytes; nil when it
    /// is not whole yet (`scanned`: how far it was looked at) or not a line (`scanned` -1: a bare LF,
    /// or longer than `limit`).
    private mutating func line(_ buffer: ByteBuffer, limit: Int) -> Int? {
        let from = scanned
        switch buffer.withUnsafeReadableBytes({ Self.lineEnd($0, from: from) }) {
        case .invalid:
            scanned = -1
        case .more(let upTo):
            scanned = upTo <= limit ? upTo : -1
        case .end(let end):
            scanned = end <= limit ? 0 : -1
            if end <= limit { return end }
        }
        return nil
    }

    /// Consumes up to `remaining` body bytes (kept when asked); what is left of `remaining`.
    private mutating func consume(_ buffer: inout ByteBuffer, upTo remaining: UInt64) -> UInt64 {
        let count = Int(min(remaining, UInt64(buffer.readableBytes)))
        if keepBody, body.count < maxBody {
            let kept = min(count, maxBody - body.count)
            buffer.withUnsafeReadableBytes { body.append(contentsOf: $0[..<kept]) }
        }
        buffer.moveReaderIndex(forwardBy: count)
        return remaining - UInt64(count)
    }

    private mutating func finish() -> Step {
        phase = .head
        let request = self.request!
        self.request = nil
        let kept = body
        body = []
        return .request(request, body: kept)
    }

    // MARK: Lines

    enum Scan: Equatable {
        /// The line (or head) ends just before `end` (after its CRLF).
        case end(Int)
        /// Not yet whole: looked at up to here.
        case more(Int)
        /// A bare LF.
        case invalid
    }

    /// Where the head that starts at the first byte ends (after its blank line), looking from `from`.
    static func headEnd(_ bytes: UnsafeRawBufferPointer, from: Int) -> Scan {
        var i = from
        let count = bytes.count
        while i < count {
            if bytes[i] == 10 {
                guard i > 0, bytes[i - 1] == 13 else { return .invalid }
                // a blank line: CRLF right after the previous line's LF
                if i >= 2, bytes[i - 2] == 10 { return .end(i + 1) }
            }
            i += 1
        }
        return .more(count)
    }

    /// Where the line that starts at the first byte ends (after its CRLF), looking from `from`.
    static func lineEnd(_ bytes: UnsafeRawBufferPointer, from: Int) -> Scan {
        guard let lf = bytes[from...].firstIndex(of: 10) else { return .more(bytes.count) }
        guard lf > 0, bytes[lf - 1] == 13 else { return .invalid }
        return .end(lf + 1)
    }

    /// The line at `from` in a whole head: its content's bounds and where the next one starts.
    static func line(_ bytes: UnsafeRawBufferPointer, from: Int) -> (start: Int, end: Int, next: Int)? {
        guard from < bytes.count, let lf = bytes[from...].firstIndex(of: 10), lf > from else { return nil }
        return (from, lf - 1, lf + 1)
    }

    static func trimmed(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (start: Int, end: Int) {
        var (s, e) = (start, end)
        while s < e, bytes[s] == 32 || bytes[s] == 9 { s += 1 }
        while e > s, bytes[e - 1] == 32 || bytes[e - 1] == 9 { e -= 1 }
        return (s, e)
    }

    // MARK: The head

    enum Framing: Equatable {
        case none
        case length(UInt64)
        case chunked
    }

    /// The request in a whole head (`bytes`: from the request line to the blank line's end), where
    /// its field lines start and how its body is framed; nil when it is not one the mock answers.
    static func parseHead(_ bytes: UnsafeRawBufferPointer) -> (MockRequest, fieldsStart: Int, Framing)? {
        guard let requestLine = line(bytes, from: 0) else { return nil }
        // method SP+ target SP HTTP/1.x
        var i = 0
        let end = requestLine.end
        while i < end, bytes[i] != 32 { i += 1 }
        guard i > 0, i < end, let method = knownMethod(UnsafeRawBufferPointer(rebasing: bytes[0..<i])) else { return nil }
        while i < end, bytes[i] == 32 { i += 1 }
        let targetStart = i
        while i < end, bytes[i] != 32 {
            guard bytes[i] > 32, bytes[i] < 127 else { return nil }
            i += 1
        }
        let targetEnd = i
        guard targetEnd > targetStart, end - i == 9, bytes[i] == 32 else { return nil }
        // HTTP/1.0 or HTTP/1.1
        let v = i + 1
        guard bytes[v] == UInt8(ascii: "H"), bytes[v + 1] == UInt8(ascii: "T"), bytes[v + 2] == UInt8(ascii: "T"),
              bytes[v + 3] == UInt8(ascii: "P"), bytes[v + 4] == UInt8(ascii: "/"), bytes[v + 5] == UInt8(ascii: "1"),
              bytes[v + 6] == UInt8(ascii: "."), bytes[v + 7] == UInt8(ascii: "0") || bytes[v + 7] == UInt8(ascii: "1")
        else { return nil }
        let minor = bytes[v + 7] - UInt8(ascii: "0")

        var request = MockRequest(method: method, uri: String(decoding: bytes[targetStart..<targetEnd], as: UTF8.self), minor: minor,
                                  keepAlive: minor >= 1, sample: nil, upgradesToWebSocket: false, raw: ByteBuffer())
        var length: UInt64?
        var codings = Codings.none
        var close = false, keepAlive = false, keepAlives = 0
        var at = requestLine.next
        let fieldsStart = at
        while let l = line(bytes, from: at) {
            if l.end == l.start { break }  // the blank line
            guard let (nameEnd, value) = fieldLine(UnsafeRawBufferPointer(rebasing: bytes[l.start..<l.end])) else { return nil }
            let name = UnsafeRawBufferPointer(rebasing: bytes[l.start..<(l.start + nameEnd)])
            let v = UnsafeRawBufferPointer(rebasing: bytes[(l.start + value.start)..<(l.start + value.end)])
            switch name.count {
            case 14 where HTTP1Syntax.equalsLowercased(name, "content-length"):
                guard length == nil, let n = HTTP1Syntax.decimal(v, limit: .max) else { return nil }
                length = n
            case 17 where HTTP1Syntax.equalsLowercased(name, "transfer-encoding"):
                guard codings.add(v) else { return nil }
            case 10 where HTTP1Syntax.equalsLowercased(name, "connection"):
                forEachToken(v) { token in
                    if HTTP1Syntax.equalsLowercased(token, "close") {
                        close = true
                    } else if HTTP1Syntax.equalsLowercased(token, "keep-alive") {
                        keepAlive = true
                        keepAlives += 1
                    }
                }
            case 7 where HTTP1Syntax.equalsLowercased(name, "upgrade"):
                forEachToken(v) { token in
                    if HTTP1Syntax.equalsLowercased(token, "websocket") { request.upgradesToWebSocket = true }
                }
            case 15 where HTTP1Syntax.equalsLowercased(name, "x-apicli-sample"):
                if request.sample == nil { request.sample = String(decoding: v, as: UTF8.self) }
            default:
                break
            }
            at = l.next
        }
        // as NIO's HTTPHeaders judged it: `close` (or `keep-alive` twice) closes; `keep-alive` keeps
        // an HTTP/1.0 connection; else HTTP/1.1 keeps it
        if close || keepAlives > 1 {
            request.keepAlive = false
        } else if keepAlive {
            request.keepAlive = true
        }
        let framing: Framing
        switch (length, codings) {
        case (nil, .none): framing = .none
        case (let n?, .none): framing = .length(n)
        case (nil, .chunked): framing = .chunked
        default: return nil  // both, or a coding list that does not end in chunked
        }
        return (request, fieldsStart, framing)
    }

    /// Transfer-Encoding's codings so far.
    enum Codings {
        case none
        /// The last one is chunked.
        case chunked
        /// Some, the last not chunked (chunked not among them).
        case other

        /// Adds a field's list; false when it is refused (chunked twice, or a coding after chunked).
        mutating func add(_ value: UnsafeRawBufferPointer) -> Bool {
            var ok = true
            forEachToken(value) { token in
                switch self {
                case .chunked: ok = false
                case .none, .other: self = HTTP1Syntax.equalsLowercased(token, "chunked") ? .chunked : .other
                }
            }
            return ok
        }
    }

    /// A field line (without its CRLF): where the name ends (the colon) and the value's bounds
    /// without whitespace around it; nil when it is not a valid one.
    static func fieldLine(_ bytes: UnsafeRawBufferPointer) -> (nameEnd: Int, value: (start: Int, end: Int))? {
        var i = 0
        let count = bytes.count
        while i < count, HTTP1Syntax.isTokenByte(bytes[i]) { i += 1 }
        guard i > 0, i < count, bytes[i] == UInt8(ascii: ":") else { return nil }
        for j in (i + 1)..<count where !HTTP1Syntax.isFieldByte(bytes[j]) { return nil }
        return (i, trimmed(bytes, i + 1, count))
    }

    /// Each element of a comma-separated list, without the whitespace around it (empty ones left out).
    static func forEachToken(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
            let t = trimmed(bytes, start, i)
            if t.end > t.start { body(UnsafeRawBufferPointer(rebasing: bytes[t.start..<t.end])) }
            start = i + 1
        }
    }

    /// The methods llhttp (NIO's parser) took: any other is refused.
    static let methods: [String] = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY",
        "COPY", "LOCK", "MKCOL", "MOVE", "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL",
        "REPORT", "MKACTIVITY", "CHECKOUT", "MERGE", "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PURGE",
        "MKCALENDAR", "LINK", "UNLINK", "SOURCE",
    ]

    /// The method's name (the same String each time: no allocation), or nil when llhttp did not know it.
    static func knownMethod(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.count == 3, bytes[0] == UInt8(ascii: "G"), bytes[1] == UInt8(ascii: "E"), bytes[2] == UInt8(ascii: "T") {
            return methods[0]
        }
        return methods.first { $0.utf8.elementsEqual(bytes) }
    }
}
