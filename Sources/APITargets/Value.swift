import APIJSON
import APIDiagnostics
/// Structured data from a target file: JSON bodies, query and form parameters, sample JSON.
/// Numbers keep the text they were written with, objects keep their key order.
package indirect enum Value: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(Template)
    case array([Value])
    case object([Member])

    package struct Member: Sendable, Equatable {
        package var key: String
        package var value: Value
        package init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// Expands every string (keys stay as written).
    /// `place` is spelled out only for an error (every request's query and body come here).
    package func expanded(with bindings: Bindings, in place: @autoclosure () -> String, file: String?) throws(APIError) -> Value {
        switch self {
        case .null, .bool, .number: return self
        case .string(let t):
            return .string(Template(try bindings.expand(t, in: place(), file: file), mark: t.mark))
        case .array(let items):
            if !items.contains(where: \.holdsText) { return self }  // nothing to expand: no array made again
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items { out.append(try item.expanded(with: bindings, in: place(), file: file)) }
            return .array(out)
        case .object(let members):
            if !members.contains(where: \.value.holdsText) { return self }
            var out: [Member] = []
            out.reserveCapacity(members.count)
            for m in members { out.append(Member(key: m.key, value: try m.value.expanded(with: bindings, in: place(), file: file))) }
            return .object(out)
        }
    }

    /// Whether a string is in it (what `expanded` may change).
    private var holdsText: Bool {
        switch self {
        case .null, .bool, .number: return false
        case .string: return true
        case .array(let items): return items.contains(where: \.holdsText)
        case .object(let members): return members.contains(where: \.value.holdsText)
        }
    }

    /// Compact JSON text, keys in written order.
    package var jsonText: String {
        var out = ""
        writeJSON(into: &out)
        return out
    }

    private func writeJSON(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let t): JSONText.writeString(t.text, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeJSON(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                JSONText.writeString(m.key, into: &out)
                out += ":"
                m.value.writeJSON(into: &out)
            }
            out += "}"
        }
    }

    /// The text a scalar stands for in a query string or form: strings as they are, numbers as
    /// written, null as empty. Booleans are the encoder's choice, so nil here; collections too.
    package var scalarText: String? {
        switch self {
        case .string(let t): return t.text
        case .number(let n): return n
        case .null: return ""
        case .bool, .array, .object: return nil
        }
    }
}
