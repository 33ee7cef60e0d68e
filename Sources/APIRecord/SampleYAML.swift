import APISupport
import APIYAML
import APIJSON
import APISchema
import APITargets
import APITransport
import APIVerdict
/// A recorded sample written as YAML lines: `status:`, `headers:` (one per name), then `json:`
/// (pretty JSON, which is YAML flow), `body:` (a double-quoted string) or `file:`, and `masked:`.
enum SampleYAML {
    /// The lines of `key:` and the sample under it; `key` stands at `indent` spaces.
    static func lines(_ sample: RecordedSample, key: String, indent: Int, file: String?) -> [String] {
        let pad = String(repeating: " ", count: indent)
        let inner = pad + "  "
        var out = [pad + key + ":", inner + "status: \(sample.status)"]
        var merged: [HeaderField] = []
        for h in sample.headers {
            if let i = merged.firstIndex(where: { $0.name.equalsIgnoringCase(h.name) }) {
                merged[i].value += ", " + h.value
            } else {
                merged.append(h)
            }
        }
        if !merged.isEmpty {
            out.append(inner + "headers:")
            for h in merged { out.append(inner + "  " + TargetFileEditor.key(h.name) + ": " + YAMLScalar.quoted(h.value)) }
        }
        switch sample.body {
        case .json(let value)?:
            let json = pretty(value)
            if json.count == 1 {
                out.append(inner + "json: " + json[0])
            } else {
                out.append(inner + "json:")
                out += json.map { inner + "  " + $0 }
            }
        case .text(let text)?:
            out.append(inner + "body: " + YAMLScalar.quoted(text))
        case .file?:
            if let file { out.append(inner + "file: " + YAMLScalar.quoted(file)) }
        case .events(let events)?:
            out.append(inner + "events:" + (events.isEmpty ? " []" : ""))
            for (i, e) in events.enumerated() {
                var fields: [String] = []
                if let name = e.event { fields.append("event: " + YAMLScalar.quoted(name)) }
                fields.append("data: " + YAMLScalar.quoted(e.data))
                if let id = e.id { fields.append("id: " + YAMLScalar.quoted(id)) }
                if i == 0, let retry = sample.retry { fields.append("retry: \(retry)") }
                if e.delay > 0 { fields.append("delay: " + Text.fixed(e.delay * 1000, 0) + "ms") }
                out.append(inner + "  - { " + fields.joined(separator: ", ") + " }")
            }
        case .messages(let messages)?:
            out.append(inner + "messages:" + (messages.isEmpty ? " []" : ""))
            for m in messages {
                let delay = m.delay > 0 ? ", delay: " + Text.fixed(m.delay * 1000, 0) + "ms" : ""
                out.append(inner + "  - { text: " + YAMLScalar.quoted(m.data) + delay + " }")
            }
        case nil:
            break
        }
        if !sample.masked.isEmpty {
            out.append(inner + "masked: [" + sample.masked.map(YAMLScalar.quoted).joined(separator: ", ") + "]")
        }
        return out
    }

    /// Pretty JSON (two spaces a level), numbers as sent, members in the order received; short
    /// arrays of scalars stay on one line.
    static func pretty(_ value: Value) -> [String] {
        switch value {
        case .object(let members) where !members.isEmpty:
            var out = ["{"]
            for (i, m) in members.enumerated() {
                var lines = pretty(m.value)
                lines[0] = YAMLScalar.quoted(m.key) + ": " + lines[0]
                if i < members.count - 1 { lines[lines.count - 1] += "," }
                out += lines.map { "  " + $0 }
            }
            return out + ["}"]
        case .array(let items) where !items.isEmpty:
            let flat = items.allSatisfy { if case .object = $0 { return false }; if case .array = $0 { return false }; return true }
            let one = "[" + items.map(\.jsonText).joined(separator: ", ") + "]"
            if flat && one.count <= 80 { return [one] }
            var out = ["["]
            for (i, item) in items.enumerated() {
                var lines = pretty(item)
                if i < items.count - 1 { lines[lines.count - 1] += "," }
                out += lines.map { "  " + $0 }
            }
            return out + ["]"]
        default:
            return [value.jsonText]
        }
    }
}
