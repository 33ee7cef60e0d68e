/// The target file's own data type as a tree of the one JSON grammar (`record` keeps numbers as
/// sent and members in the order received).
extension Value: JSONTree {
    static var jsonNull: Value { .null }
    static func json(_ value: Bool) -> Value { .bool(value) }
    /// Text as received: a string is not a template here (`record` escapes `${` before writing it).
    static func json(_ value: String) -> Value { .string(Template(value, mark: Mark(line: 0, column: 0))) }
    static func json(number text: UnsafeBufferPointer<UInt8>) -> Value? {
        .number(String(decoding: text, as: UTF8.self))
    }
    static func json(_ items: [Value]) -> Value { .array(items) }

    /// In the order received; a repeated key keeps its first place and its last value.
    static func json(_ members: [(String, Value)]) -> Value {
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
