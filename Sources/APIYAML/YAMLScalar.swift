/// Text as a YAML scalar: plain when the target decoder reads it back as the same text, else
/// double-quoted with JSON's escapes (YAML's double-quoted style accepts them).
package enum YAMLScalar {
    package static func key(_ s: String) -> String { string(s, flow: true) }

    static func string(_ s: String, flow: Bool) -> String {
        isPlainSafe(s, flow: flow) ? s : quoted(s)
    }

    /// `"…"` with `"` and `\\` escaped, and every character YAML does not allow printed raw
    /// (controls, DEL, C1, line and paragraph separators, BOM) as an escape.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where needsEscape(c):
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    /// A character YAML does not allow raw (controls but tab, DEL, C1 and NEL, line and paragraph
    /// separators, BOM, the noncharacters U+FFFE and U+FFFF, which libyaml refuses).
    static func needsEscape(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\t") || (0x7f...0x9f).contains(c.value)
            || [0x2028, 0x2029, 0xfeff, 0xfffe, 0xffff].contains(c.value)
    }

    /// Words YAML 1.1 or the core schema may read as something other than text.
    private static let reserved: Set<String> = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n", "~",
    ]

    /// One pass over the bytes (this runs for every string of a large import).
    private static func isPlainSafe(_ s: String, flow: Bool) -> Bool {
        let bytes = s.utf8
        guard let first = bytes.first, let last = bytes.last else { return false }
        guard isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: "/") else { return false }
        guard last != UInt8(ascii: " "), last != UInt8(ascii: ":") else { return false }
        var previous: UInt8 = 0
        for b in bytes {
            guard b >= 0x20, b < 0x7f, !never[Int(b)], !(flow && flowIndicator[Int(b)]) else { return false }
            if previous == UInt8(ascii: ":") && b == UInt8(ascii: " ") { return false }
            if previous == UInt8(ascii: " ") && b == UInt8(ascii: "#") { return false }
            previous = b
        }
        return bytes.count > 5 || !reserved.contains(s.lowercased())
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
    }

    private static func table(_ chars: String) -> [Bool] {
        var t = [Bool](repeating: false, count: 128)
        for b in chars.utf8 { t[Int(b)] = true }
        return t
    }

    /// Bytes that never stand in a plain scalar here; in flow context, the flow indicators too.
    private static let never = table("\"'`\\|>!&*%@")
    private static let flowIndicator = table(",[]{}:#")

    /// A plain scalar that YAML's core schema reads as a number, written as JSON writes it; nil otherwise.
    package static func number(_ text: String) -> String? {
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
            || first == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        // A plain decimal without leading zeros is already written as JSON writes it (most are).
        if first != UInt8(ascii: "0"), text.utf8.count <= 18,
           text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { return text }
        if first == UInt8(ascii: "0") {
            if text.hasPrefix("0x"), let n = Int(text.dropFirst(2), radix: 16) { return String(n) }
            if text.hasPrefix("0o"), let n = Int(text.dropFirst(2), radix: 8) { return String(n) }
        }
        if let n = Int(text) { return n == 0 && text.hasPrefix("-") ? "-0" : String(n) }  // JSON's -0 is kept
        // Floats: digits, one point, an exponent. Double() also takes "inf" and "nan": not numbers here.
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
              text.contains(where: \.isNumber), Double(text) != nil else { return nil }
        var s = text.hasPrefix("+") ? String(text.dropFirst()) : text
        let negative = s.hasPrefix("-")
        if negative { s.removeFirst() }
        if s.hasPrefix(".") { s = "0" + s }
        s = s.replacing(".e", with: ".0e").replacing(".E", with: ".0E")
        if s.hasSuffix(".") { s += "0" }
        return (negative ? "-" : "") + s
    }
}
