import APIYAML
/// A node of an OpenAPI description together with the file it was read from, so every warning
/// and every `$ref` relative to it knows where it stands.
struct SpecNode {
    let node: Node
    let file: String

    var mark: Mark { node.mark }
    var text: String? { node.scalarText }
    var isMapping: Bool { node.pairs != nil }

    /// The value of `key` when this is a mapping.
    subscript(key: String) -> SpecNode? {
        guard let pairs = node.pairs else { return nil }
        for p in pairs where p.key.scalarText == key { return SpecNode(node: p.value, file: file) }
        return nil
    }

    /// Key, key mark and value of a mapping, in the file's order.
    var entries: [(key: String, keyMark: Mark, value: SpecNode)] {
        (node.pairs ?? []).map { ($0.key.scalarText ?? "", $0.key.mark, SpecNode(node: $0.value, file: file)) }
    }

    var items: [SpecNode] { (node.items ?? []).map { SpecNode(node: $0, file: file) } }

    /// `true`/`false` written as a plain scalar.
    var bool: Bool? {
        switch YAMLOut(node) {
        case .bool(let b): return b
        default: return nil
        }
    }

    /// The `$ref` this node is, if it is one.
    var ref: String? { self["$ref"]?.text }

    func warning(_ message: String) -> ImportWarning {
        ImportWarning(file: file, mark: mark, message: message)
    }
}
