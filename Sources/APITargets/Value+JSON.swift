import APIJSON
import APIYAML
/// The target file's own data type as a tree of the one JSON grammar (`record` keeps numbers as
/// sent and members in the order received).
extension Value: JSONTree {
    package static var jsonNull: Value { .null }
    package static func json(_ value: Bool) -> Value { .bool(value) }
    /// Text as received: a string is not a template here (`record` escapes `${` before writing it).
    package static func json(_ value: String) -> Value { .string(Template(value, mark: Mark(line: 0, column: 0))) }
    package static func json(number text: UnsafeBufferPointer<UInt8>) -> Value? {
        .number(String(decoding: text, as: UTF8.self))
    }
    package static func json(_ items: [Value]) -> Value { .array(items) }

    /// In the order received; a repeated key keeps its first place and its last value.
    package static func json(_ members: [(key: String, value: Value)]) -> Value {
        var out: [Member] = []
        var seen: [String: Int] = [:]
        for (key, value) in members {
            if let at = seen[key] { out[at].value = value } else {
                seen[key] = out.count
                out.append(Member(key: key, value: value))
            }
        }
        return .object(out)
    }
}

extension JSONParser {
    /// A target file's data from JSON bytes: numbers as written, members in the order received.
    package static func parseValue(_ bytes: [UInt8]) -> Value? {
        bytes.withUnsafeBufferPointer { read($0, into: Value.self) }
    }
}

extension JSONValue {
    /// What `expect:` compares, from a target file's data.
    package init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(var n): self = .number(n.withUTF8(JSONValue.number) ?? .nan)
        case .string(let t): self = .string(t.text)
        case .array(let items): self = .array(items.map(JSONValue.init))
        case .object(let members): self = .object(members.map { ($0.key, JSONValue($0.value)) })
        }
    }
}

extension Value {
    /// Whether every string (keys aside: they are not expanded) expands to itself, every number is
    /// written by JSON's grammar (`0x1F` is not) and the nesting is within the parser's: then
    /// `jsonText`, expanded with any bindings, reads back as the same tree whatever the bindings.
    /// What `validate` judges a `json:` sample by without a stub; asked without making the tree.
    package var isLiteralJSON: Bool { isLiteralJSON(depth: 0) }

    /// `path` evaluated on the tree `JSONParser` reads from `jsonText` of a value that
    /// `isLiteralJSON`, found in the value itself: neither the text nor the tree is made, only
    /// what the path finds becomes a `JSONValue` (all of it for `$`). nil: it finds nothing, or
    /// what it reaches is not `isLiteralJSON`.
    package func literalJSONValue(at path: JSONPath) -> JSONValue? {
        literalJSONValue(at: path.steps[...], depth: 0)
    }

    private func isLiteralJSON(depth: Int) -> Bool {
        guard depth < JSONParser.maxDepth else { return false }
        switch self {
        case .null, .bool: return true
        case .number(var n): return n.withUTF8 { text in JSONParser.numberEnd(text, from: 0) == text.count }
        case .string(let t): return t.expandsToItself
        case .array(let items): return items.allSatisfy { $0.isLiteralJSON(depth: depth + 1) }
        case .object(let members): return members.allSatisfy { $0.value.isLiteralJSON(depth: depth + 1) }
        }
    }

    // Built with `JSONTree`'s functions, as the parser builds it.
    private func literalJSONValue(depth: Int) -> JSONValue? {
        guard depth < JSONParser.maxDepth else { return nil }
        switch self {
        case .null: return .jsonNull
        case .bool(let b): return .json(b)
        case .number(var n):
            return n.withUTF8 { text in JSONParser.numberEnd(text, from: 0) == text.count ? JSONValue.json(number: text) : nil }
        case .string(let t): return t.expandsToItself ? .json(t.text) : nil
        case .array(let items):
            var out: [JSONValue] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard let tree = item.literalJSONValue(depth: depth + 1) else { return nil }
                out.append(tree)
            }
            return .json(out)
        case .object(let members):
            var out: [(key: String, value: JSONValue)] = []
            out.reserveCapacity(members.count)
            for m in members {
                guard let tree = m.value.literalJSONValue(depth: depth + 1) else { return nil }
                out.append((m.key, tree))
            }
            return .json(out)
        }
    }

    // A name or an index is followed here as `JSONPath.evaluate` follows it in the tree: the tree's
    // object keeps a repeated key's last value (keys equal as Strings are), its array the items.
    // Any other step is the path's on the tree of what is reached.
    private func literalJSONValue(at steps: ArraySlice<JSONPath.Step>, depth: Int) -> JSONValue? {
        switch (steps.first, self) {
        case (nil, _): return literalJSONValue(depth: depth)
        case (.key(let k)?, .object(let members)):
            return members.last { $0.key == k }.flatMap { $0.value.literalJSONValue(at: steps.dropFirst(), depth: depth + 1) }
        case (.index(let i)?, .array(let items)):
            let j = i < 0 ? items.count + i : i
            return items.indices.contains(j) ? items[j].literalJSONValue(at: steps.dropFirst(), depth: depth + 1) : nil
        case (.key?, _), (.index?, _): return nil
        case (.every?, _), (.length?, _): return literalJSONValue(depth: depth).flatMap { JSONPath.evaluate(steps, $0) }
        }
    }
}
