#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 8259 JSON into `JSONValue`, strictly (no comments, no trailing commas, no NaN), without
/// Foundation's JSONSerialization. Nesting deeper than `maxDepth` is refused rather than allowed
/// to exhaust the stack.
enum JSONParser {
    static let maxDepth = 512

    static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { raw -> JSONValue? in
            var p = Reader(bytes: raw.bindMemory(to: UInt8.self))
            p.skipSpace()
            guard let value = p.value(depth: 0) else { return nil }
            p.skipSpace()
            return p.atEnd ? value : nil
        }
    }

    /// The same grammar into `RecordedJSON`: numbers kept as their text, members in order.
    static func parseRecorded(_ bytes: [UInt8]) -> RecordedJSON? {
        bytes.withUnsafeBufferPointer { buffer -> RecordedJSON? in
            var p = Reader(bytes: buffer)
            p.skipSpace()
            guard let value = p.recorded(depth: 0) else { return nil }
            p.skipSpace()
            return p.atEnd ? value : nil
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSpace() {
            while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            for k in 0..<n where bytes[i + k] != word.utf8Start[k] { return false }
            i += n
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < JSONParser.maxDepth, let b = peek else { return nil }
            switch b {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map(JSONValue.number)
            }
        }

        mutating func recorded(depth: Int) -> RecordedJSON? {
            guard depth < JSONParser.maxDepth, let b = peek else { return nil }
            switch b {
            case UInt8(ascii: "{"):
                i += 1
                var members: [RecordedJSON.Member] = []
                var seen: [String: Int] = [:]
                skipSpace()
                if peek == UInt8(ascii: "}") { i += 1; return .object([]) }
                while true {
                    skipSpace()
                    guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
                    skipSpace()
                    guard peek == UInt8(ascii: ":") else { return nil }
                    i += 1
                    skipSpace()
                    guard let item = recorded(depth: depth + 1) else { return nil }
                    if let at = seen[key] {
                        members[at].value = item
                    } else {
                        seen[key] = members.count
                        members.append(.init(key: key, value: item))
                    }
                    skipSpace()
                    guard let b = peek else { return nil }
                    i += 1
                    if b == UInt8(ascii: "}") { return .object(members) }
                    guard b == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [RecordedJSON] = []
                skipSpace()
                if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    guard let item = recorded(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipSpace()
                    guard let b = peek else { return nil }
                    i += 1
                    if b == UInt8(ascii: "]") { return .array(items) }
                    guard b == UInt8(ascii: ",") else { return nil }
                }
            case UInt8(ascii: "\""): return string().map(RecordedJSON.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default:
                guard let span = numberSpan() else { return nil }
                return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self))
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard let b = peek else { return nil }
                i += 1
                if b == UInt8(ascii: "]") { return .array(items) }
                guard b == UInt8(ascii: ",") else { return nil }
            }
        }

        mutating func object(depth: Int) -> JSONValue? {
            i += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if peek == UInt8(ascii: "}") { i += 1; return .object([]) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                guard let item = value(depth: depth + 1) else { return nil }
                members[key] = item
                skipSpace()
                guard let b = peek else { return nil }
                i += 1
                if b == UInt8(ascii: "}") { return .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) }
                guard b == UInt8(ascii: ",") else { return nil }
            }
        }

        mutating func string() -> String? {
            i += 1
            var out: [UInt8] = []
            while let b = peek {
                i += 1
                switch b {
                case UInt8(ascii: "\""): return String(validating: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard let e = peek else { return nil }
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: out.append(b)
                }
            }
            return nil
        }

        /// After `\u`: four hex digits, or a surrogate pair written as two escapes.
        mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        mutating func hex4() -> UInt32? {
            guard i + 4 <= bytes.count else { return nil }
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard let d = Text.hex(bytes[i]) else { return nil }
                v = v << 4 | UInt32(d)
                i += 1
            }
            return v
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() -> Double? {
            guard let span = numberSpan() else { return nil }
            return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[span]), as: UTF8.self))
        }

        /// Reads past a number; returns where its text stands.
        mutating func numberSpan() -> Range<Int>? {
            let start = i
            if peek == UInt8(ascii: "-") { i += 1 }
            guard let first = peek, isDigit(first) else { return nil }
            i += 1
            if first != UInt8(ascii: "0") { while let b = peek, isDigit(b) { i += 1 } }
            if peek == UInt8(ascii: ".") {
                i += 1
                guard let b = peek, isDigit(b) else { return nil }
                while let b = peek, isDigit(b) { i += 1 }
            }
            if let e = peek, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                i += 1
                if let s = peek, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
                guard let b = peek, isDigit(b) else { return nil }
                while let b = peek, isDigit(b) { i += 1 }
            }
            return start..<i
        }

        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    }
}
