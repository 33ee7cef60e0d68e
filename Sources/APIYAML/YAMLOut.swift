/// A value to write as YAML: what an importer builds, in the order it should be written.
/// Numbers keep their text; mappings keep their order and may hold comment lines.
package indirect enum YAMLOut: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case list([YAMLOut])
    case map([Entry])
    /// A mapping always written as an indented block, never in flow style (a file's targets).
    case blockMap([Entry])

    package enum Entry: Sendable, Equatable {
        case pair(String, YAMLOut)
        /// A `# text` line, written where it stands among the pairs.
        case comment(String)
        /// An empty line (between the targets of a file); only in block mappings.
        case blank
    }

    /// The pairs of a mapping (comments left out), or nil for other values.
    package var pairs: [(String, YAMLOut)]? {
        guard let entries = self.entries else { return nil }
        return entries.compactMap { if case .pair(let k, let v) = $0 { return (k, v) } else { return nil } }
    }

    /// The entries of a mapping, in either style.
    package var entries: [Entry]? {
        switch self {
        case .map(let e), .blockMap(let e): return e
        default: return nil
        }
    }

    /// The value of `key` in a mapping.
    package subscript(key: String) -> YAMLOut? {
        pairs?.first { $0.0 == key }?.1
    }

    /// A spec's node as data: plain scalars resolve as the target decoder resolves them (null,
    /// booleans, numbers); quoted scalars and `!!str` stay text.
    package init(_ node: Node) {
        switch node.content {
        case .scalar(let s):
            if !s.isPlain || node.tag == Node.strTag {
                self = .string(s.value)
            } else if node.isNull {
                self = .null
            } else if ["true", "True", "TRUE"].contains(s.value) {
                self = .bool(true)
            } else if ["false", "False", "FALSE"].contains(s.value) {
                self = .bool(false)
            } else if let n = YAMLScalar.number(s.value) {
                self = .number(n)
            } else {
                self = .string(s.value)
            }
        case .sequence(let items):
            self = .list(items.map(YAMLOut.init))
        case .mapping(let pairs):
            self = .map(pairs.map { .pair($0.key.scalarText ?? "", YAMLOut($0.value)) })
        }
    }

    /// The text a query, form or header value sends for this value (scalars only).
    package var scalarText: String? {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return s
        case .list, .map, .blockMap: return nil
        }
    }
}
