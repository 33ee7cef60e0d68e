/// A value that fits a JSON Schema, for samples and parameters without examples: the schema's own
/// example, default, const or first enum value, else one built from its type and format (objects
/// with their required properties, arrays with one item). `allOf` parts are merged, `oneOf` and
/// `anyOf` take their first alternative. A schema that contains itself stops at the second visit.
struct SchemaSample {
    let loader: SpecLoader
    /// Schemas (by their `$ref`) being sampled right now, the recursion guard.
    private var active: Set<String> = []
    private var depth = 0
    /// Samples of `$ref`'d schemas taken outside any recursion (the same whoever asks again).
    private var cache: [String: YAMLOut] = [:]
    static let maxDepth = 12

    init(loader: SpecLoader) {
        self.loader = loader
    }

    /// A sample of `schema`, or nil when there is nothing to say (a cycle, an unreadable `$ref`).
    mutating func value(_ schema: SpecNode) -> YAMLOut? {
        guard let ref = schema.ref else { return sample(schema) }
        let key = SpecLoader.key(ref, from: schema.file)
        if active.contains(key) || depth >= Self.maxDepth { return nil }
        guard active.isEmpty, depth == 0 else { return sample(schema, guardKey: key) }
        if let hit = cache[key] { return hit }
        let v = sample(schema, guardKey: key)
        if v != nil { cache[key] = v }  // a failure is looked up (and reported) again where it recurs
        return v
    }

    private mutating func sample(_ schema: SpecNode, guardKey: String? = nil) -> YAMLOut? {
        guard let s = loader.resolve(schema) else { return nil }
        if let key = guardKey { active.insert(key) }
        depth += 1
        defer {
            depth -= 1
            if let key = guardKey { active.remove(key) }
        }
        if let given = Self.given(s) { return given }
        return built(s)
    }

    /// A value the schema states itself.
    static func given(_ s: SpecNode) -> YAMLOut? {
        if let e = s["example"] { return YAMLOut(e.node) }
        if let first = s["examples"]?.items.first { return YAMLOut(first.node) }  // 3.1: a list
        if let c = s["const"] { return YAMLOut(c.node) }
        if let d = s["default"] { return YAMLOut(d.node) }
        if let first = s["enum"]?.items.first { return YAMLOut(first.node) }
        return nil
    }

    private mutating func built(_ s: SpecNode) -> YAMLOut? {
        if let parts = s["allOf"]?.items, !parts.isEmpty { return merged(parts, into: s) }
        for key in ["oneOf", "anyOf"] {
            if let first = s[key]?.items.first { return value(first) }
        }
        switch Self.type(of: s) {
        case "object": return object(s)
        case "array": return s["items"].flatMap { value($0) }.map { .list([$0]) } ?? .list([])
        case "string": return .string(Self.string(format: s["format"]?.text))
        case "integer": return .number(s["minimum"]?.text.flatMap(YAMLScalar.number) ?? "0")
        case "number": return .number(s["minimum"]?.text.flatMap(YAMLScalar.number) ?? "0.0")
        case "boolean": return .bool(true)
        case "null": return .null
        default: return nil
        }
    }

    /// The schema's type: `type` (3.1 may list several: the first that is not null), else what its
    /// keys imply.
    static func type(of s: SpecNode) -> String? {
        if let t = s["type"]?.text { return t }
        if let list = s["type"]?.items.compactMap(\.text) { return list.first { $0 != "null" } ?? list.first }
        if s["properties"] != nil || s["additionalProperties"] != nil { return "object" }
        if s["items"] != nil { return "array" }
        return nil
    }

    /// The required properties (every property when the schema requires none), in written order.
    private mutating func object(_ s: SpecNode) -> YAMLOut {
        let required = Set(s["required"]?.items.compactMap(\.text) ?? [])
        var entries: [YAMLOut.Entry] = []
        for p in s["properties"]?.entries ?? [] where required.isEmpty || required.contains(p.key) {
            if let v = value(p.value) { entries.append(.pair(p.key, v)) }
        }
        return .map(entries)
    }

    /// `allOf`: the members of every part's sample, later parts winning, plus the schema's own properties.
    private mutating func merged(_ parts: [SpecNode], into s: SpecNode) -> YAMLOut? {
        var entries: [YAMLOut.Entry] = []
        var names: [String: Int] = [:]
        var samples = parts.compactMap { value($0) }
        if s["properties"] != nil { samples.append(object(s)) }
        for sample in samples {
            guard let pairs = sample.pairs else { return sample }  // not objects: the first part's value
            for (k, v) in pairs {
                if let i = names[k] { entries[i] = .pair(k, v) } else {
                    names[k] = entries.count
                    entries.append(.pair(k, v))
                }
            }
        }
        return .map(entries)
    }

    static func string(format: String?) -> String {
        switch format {
        case "date-time": return "2024-01-01T00:00:00Z"
        case "date": return "2024-01-01"
        case "time": return "12:00:00"
        case "email": return "user@example.com"
        case "uuid": return "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case "uri", "url": return "https://example.com"
        case "hostname": return "example.com"
        case "ipv4": return "192.0.2.1"
        case "ipv6": return "2001:db8::1"
        case "byte": return "c3RyaW5n"
        case "password": return "secret"
        default: return "string"
        }
    }

    /// Required properties of an object schema (through `$ref` and `allOf`), for `expect: json`.
    mutating func requiredProperties(_ schema: SpecNode) -> [String] {
        guard let s = loader.resolve(schema) else { return [] }
        var names = s["required"]?.items.compactMap(\.text) ?? []
        guard depth < Self.maxDepth else { return names }
        depth += 1
        defer { depth -= 1 }
        for part in s["allOf"]?.items ?? [] {
            for n in requiredProperties(part) where !names.contains(n) { names.append(n) }
        }
        return names
    }
}
