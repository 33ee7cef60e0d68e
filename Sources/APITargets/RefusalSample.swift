import APIJSON
import APISchema

/// A small value a JSON Schema accepts, for `mock --validate`'s refusal when the operation
/// documents the refusal's body (`400: { $ref: Problem }`) and the mock's own body does not fit
/// it: the schema's `const`, `example`, `default` or first `enum` value, else one built from its
/// type (an object of its required properties, `minItems` items, a string of `minLength`, a number
/// at its bounds). `allOf` objects are merged, `oneOf`/`anyOf` take their first alternative; `$ref`s
/// are followed (depth bounded). The caller judges the value by the compiled schema: one it
/// rejects (a `pattern`…) is not used.
struct RefusalSample {
    let loader: @Sendable (String) -> JSONValue?
    static let maxDepth = 24

    func value(_ start: OpenAPIContract.Place, depth: Int = 0) -> JSONValue? {
        guard depth < Self.maxDepth, let at = OpenAPIContract.follow(start, loader: loader) else { return nil }
        let node = at.node
        if let v = node["const"] ?? node["example"] ?? node["default"] { return v }
        if case .array(let options)? = node["enum"], let first = options.first { return first }
        func child(_ key: String, _ raw: JSONValue) -> OpenAPIContract.Place {
            OpenAPIContract.Place(value: at.value, path: at.path, pointer: at.pointer + "/" + key, node: raw)
        }
        if case .array(let parts)? = node["allOf"] {
            var merged: [(key: String, value: JSONValue)] = []
            for (i, part) in parts.enumerated() {
                guard case .object(let members)? = value(child("allOf/\(i)", part), depth: depth + 1) else { return nil }
                for m in members where !merged.contains(where: { $0.key == m.key }) { merged.append(m) }
            }
            return .object(merged)
        }
        for key in ["oneOf", "anyOf"] {
            if case .array(let parts)? = node[key], let first = parts.first { return value(child(key + "/0", first), depth: depth + 1) }
        }
        var type = node["type"]?.stringValue
        if case .array(let types)? = node["type"] { type = types.compactMap(\.stringValue).first { $0 != "null" } ?? "null" }
        if type == nil, node["properties"] != nil { type = "object" }
        switch type {
        case "object":
            var out: [(key: String, value: JSONValue)] = []
            let properties = node["properties"]?.members ?? []
            var required: [JSONValue] = []
            if case .array(let list)? = node["required"] { required = list }
            for case .string(let name) in required where !out.contains(where: { $0.key == name }) {
                let raw = properties.first { $0.key == name }?.value ?? node["additionalProperties"] ?? .object([])
                let pointer = properties.contains { $0.key == name } ? "properties/" + SchemaURI.escape(name) : "additionalProperties"
                guard let v = value(child(pointer, raw), depth: depth + 1) else { return nil }
                out.append((name, v))
            }
            return .object(out)
        case "array":
            var count = 0
            if case .number(let n)? = node["minItems"] { count = Int(min(max(n, 0), 16)) }
            guard count > 0 else { return .array([]) }
            guard let items = node["items"], let item = value(child("items", items), depth: depth + 1) else { return nil }
            return .array(Array(repeating: item, count: count))
        case "string":
            switch node["format"]?.stringValue {
            case "date-time": return .string("1970-01-01T00:00:00Z")
            case "date": return .string("1970-01-01")
            case "uuid": return .string("00000000-0000-0000-0000-000000000000")
            case "email": return .string("refused@example.com")
            case "uri", "url": return .string("https://example.com/")
            default:
                var least = 0
                if case .number(let n)? = node["minLength"] { least = Int(min(max(n, 0), 1024)) }
                return .string(String(repeating: "x", count: least))
            }
        case "integer", "number":
            func bound(_ key: String) -> Double? { if case .number(let n)? = node[key] { return n }; return nil }
            if let low = bound("minimum") { return .number(low.rounded(.up)) }
            if let low = bound("exclusiveMinimum") { return .number(low.rounded(.down) + 1) }
            if let high = bound("maximum"), high < 0 { return .number(high.rounded(.down)) }
            return .number(0)
        case "boolean": return .bool(false)
        case "null": return .null
        default: return .object([])
        }
    }
}
