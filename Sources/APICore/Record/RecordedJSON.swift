/// A JSON body as `record` writes it: every number as the literal the server sent
/// (`9007199254740993` stays, not a Double's `9007199254740992`), object members in the order
/// received (a repeated key keeps its first place and its last value). `JSONValue` is the shape
/// `expect:` compares; this one only carries text to the sample.
public indirect enum RecordedJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's text as written in the body.
    case number(String)
    case string(String)
    case array([RecordedJSON])
    case object([Member])

    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: RecordedJSON
    }

    /// nil when `bytes` is not JSON (as `JSONValue.parse`).
    public static func parse(_ bytes: [UInt8]) -> RecordedJSON? {
        JSONParser.parseRecorded(bytes)
    }

    /// Compact JSON text, whole.
    public var jsonText: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): Value.writeJSONString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                Value.writeJSONString(m.key, into: &out)
                out += ":"
                m.value.write(into: &out)
            }
            out += "}"
        }
    }
}
