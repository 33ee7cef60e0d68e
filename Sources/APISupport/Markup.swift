/// Escaping text for the reports apicli writes: one place for HTML (check's and load's HTML
/// reports) and XML (JUnit), so a control character or a quote is handled the same in each.
package enum Markup {
    /// Text for HTML element content and attribute values: `& < > " '` as entities, tabs and line
    /// breaks kept, other control characters as U+FFFD.
    package static func html(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(c)
            default: out.unicodeScalars.append(c.value < 0x20 || c.value == 0x7F ? "\u{FFFD}" : c)
            }
        }
        return out
    }

    /// Text for XML 1.0 attribute values and content: `& < > "` as entities, a line break as `&#10;`
    /// (kept inside attributes), characters XML 1.0 forbids as U+FFFD.
    package static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t", "\r": out.unicodeScalars.append(c)
            default: out.unicodeScalars.append(c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF ? "\u{FFFD}" : c)
            }
        }
        return out
    }
}
