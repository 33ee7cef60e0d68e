import APISupport
import APIYAML
/// A string from a target file that may hold `{param}` placeholders and `${VAR}` / `${VAR:-default}`
/// environment references. It keeps its mark so an unresolved name can be reported where it stands.
package struct Template: Sendable, Equatable {
    package var text: String
    package var mark: Mark

    package init(_ text: String, mark: Mark) {
        self.text = text
        self.mark = mark
    }

    /// `${{}` in a template is a literal `{`: `${{}id}` expands to the text `{id}`. (`$${` is a
    /// literal `${`.) Importers write text from their input with both escapes, so it stays literal.
    package static let literalBrace = "${{}"

    /// `text` written so that expanding it gives `text` back: every `${` as `$${`, and every `{`
    /// that would start a `{placeholder}` as `${{}`.
    package static func escaping(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "$", text[text.index(after: i)...].hasPrefix("{") {
                out += "$${"  // the `{` goes with it: `$${` is read as one unit
                i = text.index(i, offsetBy: 2)
                continue
            } else if c == "{", placeholder(in: text, at: i) != nil {
                out += literalBrace
                i = text.index(after: i)
                continue
            } else {
                out.append(c)
            }
            i = text.index(after: i)
        }
        return out
    }

    /// The `{placeholders}` and `${VARIABLES}` it refers to, as written (`{id}`, `${TOKEN}`): where
    /// an expanded value came from, for messages.
    package var references: [String] {
        var out: [String] = []
        var rest = text[...]
        while let open = rest.firstRange(of: "${") {
            let escaped = open.lowerBound > rest.startIndex && rest[rest.index(before: open.lowerBound)] == "$"
            if escaped || rest[open.upperBound...].hasPrefix("{}") {  // `$${`, `${{}`: literal text
                rest = rest[open.upperBound...]
                continue
            }
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let body = rest[open.upperBound..<close]
            out.append("${" + (body.firstRange(of: ":-").map { String(body[..<$0.lowerBound]) } ?? String(body)) + "}")
            rest = rest[rest.index(after: close)...]
        }
        return placeholders.map { "{\($0)}" } + out
    }

    /// Whether the text holds anything to expand.
    package var isLiteral: Bool { !text.utf8.contains(UInt8(ascii: "{")) }  // by bytes: a `{` is one

    /// Whether expanding it gives its text as it is, whatever the bindings (no `{` and no `$`, the
    /// test `Bindings.expand` starts with): nothing to look up, nothing that can fail. One pass
    /// over the bytes in place (`utf8.contains` walks an iterator).
    package var expandsToItself: Bool {
        if let plain = text.utf8.withContiguousStorageIfAvailable({ !$0.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "$") } }) {
            return plain
        }
        return isLiteral && !text.containsByte(UInt8(ascii: "$"))
    }

    /// The `{name}` placeholders, in order of appearance.
    package var placeholders: [String] {
        var names: [String] = []
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "$", text[text.index(after: i)...].hasPrefix("{") {
                i = text[i...].firstIndex(of: "}").map { text.index(after: $0) } ?? text.endIndex
                continue
            }
            if text[i] == "{", let (name, _, end) = Self.placeholder(in: text, at: i) {
                names.append(name)
                i = end
                continue
            }
            i = text.index(after: i)
        }
        return names
    }

    /// `{identifier}` or `{+identifier}` (RFC 6570's reserved expansion) starting at `i`: the
    /// name, whether it had the `+`, and the index after the closing brace.
    package static func placeholder(in text: String, at i: String.Index) -> (name: String, reserved: Bool, end: String.Index)? {
        var j = text.index(after: i)
        let reserved = j < text.endIndex && text[j] == "+"
        if reserved { j = text.index(after: j) }
        let nameStart = j
        while j < text.endIndex, text[j] != "}" {
            let c = text[j]
            let ok = c.isASCII && (c.isLetter || c == "_" || (j > nameStart && (c.isNumber || c == "-" || c == ".")))
            if !ok { return nil }
            j = text.index(after: j)
        }
        guard j < text.endIndex, j > nameStart else { return nil }
        return (String(text[nameStart..<j]), reserved, text.index(after: j))
    }
}
