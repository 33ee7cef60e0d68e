/// Text as a YAML scalar: plain when the target decoder reads it back as the same text, else
/// double-quoted with JSON's escapes (YAML's double-quoted style accepts them).
enum YAMLScalar {
    static func key(_ s: String) -> String { string(s, flow: true) }

    static func string(_ s: String, flow: Bool) -> String {
        isPlainSafe(s, flow: flow) ? s : quoted(s)
    }

    /// `"…"` with `"` and `\\` escaped, and every character YAML does not allow printed raw
    /// (controls, DEL, C1, line and paragraph separators, BOM) as an escape.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where c.value < 0x20 || (0x7f...0x9f).contains(c.value) || [0x2028, 0x2029, 0xfeff].contains(c.value):
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    /// Words YAML 1.1 or the core schema may read as something other than text.
    private static let reserved: Set<String> = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n", "~",
    ]

    private static func isPlainSafe(_ s: String, flow: Bool) -> Bool {
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return false }
        guard first.isASCII, first.properties.isAlphabetic || first == "_" || first == "/" else { return false }
        guard last != " ", !reserved.contains(s.lowercased()) else { return false }
        if s.contains(": ") || s.contains(" #") || s.hasSuffix(":") { return false }
        for c in s.unicodeScalars {
            guard c.isASCII, c.value >= 0x20, c.value < 0x7f else { return false }
            if "\"'`\\|>!&*%@".unicodeScalars.contains(c) { return false }
            if flow && ",[]{}:#".unicodeScalars.contains(c) { return false }
        }
        return true
    }
}
