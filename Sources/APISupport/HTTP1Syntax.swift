/// HTTP/1.1's byte grammar (RFC 9110 §5.6, RFC 9112 §7.1), written once for apicli's readers of
/// HTTP/1.1 text — the keep-alive connections' response parser (APILive), the mock's request parser
/// (APIMock) — and the target files' token check (methods, header names).
/// Public with `@inlinable package` members, as `Locked`: the parsers call these for every byte, and
/// Swift inlines a public type's inlinable members into other modules, not a `package` type's.
public enum HTTP1Syntax {
    /// RFC 9110's tchar (digits, letters and ``!#$%&'*+-.^_`|~``): a byte of a token (a method, a
    /// field name), as a bit of a 128-bit set.
    @inlinable @inline(__always)
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte >> 6 {
        case 0: (0x03FF_6CFA_0000_0000 as UInt64) >> (byte & 63) & 1 != 0
        case 1: (0x57FF_FFFF_C7FF_FFFE as UInt64) >> (byte & 63) & 1 != 0
        default: false
        }
    }

    /// Whether `text` is a token: one or more tchar.
    @inlinable
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// A byte of a field value, a reason phrase or a chunk extension: visible characters, space,
    /// tab and obs-text (RFC 9110 §5.5); no other control character.
    @inlinable @inline(__always)
    package static func isFieldByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }

    /// A hex digit's value (either case), or nil.
    @inlinable @inline(__always)
    package static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }

    /// A chunk-size line without its CRLF (RFC 9112 §7.1): hex digits (leading zeros allowed) worth at
    /// most `limit`, then nothing or `;` extensions of field bytes (ignored); nil for anything else (no
    /// digit, a sign, whitespace before the `;`, a size over `limit`: never an overflow).
    @inlinable
    package static func chunkSize(_ line: UnsafeRawBufferPointer, limit: UInt64) -> UInt64? {
        var size: UInt64 = 0, i = 0
        while i < line.count, let digit = hexDigit(line[i]) {
            guard UInt64(digit) <= limit, size <= (limit - UInt64(digit)) / 16 else { return nil }
            size = size * 16 + UInt64(digit)
            i += 1
        }
        guard i > 0, i == line.count || line[i] == UInt8(ascii: ";") else { return nil }
        for byte in line[i...] where !isFieldByte(byte) { return nil }
        return size
    }

    /// A `Content-Length` value: decimal digits, one or more, worth at most `limit`; else nil.
    @inlinable
    package static func decimal(_ digits: UnsafeRawBufferPointer, limit: UInt64) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var n: UInt64 = 0
        for byte in digits {
            let d = byte &- UInt8(ascii: "0")
            guard d < 10, UInt64(d) <= limit, n <= (limit - UInt64(d)) / 10 else { return nil }
            n = n * 10 + UInt64(d)
        }
        return n
    }

    /// Whether `bytes` are `lower` (lower-case ASCII) in any case: a field name or a token such as
    /// `chunked` or `close`.
    @inlinable
    package static func equalsLowercased(_ bytes: UnsafeRawBufferPointer, _ lower: StaticString) -> Bool {
        guard bytes.count == lower.utf8CodeUnitCount else { return false }
        let want = lower.utf8Start
        for i in 0..<bytes.count {
            let b = bytes[i]
            if (b &- UInt8(ascii: "A") < 26 ? b | 0x20 : b) != want[i] { return false }
        }
        return true
    }
}
