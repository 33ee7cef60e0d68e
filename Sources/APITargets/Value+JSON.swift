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
