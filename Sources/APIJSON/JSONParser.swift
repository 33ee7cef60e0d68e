import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 8259 JSON, strictly (no comments, no trailing commas, no NaN), without Foundation's
/// JSONSerialization. Nesting deeper than `maxDepth` is refused rather than allowed to exhaust the
/// stack. One grammar, two trees: `JSONValue` (what `expect:` compares: numbers as Double, members
/// sorted, a repeated key's last value) and `Value` (a target file's data, what `record` writes:
/// numbers as sent, members in the order received).
package enum JSONParser {
    package static let maxDepth = 512

    package static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { raw in read(raw.bindMemory(to: UInt8.self), into: JSONValue.self) }
    }

    package static func read<Tree: JSONTree>(_ bytes: UnsafeBufferPointer<UInt8>, into: Tree.Type) -> Tree? {
        var p = Reader<Tree>(bytes: bytes)
        p.skipSpace()
        guard let value = p.value(depth: 0) else { return nil }
        p.skipSpace()
        return p.atEnd ? value : nil
    }

    /// The text of valid UTF-8, nil when it is not (`String(decoding:)` repairs, so a changed
    /// result means the input was not UTF-8).
    static func utf8String(_ span: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
        let text = String(decoding: span, as: UTF8.self)
        if ascii { return text }
        return text.utf8.elementsEqual(span) ? text : nil
    }

    private struct Reader<Tree: JSONTree> {
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

        mutating func value(depth: Int) -> Tree? {
            guard depth < JSONParser.maxDepth, let b = peek else { return nil }
            switch b {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map { Tree.json($0) }
            case UInt8(ascii: "t"): return literal("true") ? Tree.json(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? Tree.json(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? Tree.jsonNull : nil
            default: return numberSpan().flatMap { Tree.json(number: UnsafeBufferPointer(rebasing: bytes[$0])) }
            }
        }

        mutating func array(depth: Int) -> Tree? {
            i += 1
            var items: [Tree] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { i += 1; return Tree.json(items) }
            while true {
                skipSpace()
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard let b = peek else { return nil }
                i += 1
                if b == UInt8(ascii: "]") { return Tree.json(items) }
                guard b == UInt8(ascii: ",") else { return nil }
            }
        }

        mutating func object(depth: Int) -> Tree? {
            i += 1
            var members: [(key: String, value: Tree)] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { i += 1; return Tree.json(members) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard peek == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                guard let item = value(depth: depth + 1) else { return nil }
                members.append((key, item))
                skipSpace()
                guard let b = peek else { return nil }
                i += 1
                if b == UInt8(ascii: "}") { return Tree.json(members) }
                guard b == UInt8(ascii: ",") else { return nil }
            }
        }

        mutating func string() -> String? {
            i += 1
            // the common case, no escape: the text is a span of the input, made a String in one go
            let start = i
            var high: UInt8 = 0
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    let span = UnsafeBufferPointer(rebasing: bytes[start..<i])
                    i += 1
                    return JSONParser.utf8String(span, ascii: high < 0x80)
                }
                if b == UInt8(ascii: "\\") || b < 0x20 { break }
                high |= b
                i += 1
            }
            var out = Array(bytes[start..<i])
            while let b = peek {
                i += 1
                switch b {
                case UInt8(ascii: "\""): return out.withUnsafeBufferPointer { JSONParser.utf8String($0, ascii: false) }
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

        /// Reads past a number; returns where its text stands.
        mutating func numberSpan() -> Range<Int>? {
            guard let end = JSONParser.numberEnd(bytes, from: i) else { return nil }
            defer { i = end }
            return i..<end
        }
    }

    /// Where the number starting at `start` ends (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`),
    /// nil when no number starts there: the grammar the parser reads numbers by.
    package static func numberEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard let first = peek(), isDigit(first) else { return nil }
        i += 1
        if first != UInt8(ascii: "0") { while let b = peek(), isDigit(b) { i += 1 } }
        if peek() == UInt8(ascii: ".") {
            i += 1
            guard let b = peek(), isDigit(b) else { return nil }
            while let b = peek(), isDigit(b) { i += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            guard let b = peek(), isDigit(b) else { return nil }
            while let b = peek(), isDigit(b) { i += 1 }
        }
        return i
    }
}

/// What `JSONParser` builds; members come in the order received, repeated keys included.
package protocol JSONTree {
    static var jsonNull: Self { get }
    static func json(_ value: Bool) -> Self
    static func json(_ value: String) -> Self
    /// The number's text, valid by the grammar.
    static func json(number text: UnsafeBufferPointer<UInt8>) -> Self?
    static func json(_ items: [Self]) -> Self
    static func json(_ members: [(key: String, value: Self)]) -> Self
}

extension JSONValue: JSONTree {
    package static var jsonNull: JSONValue { .null }
    package static func json(_ value: Bool) -> JSONValue { .bool(value) }
    package static func json(_ value: String) -> JSONValue { .string(value) }
    package static func json(number text: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        number(text).map(JSONValue.number)
    }

    /// A number's text as `Double(String)` reads it. A whole number of at most 15 digits (exact
    /// in a Double, as strtod makes it) is read digit by digit, without a String made for it.
    package static func number(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let negative = text.first == UInt8(ascii: "-")
        var k = negative ? 1 : 0
        if text.count > k && text.count - k <= 15 {
            var whole: Int64 = 0
            while k < text.count, case let d = text[k] &- UInt8(ascii: "0"), d <= 9 {
                whole = whole * 10 + Int64(d)
                k += 1
            }
            if k == text.count { return negative ? -Double(whole) : Double(whole) }
        }
        return Double(String(decoding: text, as: UTF8.self))
    }
    package static func json(_ items: [JSONValue]) -> JSONValue { .array(items) }

    /// Sorted by key; a repeated key keeps its last value.
    /// (A stable sort by key, then of each run of equal keys the first key with the last value:
    /// what a dictionary filled in order and sorted gives, without hashing every key.)
    package static func json(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
        var sorted = true
        for k in members.indices.dropFirst() where !(members[k - 1].0 < members[k].0) { sorted = false; break }
        if sorted { return .object(members) }  // the parser's array as it is (labelled as `.object`'s: no copy)
        let order = members.indices.sorted { a, b in
            members[a].0 < members[b].0 || (!(members[b].0 < members[a].0) && a < b)
        }
        var out: [(key: String, value: JSONValue)] = []
        out.reserveCapacity(members.count)
        for k in order {
            if let last = out.last, last.key == members[k].0 {
                out[out.count - 1].value = members[k].1
            } else {
                out.append((key: members[k].0, value: members[k].1))
            }
        }
        return .object(out)
    }
}
