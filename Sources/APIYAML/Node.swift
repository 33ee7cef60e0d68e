/// A YAML node after aliases are resolved and merge keys (`<<`) applied.
/// Every node carries the mark where it starts, so any later error can say where.
package struct Node: Sendable {
    package enum Content: Sendable {
        case scalar(Scalar)
        case sequence([Node])
        case mapping([Pair])
    }

    package struct Scalar: Sendable {
        package var value: String
        /// Plain scalars are resolved (null, booleans, numbers); quoted and block scalars are text.
        package var isPlain: Bool

        package init(value: String, isPlain: Bool) {
            self.value = value
            self.isPlain = isPlain
        }
    }

    package struct Pair: Sendable {
        package var key: Node
        package var value: Node

        package init(key: Node, value: Node) {
            self.key = key
            self.value = value
        }
    }

    package var content: Content
    package var mark: Mark
    /// Few nodes carry a tag: a reference when one does (half a String's size when none does, and
    /// a large file's tree is mostly nodes).
    private var tagBox: TagBox?

    /// The explicit tag (`!!str` arrives as `tag:yaml.org,2002:str`), nil when none was written.
    package var tag: String? {
        get { tagBox?.text }
        set { tagBox = newValue.map(TagBox.init) }
    }

    package init(content: Content, tag: String? = nil, mark: Mark) {
        self.content = content
        self.mark = mark
        tagBox = tag.map(TagBox.init)
    }

    private final class TagBox: Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// The scalar's text, or nil for collections.
    package var scalarText: String? {
        if case .scalar(let s) = content { return s.value }
        return nil
    }

    /// The pairs of a mapping, or nil for other nodes.
    package var pairs: [Pair]? {
        if case .mapping(let p) = content { return p }
        return nil
    }

    /// The items of a sequence, or nil for other nodes.
    package var items: [Node]? {
        if case .sequence(let i) = content { return i }
        return nil
    }

    /// A null as YAML's core schema writes it: `~`, `null`, or nothing at all.
    package var isNull: Bool {
        guard case .scalar(let s) = content, s.isPlain, tag == nil || tag == Node.nullTag else { return false }
        // By length first: most scalars are not null, and a failed String == is not cheap.
        switch s.value.utf8.count {
        case 0: return true
        case 1: return s.value == "~"
        case 4: return s.value == "null" || s.value == "Null" || s.value == "NULL"
        default: return false
        }
    }

    /// What a person would call this node's kind, for messages: "a mapping", "a list", "text".
    package var kindName: String {
        switch content {
        case .scalar: return isNull ? "null" : "a scalar"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    package static let strTag = "tag:yaml.org,2002:str"
    package static let nullTag = "tag:yaml.org,2002:null"
}
