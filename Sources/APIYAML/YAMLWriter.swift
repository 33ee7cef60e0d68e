/// Writes `YAMLOut` as block YAML a person would write: small collections of scalars on one line
/// in flow style (`{ name: moya }`), everything else indented by two spaces, comments kept.
/// The same value always gives the same bytes.
package enum YAMLWriter {
    /// Widest line a flow collection may make before it is written as a block.
    static let width = 100

    /// A whole document: the top-level mapping, with `header` comment lines first.
    package static func document(_ value: YAMLOut, header: [String] = []) -> String {
        var out = header.map { comment($0, indent: 0) }.joined()
        block(value, indent: 0, into: &out)
        return out
    }

    /// Writes the entries of a mapping (or the items of a list) at `indent`, one per line.
    package static func block(_ value: YAMLOut, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .map(let entries), .blockMap(let entries):
            for entry in entries {
                switch entry {
                case .comment(let text): out += comment(text, indent: indent)
                case .blank: out += "\n"
                case .pair(let key, let v): member(pad + YAMLScalar.key(key) + ":", v, indent: indent, into: &out)
                }
            }
        case .list(let items):
            for item in items { listItem(item, indent: indent, into: &out) }
        default:
            out += pad + inline(value) + "\n"
        }
    }

    /// `key: value` on one line, or `key:` with the value indented below it.
    private static func member(_ lead: String, _ v: YAMLOut, indent: Int, into out: inout String) {
        if let flow = flowIfShort(v, startColumn: lead.count + 1) {
            out += lead + " " + flow + "\n"
            if let entries = v.entries {  // comments of a mapping with no pairs
                for case .comment(let text) in entries { out += comment(text, indent: indent + 2) }
            }
            return
        }
        out += lead + "\n"
        block(v, indent: indent + 2, into: &out)
    }

    /// `- item`: scalars and short collections inline, mappings with their first key on the dash line.
    private static func listItem(_ item: YAMLOut, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        if let flow = flowIfShort(item, startColumn: indent + 2) {
            out += pad + "- " + flow + "\n"
            return
        }
        var nested = ""
        block(item, indent: indent + 2, into: &nested)
        out += pad + "- " + nested.dropFirst(indent + 2)
    }

    /// The value in flow style when it is a scalar, empty, or short and free of comments.
    private static func flowIfShort(_ v: YAMLOut, startColumn: Int) -> String? {
        switch v {
        case .blockMap: return nil
        case .map(let entries):
            if entries.allSatisfy({ if case .pair = $0 { return false } else { return true } }) { return "{}" }
        case .list(let items) where items.isEmpty: return "[]"
        case .list: break
        default: return inline(v)
        }
        if hasComments(v) { return nil }
        var text = ""
        return flow(v, into: &text, limit: width - startColumn) ? text : nil
    }

    /// Writes `v` in flow style into `out`; false as soon as `out` grows past `limit` characters
    /// (so a large value is not rendered whole just to learn it is too long for one line).
    private static func flow(_ v: YAMLOut, into out: inout String, limit: Int) -> Bool {
        switch v {
        case .list(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                guard flow(item, into: &out, limit: limit) else { return false }
            }
            out += "]"
        case .map(let entries), .blockMap(let entries):
            var first = true
            for case .pair(let k, let value) in entries {
                out += first ? "{ " : ", "
                first = false
                out += YAMLScalar.key(k) + ": "
                guard out.utf8.count <= limit, flow(value, into: &out, limit: limit) else { return false }
            }
            out += first ? "{}" : " }"
        default:
            out += flow(v)
        }
        return out.utf8.count <= limit
    }

    /// Whether a comment stands anywhere inside `v` (flow style cannot hold one).
    static func hasComments(_ v: YAMLOut) -> Bool {
        switch v {
        case .map(let entries), .blockMap(let entries):
            return entries.contains {
                switch $0 {
                case .comment, .blank: return true
                case .pair(_, let value): return hasComments(value)
                }
            }
        case .list(let items): return items.contains(where: hasComments)
        default: return false
        }
    }

    /// A scalar in block context.
    static func inline(_ v: YAMLOut) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return YAMLScalar.string(s, flow: false)
        case .list, .map, .blockMap: return flow(v)
        }
    }

    /// Flow style: `{ a: 1, b: [x, y] }`.
    package static func flow(_ v: YAMLOut) -> String {
        switch v {
        case .string(let s): return YAMLScalar.string(s, flow: true)
        case .list(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .map(let entries), .blockMap(let entries):
            let pairs = entries.compactMap { e -> String? in
                guard case .pair(let k, let value) = e else { return nil }
                return YAMLScalar.key(k) + ": " + flow(value)
            }
            return pairs.isEmpty ? "{}" : "{ " + pairs.joined(separator: ", ") + " }"
        default: return inline(v)
        }
    }

    /// `# text` lines. Every character YAML reads as a line break (CR, NEL, LS, PS, not only LF)
    /// starts a new comment line, and other control characters are written as `\u` escapes, so
    /// text in a comment can never end it and become keys.
    static func comment(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        let normalized = text.contains("\r\n") ? text.replacing("\r\n", with: "\n") : text
        return normalized.split(omittingEmptySubsequences: false, whereSeparator: { $0.unicodeScalars.contains(where: isLineBreak) })
            .map { $0.isEmpty ? pad + "#\n" : pad + "# " + visible($0) + "\n" }.joined()
    }

    private static func isLineBreak(_ c: Unicode.Scalar) -> Bool {
        c == "\n" || c == "\r" || c.value == 0x85 || c.value == 0x2028 || c.value == 0x2029
    }

    /// Control characters (but tab), DEL, C1 and the BOM as `\uXXXX` text.
    private static func visible(_ line: Substring) -> String {
        guard line.unicodeScalars.contains(where: YAMLScalar.needsEscape) else { return String(line) }
        var out = ""
        for c in line.unicodeScalars {
            if YAMLScalar.needsEscape(c) {
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
