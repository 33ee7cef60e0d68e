#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The few string operations apicli needs that Foundation's ICU-backed half would otherwise bring
/// in (the binary imports FoundationEssentials only): trimming, padding, fixed-point numbers,
/// percent-encoding, and comparing ASCII case-insensitively.
extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        Text.trimming(String(self)) { $0 == " " || $0 == "\t" }
    }

    /// Without leading and trailing white space and line breaks.
    package func trimmingWhitespace() -> String {
        Text.trimming(String(self)) { $0.isWhitespace }
    }

    /// Spaces after, to `width` characters (a longer string stays whole): a column's left-aligned cell.
    package func padded(to width: Int) -> String {
        count >= width ? String(self) : String(self) + String(repeating: " ", count: width - count)
    }

    /// Spaces before, to `width` characters (a longer string stays whole): a right-aligned cell.
    package func leftPadded(to width: Int) -> String {
        count >= width ? String(self) : String(repeating: " ", count: width - count) + self
    }

    /// ASCII case-insensitive equality (header names, schemes). Inlinable: it runs several times a
    /// request on the send path (header lookups, the connection's scheme), and unspecialized across
    /// modules it instantiated `Zip2Sequence` metadata on every call (~16k instructions; callgrind,
    /// bench/notes in docs/dev/benchmarks.md).
    @inlinable
    package func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        var a = utf8.makeIterator(), b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case (let x?, let y?): if x != y, (x &- 65 < 26 ? x &+ 32 : x) != (y &- 65 < 26 ? y &+ 32 : y) { return false }
            default: return false
            }
        }
    }

    /// `%XX` escapes decoded; nil when an escape is broken or the bytes are not UTF-8.
    package func removingPercentEscapes() -> String? {
        // no escape: the text as is (its bytes are UTF-8 already), without the byte-by-byte copy
        if !utf8.contains(UInt8(ascii: "%")) { return String(self) }
        var bytes: [UInt8] = []
        var it = Array(utf8)[...]
        while let b = it.popFirst() {
            guard b == UInt8(ascii: "%") else { bytes.append(b); continue }
            guard it.count >= 2, let hi = Text.hex(it.removeFirst()), let lo = Text.hex(it.removeFirst()) else { return nil }
            bytes.append(hi << 4 | lo)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Every byte outside `allowed` (an ASCII set) as `%XX`.
    package func percentEncoded(keeping allowed: Text.ByteSet) -> String {
        // The usual value: nothing to escape, told by its bytes in place when they are contiguous
        // (a UTF-8 iterator checks the string's kind on every byte).
        if utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(allowed.contains) }) ?? utf8.allSatisfy(allowed.contains) {
            return String(self)
        }
        var out = ""
        for b in utf8 {
            if allowed.contains(b) { out.unicodeScalars.append(Unicode.Scalar(b)) } else { out += "%" + Text.hexByte(b) }
        }
        return out
    }
}

extension String {
    /// Whether the text holds the byte `byte` (an ASCII character's: a search for one that stands
    /// for itself), read in place: `utf8.contains` walks a UTF-8 iterator, a check of the string's
    /// kind per byte, and every request's URL and templates are searched so.
    package func containsByte(_ byte: UInt8) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(byte) }) { return found }
        return utf8.contains(byte)
    }

    /// `equalsIgnoringCase` of two Strings (what the send path compares: header names, schemes):
    /// the lengths first, then the bytes in place, with no UTF-8 iterator (which checks the
    /// string's kind on every byte). The generic one above serves substrings.
    package func equalsIgnoringCase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let equal = utf8.withContiguousStorageIfAvailable { x in
            other.utf8.withContiguousStorageIfAvailable { y in
                for i in 0..<x.count where x[i] != y[i] && Text.lower(x[i]) != Text.lower(y[i]) { return false }
                return true
            }
        }
        if let equal = equal ?? nil { return equal }
        return self[...].equalsIgnoringCase(other[...])  // a string not stored as UTF-8 (none on Linux)
    }
}

package enum Text {
    /// `text` without the characters `isSpace` says at either end. On a `String`, not in the
    /// `StringProtocol` extension's generic code: a range of a generic index there makes the Swift
    /// runtime check `Comparable` at its first use, a scan of every conformance in the binary.
    static func trimming(_ text: String, _ isSpace: (Character) -> Bool) -> String {
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(text[first...last])
    }

    /// A set of ASCII bytes.
    package struct ByteSet: Sendable {
        private var bits: (UInt64, UInt64) = (0, 0)

        package init(_ characters: String) {
            for b in characters.utf8 { insert(b) }
        }

        package mutating func insert(_ b: UInt8) {
            if b < 64 { bits.0 |= 1 << UInt64(b) } else if b < 128 { bits.1 |= 1 << UInt64(b - 64) }
        }

        package func contains(_ b: UInt8) -> Bool {
            b < 64 ? bits.0 & (1 << UInt64(b)) != 0 : b < 128 ? bits.1 & (1 << UInt64(b - 64)) != 0 : false
        }

        package func union(_ characters: String) -> ByteSet {
            var out = self
            for b in characters.utf8 { out.insert(b) }
            return out
        }

        /// RFC 3986's unreserved characters.
        package static let unreserved = ByteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    }

    static func lower(_ b: UInt8) -> UInt8 { b &- 65 < 26 ? b &+ 32 : b }

    package static func hex(_ b: UInt8) -> UInt8? { HTTP1Syntax.hexDigit(b) }

    /// `0A`, upper case.
    package static func hexByte(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }

    /// `value` with exactly `digits` decimals, rounded half away from zero: `fixed(0.0125, 3)` → `0.013`.
    package static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return "\(value)" }
        let whole = Int(scaled)
        let sign = value < 0 && whole != 0 ? "-" : ""
        let integer = whole / Int(scale), fraction = whole % Int(scale)
        guard digits > 0 else { return "\(sign)\(integer)" }
        let text = String(fraction)
        return "\(sign)\(integer)." + String(repeating: "0", count: digits - text.count) + text
    }

    /// `30`, `1.5`: seconds as a command-line number.
    package static func number(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    /// Whole milliseconds: `0.0125` → `13 ms` (report columns, `maxTime`).
    package static func milliseconds(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 9e12 else { return "\(seconds) s" }
        return "\(Int((seconds * 1000).rounded())) ms"
    }

    /// A duration for a sentence: milliseconds under a second (`500 ms`), else seconds (`2 s`, `1.25 s`).
    package static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return milliseconds(seconds) }
        guard seconds.isFinite, seconds < 9e15 else { return "\(seconds) s" }
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : fixed(seconds, 2) + " s"
    }
}

extension Data {
    /// `text`'s UTF-8 bytes. `Data(text.utf8)` asks the Swift runtime whether the view is
    /// `ContiguousBytes` (`Data`'s init from any sequence does), the first time a scan of every protocol
    /// conformance in the binary. A one-off command's path (`call --stub`) uses this instead.
    package init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }
}
