import APIYAML
import APISchema
import APITransport
/// A value that fits a JSON Schema, for samples and parameters without examples: the schema's own
/// const, example, default or enum value, else one built from its type and its validation keywords
/// (objects with their required properties and `minProperties`, arrays of `minItems`…`maxItems`
/// items, distinct under `uniqueItems`; strings and numbers in `SchemaSampleScalars.swift`).
/// `allOf` parts are merged, `oneOf`/`anyOf` take their first alternative (with its `discriminator`
/// value). A schema that contains itself stops at the second visit (an object whose required
/// property stops there fails, so its caller leaves it out or takes another); depth is bounded.
struct SchemaSample {
    let loader: SpecLoader
    /// Schemas (by their `$ref`) being sampled right now, the recursion guard.
    private var active: Set<String> = []
    private var depth = 0
    /// Samples of `$ref`'d schemas taken outside any recursion (the same whoever asks again).
    private var cache: [String: YAMLOut] = [:]
    /// Set when a sample stopped at the recursion guard: an object whose required property stopped
    /// there cannot be completed, and fails as a whole (so a caller can take another property).
    private var cycled = false
    /// Set for a second try of a schema that cannot be completed anywhere (one that requires itself):
    /// the partial sample then, rather than none.
    private var lenient = false
    /// `.response` leaves out `writeOnly` properties, `.request` `readOnly` ones (OpenAPI: they
    /// must not be returned, or sent); `.any` keeps both (parameters).
    var direction: SchemaOptions.Direction = .any
    static let maxDepth = 64
    /// The most items an array sample gets, whatever its `minItems` says.
    static let maxItems = 100

    init(loader: SpecLoader) {
        self.loader = loader
    }

    /// A sample of `schema`, or nil when there is nothing to say (a cycle, an unreadable `$ref`).
    /// `variant` > 0 asks for another value of the same schema (distinct array items).
    mutating func value(_ schema: SpecNode, variant: Int = 0) -> YAMLOut? {
        guard active.isEmpty, depth == 0, !lenient else { return guarded(schema, variant: variant) }
        cycled = false
        if let v = guarded(schema, variant: variant) { return v }
        guard cycled else { return nil }
        lenient = true
        defer { lenient = false }
        return guarded(schema, variant: variant)
    }

    private mutating func guarded(_ schema: SpecNode, variant: Int) -> YAMLOut? {
        guard let ref = schema.ref else { return sample(schema, variant: variant) }
        let key = SpecLoader.key(ref, from: schema.file) + " \(direction)"
        if active.contains(key) || depth >= Self.maxDepth {
            cycled = true
            return nil
        }
        guard active.isEmpty, depth == 0, variant == 0 else { return sample(schema, guardKey: key, variant: variant) }
        if let hit = cache[key] { return hit }
        let v = sample(schema, guardKey: key, variant: variant)
        if v != nil { cache[key] = v }  // a failure is looked up (and reported) again where it recurs
        return v
    }

    private mutating func sample(_ schema: SpecNode, guardKey: String? = nil, variant: Int) -> YAMLOut? {
        guard depth < Self.maxDepth, let s = loader.resolve(schema) else { return nil }
        if let key = guardKey { active.insert(key) }
        depth += 1
        defer {
            depth -= 1
            if let key = guardKey { active.remove(key) }
        }
        let v = Self.given(s, variant: variant) ?? built(s, variant: variant)
        guard let v, let not = s["not"].flatMap({ loader.resolve($0) }), Self.excluded(v, by: not) else { return v }
        for k in 1...3 {  // `not`: another variant
            if let other = Self.given(s, variant: variant + k) ?? built(s, variant: variant + k), !Self.excluded(other, by: not) { return other }
        }
        for type in s["type"]?.items.compactMap(\.text) ?? [] {  // or another of its types
            if let other = built(s, variant: variant, type: type), !Self.excluded(other, by: not) { return other }
        }
        loader.warn(not.warning("no sample outside this 'not' could be made; write an example"))
        return v
    }

    /// Whether `not` plainly rejects `v`: by its `const`, `enum` or `type` (other keywords are not judged).
    static func excluded(_ v: YAMLOut, by not: SpecNode) -> Bool {
        if let c = not["const"], YAMLOut(c.node) == v { return true }
        if let values = not["enum"]?.items, values.contains(where: { YAMLOut($0.node) == v }) { return true }
        guard let type = not["type"]?.text, not.entries.count == 1 else { return false }
        switch (type, v) {
        case ("string", .string), ("boolean", .bool), ("null", .null), ("array", .list), ("object", .map), ("number", .number): return true
        case ("integer", .number(let n)): return !n.contains(".") && !n.lowercased().contains("e")
        default: return false
        }
    }

    /// A value the schema states itself (for a `variant`, another of its enum values or examples).
    static func given(_ s: SpecNode, variant: Int) -> YAMLOut? {
        if let c = s["const"] { return YAMLOut(c.node) }
        let examples = s["examples"]?.items ?? []  // 3.1: a list
        let values = s["enum"]?.items ?? []
        if variant == 0 {
            if let e = s["example"] { return YAMLOut(e.node) }
            if let first = examples.first { return YAMLOut(first.node) }
            if let d = s["default"] { return YAMLOut(d.node) }
            return values.first.map { YAMLOut($0.node) }
        }
        if variant < examples.count { return YAMLOut(examples[variant].node) }
        return values.isEmpty ? nil : YAMLOut(values[variant % values.count].node)
    }

    private mutating func built(_ s: SpecNode, variant: Int, type: String? = nil) -> YAMLOut? {
        if let parts = s["allOf"]?.items, !parts.isEmpty { return merged(parts, into: s, variant: variant) }
        for key in ["oneOf", "anyOf"] {
            if let first = s[key]?.items.first {
                var v = value(first, variant: variant)
                // The schema's own properties hold beside the alternative's (`required: [id]` next to `oneOf`)
                if s["properties"] != nil || s["required"] != nil, let alternative = v, let pairs = alternative.pairs {
                    guard let own = object(s, variant: variant, given: Set(pairs.map(\.0))) else { return nil }
                    v = Self.union([own, alternative])
                }
                return Self.discriminated(v, s, chosen: first, fixed: fixedByEnum(first, s["discriminator"]?["propertyName"]?.text))
            }
        }
        switch type ?? Self.type(of: s) {
        case "object": return object(s, variant: variant)
        case "array": return array(s)
        case "string": return .string(string(s, variant: variant))
        case "integer": return .number(Self.number(s, integer: true, variant: variant))
        case "number": return .number(Self.number(s, integer: false, variant: variant))
        case "boolean": return .bool(variant % 2 == 0)
        case "null": return .null
        default: return nil
        }
    }

    /// The schema's type: `type` (3.1 may list several: the first that is not null), else what its
    /// keys imply.
    static func type(of s: SpecNode) -> String? {
        if let t = s["type"]?.text { return t }
        if let list = s["type"]?.items.compactMap(\.text) { return list.first { $0 != "null" } ?? list.first }
        if s["properties"] != nil || s["additionalProperties"] != nil || s["required"] != nil { return "object" }
        if s["items"] != nil || s["prefixItems"] != nil { return "array" }
        if s["minLength"] != nil || s["maxLength"] != nil || s["pattern"] != nil || s["format"] != nil { return "string" }
        if s["minimum"] != nil || s["maximum"] != nil || s["multipleOf"] != nil { return "number" }
        return nil
    }

    /// The required properties (every property when the schema requires none, at most
    /// `maxProperties`), then optional ones up to `minProperties`; a required name without a
    /// property schema gets a string.
    /// `given`: names another part of the schema (an `allOf` part, the chosen `oneOf`) already
    /// sampled from its property schema; a name only required here keeps that value.
    private mutating func object(_ s: SpecNode, variant: Int, given: Set<String> = []) -> YAMLOut? {
        let requiredList = s["required"]?.items.compactMap(\.text) ?? []
        let required = Set(requiredList)
        let minimum = s["minProperties"]?.text.flatMap { Int($0) }.map { min($0, Self.maxItems) } ?? 0
        // `maxProperties` bounds the optional ones (a schema requiring none gets all of its properties otherwise)
        let maximum = s["maxProperties"]?.text.flatMap { Int($0) }.map { max($0, required.count, minimum) } ?? Int.max
        var entries: [YAMLOut.Entry] = []
        var names: Set<String> = []
        let all = s["properties"]?.entries ?? []
        let properties = all.filter { !excluded($0.value) }
        for p in properties where required.contains(p.key) || required.isEmpty && names.count < maximum {
            let outer = cycled
            cycled = false
            let v = value(p.value, variant: variant)
            defer { cycled = cycled || outer }
            if let v { entries.append(.pair(p.key, v)); names.insert(p.key) } else if cycled, !lenient, required.contains(p.key) { return nil }
            else if !cycled, required.contains(p.key), let schema = loader.resolve(p.value), Self.type(of: schema) == nil,
                    schema["type"] == nil, schema["not"] == nil {
                // A required property without a type (or anything implying one) accepts any value: a string
                entries.append(.pair(p.key, .string("string")))
                names.insert(p.key)
            }
        }
        for p in properties where names.count < minimum && !names.contains(p.key) {
            if let v = value(p.value, variant: variant) { entries.append(.pair(p.key, v)); names.insert(p.key) }
        }
        let extra = s["additionalProperties"]
        for name in requiredList where !names.contains(name) && !given.contains(name) && !all.contains(where: { $0.key == name }) {
            entries.append(.pair(name, extra.flatMap { value($0, variant: variant) } ?? .string("string")))
            names.insert(name)
        }
        var n = 0
        while names.count < minimum, extra?.bool != false {
            n += 1
            let name = "property\(n)"
            if names.insert(name).inserted { entries.append(.pair(name, extra.flatMap { value($0) } ?? .string("string"))) }
        }
        return .map(entries)
    }

    /// A property this direction must not carry (`writeOnly` in a response, `readOnly` in a request).
    private func excluded(_ property: SpecNode) -> Bool {
        guard direction != .any, let p = loader.resolve(property) else { return false }
        return p[direction == .response ? "writeOnly" : "readOnly"]?.bool == true
    }

    /// `minItems` items (one when it says nothing), at most `maxItems`; `prefixItems` first; with
    /// `uniqueItems`, each item another variant of the item schema.
    private mutating func array(_ s: SpecNode) -> YAMLOut {
        let minItems = s["minItems"]?.text.flatMap { Int($0) } ?? 0
        let maxItems = s["maxItems"]?.text.flatMap { Int($0) }
        let prefix = s["prefixItems"]?.items ?? []
        var count = max(minItems, prefix.count, 1)
        if let maxItems { count = min(count, maxItems) }
        count = min(max(count, 0), Self.maxItems)
        let unique = s["uniqueItems"]?.bool == true
        var items: [YAMLOut] = []
        for i in 0..<count {
            let schema = i < prefix.count ? prefix[i] : s["items"]
            guard let schema else {
                items.append(.string(i == 0 ? "string" : "string\(i)"))
                continue
            }
            guard let v = value(schema, variant: unique ? i : 0) else { break }
            if unique, items.contains(v) { break }
            items.append(v)
        }
        if items.count < minItems {
            loader.warn(s.warning("the sample of this array has \(items.count) item\(items.count == 1 ? "" : "s"), fewer than minItems \(minItems) (no more distinct items could be made)"))
        }
        return .list(items)
    }

    /// `allOf`: the members of every part's sample, later parts winning, plus the schema's own properties.
    private mutating func merged(_ parts: [SpecNode], into s: SpecNode, variant: Int) -> YAMLOut? {
        var samples: [YAMLOut] = []
        for part in parts {
            let outer = cycled
            cycled = false
            let v = value(part, variant: variant)
            defer { cycled = cycled || outer }
            if let v { samples.append(v) } else if cycled, !lenient { return nil }  // a part stopped at the recursion guard
        }
        if s["properties"] != nil || s["required"] != nil {
            guard let own = object(s, variant: variant, given: Set(samples.flatMap { $0.pairs?.map(\.0) ?? [] })) else { return nil }
            samples.append(own)
        }
        return allowed(Self.union(samples), by: parts)
    }

    /// `merged` with each property that a part fixes by `const` or `enum` (and another part
    /// sampled to something else: PagerDuty's `type: string` beside a later `enum: [extension]`)
    /// given the part's first allowed value.
    private func allowed(_ merged: YAMLOut, by parts: [SpecNode]) -> YAMLOut {
        guard let pairs = merged.pairs else { return merged }
        let fixing = parts.compactMap { loader.resolve($0)?["properties"] }
        guard !fixing.isEmpty else { return merged }
        return .map(pairs.map { name, value in
            for properties in fixing {
                guard let p = properties[name].flatMap({ loader.resolve($0) }) else { continue }
                let values = p["const"].map { [$0] } ?? p["enum"]?.items ?? []
                if let first = values.first, !values.contains(where: { YAMLOut($0.node) == value }) { return .pair(name, YAMLOut(first.node)) }
            }
            return .pair(name, value)
        })
    }

    /// The members of every sample, later ones winning; not objects: the first sample.
    static func union(_ samples: [YAMLOut]) -> YAMLOut {
        var entries: [YAMLOut.Entry] = []
        var names: [String: Int] = [:]
        for sample in samples {
            guard let pairs = sample.pairs else { return sample }
            for (k, v) in pairs {
                if let i = names[k] { entries[i] = .pair(k, v) } else {
                    names[k] = entries.count
                    entries.append(.pair(k, v))
                }
            }
        }
        return .map(entries)
    }

    /// Whether the alternative itself fixes `property` by `const` or `enum` (in its properties or
    /// those of its `allOf` parts): then its sample already holds a value it accepts.
    private func fixedByEnum(_ schema: SpecNode, _ property: String?, depth: Int = 0) -> Bool {
        guard let property, depth < 8, let s = loader.resolve(schema) else { return false }
        if let p = s["properties"]?[property].flatMap({ loader.resolve($0) }), p["const"] != nil || p["enum"] != nil { return true }
        return (s["allOf"]?.items ?? []).contains { fixedByEnum($0, property, depth: depth + 1) }
    }

    /// The chosen alternative's sample with the `discriminator` property set to the name that
    /// selects it (the `mapping` key naming its `$ref`, else the `$ref`'s last component, unless
    /// the alternative fixes the property's value by `const`/`enum` itself).
    static func discriminated(_ v: YAMLOut?, _ s: SpecNode, chosen: SpecNode, fixed: Bool = false) -> YAMLOut? {
        guard let v, case .map(var entries) = v, let property = s["discriminator"]?["propertyName"]?.text,
              let ref = chosen.ref else { return v }
        // A mapping value is a reference or a schema's bare name (`kitty: Kitten`)
        let mapped = s["discriminator"]?["mapping"]?.entries.first { m in
            m.value.text.map { $0 == ref || !$0.contains("/") && ref == "#/components/schemas/" + $0 } ?? false
        }?.key
        if mapped == nil, fixed, entries.contains(where: { if case .pair(property, _) = $0 { return true } else { return false } }) {
            return v
        }
        let name = mapped ?? ref.split(separator: "/").last.map(String.init) ?? ref
        if let i = entries.firstIndex(where: { if case .pair(property, _) = $0 { return true } else { return false } }) {
            entries[i] = .pair(property, .string(name))
        } else {
            entries.append(.pair(property, .string(name)))
        }
        return .map(entries)
    }

    /// Required properties of an object schema (through `$ref` and `allOf`), for `expect: json`.
    mutating func requiredProperties(_ schema: SpecNode) -> [String] {
        guard let s = loader.resolve(schema) else { return [] }
        var names: [String] = []
        // A name listed twice (OpenAI's description does) is one field: `expect: json:` keys are unique.
        for n in s["required"]?.items.compactMap(\.text) ?? [] where !names.contains(n) { names.append(n) }
        guard depth < Self.maxDepth else { return names }
        depth += 1
        defer { depth -= 1 }
        for part in s["allOf"]?.items ?? [] {
            for n in requiredProperties(part) where !names.contains(n) { names.append(n) }
        }
        return names
    }
}
