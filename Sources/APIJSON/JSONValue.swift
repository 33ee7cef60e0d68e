#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed JSON response body (`JSONParser`), in a shape that compares cleanly: booleans are not
/// numbers; object members are sorted by key (a repeated key keeps its last value) and compared
/// regardless of order.
/// Not `indirect`: its arrays already hold the nesting, so a number, string or object is not put in
/// a box of its own (three allocations fewer to judge `{"id": 5}` against `$.id: 5`).
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// nil when `data` is not JSON (one value, any type, white space around it allowed).
    package static func parse(_ data: Data) -> JSONValue? {
        JSONParser.parse(data)
    }

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { m in y.contains { $0.key == m.key && $0.value == m.value } }
        default: return false
        }
    }

    /// Compact JSON text for messages, cut at `limit` characters.
    package func text(limit: Int = 60) -> String {
        let full = rendered
        return full.count > limit ? String(full.prefix(limit)) + "…" : full
    }

    /// Compact JSON text, whole.
    package var jsonText: String { rendered }

    private var rendered: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .string(let s):
            var out = ""
            JSONText.writeString(s, into: &out)
            return out
        case .array(let items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { m in
                var k = ""
                JSONText.writeString(m.key, into: &k)
                return k + ":" + m.value.rendered
            }.joined(separator: ",") + "}"
        }
    }
}
