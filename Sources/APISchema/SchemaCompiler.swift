import APIJSON
import APISupport
/// A schema that cannot be used, with where in it (a JSON Pointer location) and why.
package struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    package let location: String
    package let message: String

    package init(location: String, message: String) {
        self.location = location
        self.message = message
    }
    package var description: String { "\(location): \(message)" }
}

/// Reads a schema document once into `SchemaNode`s: every keyword parsed, every `$ref` linked
/// (a cycle links back to the node being built), every `$dynamicAnchor` of every resource
/// compiled so that validation only looks things up.
struct SchemaCompiler {
    var registry: SchemaRegistry
    /// The nodes this compiler built (committed to `shared` when the whole compile succeeds).
    private(set) var cache: [String: SchemaNode] = [:]
    /// Nodes compiled earlier for the same document (`SchemaDocument`), looked up before building one.
    private let shared: CompiledSchemas?
    private(set) var dynamic: [String: [String: SchemaNode]] = [:]
    /// Schemas being compiled, one inside another (`$ref`s followed included): each is a few stack
    /// frames here and in validation, so a chain of 5,000 `$ref`s overflowed the stack.
    private var depth = 0
    /// The deepest nesting compiled (schemas within schemas and `$ref` chains alike).
    package static let maxDepth = 256

    package init(registry: SchemaRegistry, shared: CompiledSchemas? = nil) {
        self.registry = registry
        self.shared = shared
    }

    /// Whether any node compiled reads annotations (`unevaluatedProperties`/`Items`): when none
    /// does, validation does not record which properties and items were looked at. With a shared
    /// cache, any node of the document counts (recording more than needed changes no answer).
    var annotates: Bool { cache.values.contains { $0.needsAnnotations } || shared?.annotates == true }

    mutating func compile(place: SchemaRegistry.Place) throws(SchemaError) -> SchemaNode {
        guard let found = registry.walk(place) else {
            throw SchemaError(location: place.resource, message: "no schema at \(place.pointer.joined(separator: "/"))")
        }
        return try node(found.value, place: found.place, dialect: found.dialect, location: found.location)
    }

    /// Compiles the `$dynamicAnchor`s of every resource known so far (loading may add more).
    mutating func compileDynamicAnchors() throws(SchemaError) {
        var done = 0
        while true {
            let all = registry.dynamicAnchors.flatMap { r in r.value.map { (r.key, $0.key, $0.value) } }
            if all.count == done { return }
            done = all.count
            for (resource, name, place) in all where dynamic[resource]?[name] == nil {
                dynamic[resource, default: [:]][name] = try compile(place: place)
            }
        }
    }

    private mutating func node(_ value: JSONValue, place: SchemaRegistry.Place, dialect: SchemaDialect, location: String) throws(SchemaError) -> SchemaNode {
        let key = place.resource + "#/" + place.pointer.map(SchemaURI.escape).joined(separator: "/")
        if let done = cache[key] ?? shared?[key] { return done }
        let dialect = SchemaDialect.from(value["$schema"]?.stringValue) ?? dialect
        let hidden = dialect.refHidesSiblings && value["$ref"] != nil
        guard depth < Self.maxDepth else {
            throw SchemaError(location: location, message: "schemas nest (or $refs chain) deeper than \(Self.maxDepth) levels")
        }
        depth += 1
        defer { depth -= 1 }
        let n = SchemaNode(location: location, resource: place.resource)
        n.dialect = dialect
        cache[key] = n
        if case .bool(let b) = value { n.constant = b; return n }
        guard case .object(let members) = value else {
            throw SchemaError(location: location, message: "a schema is an object or a boolean, not \(value.text())")
        }
        var reader = KeywordReader(compiler: self, node: n, place: place, dialect: dialect)
        if hidden {
            try reader.ref(value["$ref"]!)
        } else {
            for member in members { try reader.read(member.key, member.value) }
            try reader.finish(value)
        }
        self = reader.compiler
        return n
    }

    fileprivate mutating func child(_ value: JSONValue, parent: SchemaRegistry.Place, steps: [String], dialect: SchemaDialect, location: String) throws(SchemaError) -> SchemaNode {
        let loc = location + steps.map { "/" + SchemaURI.escape($0) }.joined()
        let dialect = SchemaDialect.from(value["$schema"]?.stringValue) ?? dialect
        if let base = registry.identifier(value, dialect: dialect, in: parent.resource) {
            return try node(value, place: .init(resource: base, pointer: []), dialect: dialect, location: loc)
        }
        return try node(value, place: .init(resource: parent.resource, pointer: parent.pointer + steps), dialect: dialect, location: loc)
    }

    fileprivate mutating func resolve(_ ref: String, from place: SchemaRegistry.Place, dialect: SchemaDialect, location: String) throws(SchemaError) -> SchemaNode {
        let uri = SchemaURI.resolve(ref, against: place.resource)
        guard let found = registry.locate(uri, dialect: dialect) else {
            throw SchemaError(location: location, message: "$ref \"\(ref)\" does not resolve (looked for \(uri))")
        }
        return try node(found.value, place: found.place, dialect: found.dialect, location: found.location)
    }

    /// Reads one schema object's keywords into its node.
    private struct KeywordReader {
        var compiler: SchemaCompiler
        let node: SchemaNode
        let place: SchemaRegistry.Place
        let dialect: SchemaDialect

        init(compiler: SchemaCompiler, node: SchemaNode, place: SchemaRegistry.Place, dialect: SchemaDialect) {
            self.compiler = compiler
            self.node = node
            self.place = place
            self.dialect = dialect
        }

        var location: String { node.location }

        mutating func sub(_ v: JSONValue, _ steps: String...) throws(SchemaError) -> SchemaNode {
            try compiler.child(v, parent: place, steps: steps, dialect: dialect, location: location)
        }

        func bad(_ keyword: String, _ what: String) -> SchemaError {
            SchemaError(location: location + "/" + keyword, message: "\(keyword) must be \(what)")
        }

        func count(_ v: JSONValue, _ k: String) throws(SchemaError) -> Int {
            guard let d = v.numberValue, d >= 0, d == d.rounded(), d < 1e15 else { throw bad(k, "a non-negative integer") }
            return Int(d)
        }

        func number(_ v: JSONValue, _ k: String) throws(SchemaError) -> Double {
            guard let d = v.numberValue else { throw bad(k, "a number") }
            return d
        }

        mutating func list(_ v: JSONValue, _ k: String) throws(SchemaError) -> [SchemaNode] {
            guard case .array(let xs) = v else { throw bad(k, "an array of schemas") }
            var out: [SchemaNode] = []
            for (i, x) in xs.enumerated() { out.append(try sub(x, k, String(i))) }
            return out
        }

        mutating func map(_ v: JSONValue, _ k: String) throws(SchemaError) -> [(String, SchemaNode)] {
            guard case .object(let ms) = v else { throw bad(k, "an object of schemas") }
            var out: [(String, SchemaNode)] = []
            for m in ms { out.append((m.key, try sub(m.value, k, m.key))) }
            return out
        }

        mutating func ref(_ v: JSONValue) throws(SchemaError) {
            guard let r = v.stringValue else { throw bad("$ref", "a string") }
            node.ref = try compiler.resolve(r, from: place, dialect: dialect, location: location + "/$ref")
        }

        mutating func read(_ k: String, _ v: JSONValue) throws(SchemaError) {
            let draft = dialect.draft
            switch k {
            case "$ref": try ref(v)
            case "$dynamicRef" where draft == .d2020:
                guard let r = v.stringValue else { throw bad(k, "a string") }
                let target = try compiler.resolve(r, from: place, dialect: dialect, location: location + "/$dynamicRef")
                node.dynamicRef = target
                let uri = SchemaURI.resolve(r, against: place.resource)
                if let name = SchemaURI.fragment(uri), SchemaURI.pointer(name) == nil,
                   let bookend = compiler.registry.dynamicAnchors[SchemaURI.stripFragment(uri)]?[name],
                   compiler.registry.walk(bookend) != nil {
                    node.dynamicAnchorName = name
                }
            case "$recursiveRef" where draft == .d2019:
                // resolved like `$ref`; when its target starts with `$recursiveAnchor: true`, the
                // outermost resource of the dynamic scope that does too is used instead
                guard let r = v.stringValue else { throw bad(k, "a string") }
                node.dynamicRef = try compiler.resolve(r, from: place, dialect: dialect, location: location + "/$recursiveRef")
                let uri = SchemaURI.resolve(r, against: place.resource)
                if (SchemaURI.fragment(uri) ?? "").isEmpty,
                   compiler.registry.dynamicAnchors[SchemaURI.stripFragment(uri)]?[SchemaRegistry.recursiveAnchor] != nil {
                    node.dynamicAnchorName = SchemaRegistry.recursiveAnchor
                }
            case "type":
                if let s = v.stringValue { node.types = [s] }
                else if case .array(let xs) = v { node.types = xs.compactMap(\.stringValue) }
                else { throw bad(k, "a string or an array of strings") }
                if dialect == .swagger2, node.types == ["file"] { node.types = nil }  // a file: any content
            case "nullable" where dialect == .openAPI30: node.nullable = v == .bool(true)
            case "x-nullable" where dialect == .swagger2: node.nullable = v == .bool(true)
            case "readOnly" where dialect.directional: node.readOnly = v == .bool(true)
            case "writeOnly" where dialect.directional && dialect != .swagger2: node.writeOnly = v == .bool(true)
            case "enum":
                guard case .array(let xs) = v else { throw bad(k, "an array") }
                node.enumValues = xs
            case "const" where draft >= .d6: node.constValue = v
            case "format": node.format = v.stringValue
            case "minimum": node.minimum = try number(v, k)
            case "maximum": node.maximum = try number(v, k)
            case "exclusiveMinimum" where draft >= .d6: node.exclusiveMinimum = try number(v, k)
            case "exclusiveMaximum" where draft >= .d6: node.exclusiveMaximum = try number(v, k)
            case "exclusiveMinimum", "exclusiveMaximum": break  // draft 4: a boolean beside minimum/maximum, read in finish
            case "multipleOf":
                let d = try number(v, k)
                guard d > 0 else { throw bad(k, "a number above 0") }
                node.multipleOf = d
            case "minLength": node.minLength = try count(v, k)
            case "maxLength": node.maxLength = try count(v, k)
            case "pattern":
                guard let s = v.stringValue else { throw bad(k, "a string") }
                let p = SchemaPattern(s)
                guard p.regex != nil else { throw bad(k, "a valid regular expression (\(s))") }
                node.pattern = p
            case "prefixItems" where draft == .d2020: node.prefixItems = try list(v, k)
            case "items":
                if draft <= .d2019, case .array = v { node.prefixItems = try list(v, k) } else { node.items = try sub(v, k) }
            case "additionalItems" where draft <= .d2019: break  // read in finish, after items
            case "contains" where draft >= .d6:
                node.contains = try sub(v, k)
                node.containsAnnotates = draft == .d2020
            case "minContains" where draft >= .d2019: node.minContains = try count(v, k)
            case "maxContains" where draft >= .d2019: node.maxContains = try count(v, k)
            case "minItems": node.minItems = try count(v, k)
            case "maxItems": node.maxItems = try count(v, k)
            case "uniqueItems": node.uniqueItems = v == .bool(true)
            case "unevaluatedItems" where draft >= .d2019: node.unevaluatedItems = try sub(v, k)
            case "properties": node.properties = Dictionary(try map(v, k), uniquingKeysWith: { $1 })
            case "patternProperties":
                for (p, n) in try map(v, k) {
                    let pattern = SchemaPattern(p)
                    guard pattern.regex != nil else { throw bad(k, "keyed by valid regular expressions (\(p))") }
                    node.patternProperties.append((pattern, n))
                }
            case "additionalProperties": node.additionalProperties = try sub(v, k)
            case "propertyNames" where draft >= .d6: node.propertyNames = try sub(v, k)
            case "required":
                guard case .array(let xs) = v else { throw bad(k, "an array of strings") }
                node.required = xs.compactMap(\.stringValue)
            case "dependentRequired" where draft >= .d2019:
                guard case .object(let ms) = v else { throw bad(k, "an object") }
                node.dependentRequired += ms.map { ($0.key, $0.value.arrayValue.compactMap(\.stringValue)) }
            case "dependentSchemas" where draft >= .d2019: node.dependentSchemas += try map(v, k)
            case "dependencies" where draft <= .d7:
                guard case .object(let ms) = v else { throw bad(k, "an object") }
                for m in ms {
                    if case .array(let names) = m.value { node.dependentRequired.append((m.key, names.compactMap(\.stringValue))) }
                    else { node.dependentSchemas.append((m.key, try sub(m.value, k, m.key))) }
                }
            case "minProperties": node.minProperties = try count(v, k)
            case "maxProperties": node.maxProperties = try count(v, k)
            case "unevaluatedProperties" where draft >= .d2019: node.unevaluatedProperties = try sub(v, k)
            case "allOf": node.allOf = try list(v, k)
            case "anyOf": node.anyOf = try list(v, k)
            case "oneOf": node.oneOf = try list(v, k)
            case "not": node.not = try sub(v, k)
            case "if" where draft >= .d7: node.ifNode = try sub(v, k)
            case "then" where draft >= .d7: node.thenNode = try sub(v, k)
            case "else" where draft >= .d7: node.elseNode = try sub(v, k)
            case "definitions":
                _ = try map(v, k)  // compiled so that a bad one is reported at load time
            case "$defs" where draft >= .d2019:
                _ = try map(v, k)
            case "discriminator" where dialect == .openAPI30:
                guard let name = v["propertyName"]?.stringValue else { throw bad(k, "an object with propertyName") }
                var mapping: [String: SchemaNode] = [:]
                if case .object(let ms)? = v["mapping"] {
                    for m in ms {
                        guard let r = m.value.stringValue else { throw bad(k, "a mapping of names to references") }
                        let target = r.contains("#") || r.contains("/") ? r : "#/components/schemas/" + r
                        mapping[m.key] = try compiler.resolve(target, from: place, dialect: dialect, location: location + "/discriminator")
                    }
                }
                node.discriminator = (name, mapping)
            case "discriminator" where dialect == .swagger2:
                // Swagger 2.0: the property whose value names this definition or one inheriting it
                // (`allOf` with a `$ref` to it, at any remove); only those are compiled
                guard let name = v.stringValue else { throw bad(k, "a string (the property naming the definition, Swagger 2.0)") }
                var mapping: [String: SchemaNode] = [:]
                if place.pointer.count == 2, place.pointer[0] == "definitions",
                   case .object(let definitions)? = compiler.registry.resources[place.resource]?.value["definitions"] {
                    for heir in Self.heirs(of: place.pointer[1], in: definitions) {
                        mapping[heir] = try compiler.resolve("#/definitions/" + SchemaURI.escape(heir), from: place, dialect: dialect,
                                                             location: location + "/discriminator")
                    }
                }
                node.discriminator = (name, mapping)
            default: break
            }
        }

        /// `name` and the definitions that inherit it through `allOf: [{$ref: "#/definitions/…"}]`, at any remove.
        static func heirs(of name: String, in definitions: [(key: String, value: JSONValue)]) -> [String] {
            var parents: [String: [String]] = [:]  // parent → children
            for d in definitions {
                guard case .array(let parts)? = d.value["allOf"] else { continue }
                for part in parts {
                    if let r = part["$ref"]?.stringValue, r.hasPrefix("#"), let steps = SchemaURI.pointer(String(r.dropFirst())),
                       steps.count == 2, steps[0] == "definitions" {
                        parents[steps[1], default: []].append(d.key)
                    }
                }
            }
            var found = [name], seen: Set<String> = [name], i = 0
            while i < found.count {
                for child in parents[found[i]] ?? [] where seen.insert(child).inserted { found.append(child) }
                i += 1
            }
            return found
        }

        mutating func finish(_ value: JSONValue) throws(SchemaError) {
            if dialect.draft == .d4 {
                if let max = value["maximum"]?.numberValue, value["exclusiveMaximum"] == .bool(true) {
                    node.maximum = nil
                    node.exclusiveMaximum = max
                }
                if let min = value["minimum"]?.numberValue, value["exclusiveMinimum"] == .bool(true) {
                    node.minimum = nil
                    node.exclusiveMinimum = min
                }
            }
            if dialect.draft <= .d2019, case .array? = value["items"], let extra = value["additionalItems"] {
                node.items = try sub(extra, "additionalItems")
            }
        }
    }
}

/// The schemas compiled inside one document (`SchemaDocument`), by place, shared by every schema
/// compiled from it, on any thread: each distinct schema node is compiled once per document, not
/// once per operation that reaches it (issue 36: an import compiled shared components for every
/// operation, and every operation twice). Only whole compiles are added: a compile that fails
/// leaves nothing half-built behind.
package final class CompiledSchemas: Sendable {
    private let nodes = Locked<(byPlace: [String: SchemaNode], annotates: Bool, compiles: Int)>(([:], false, 0))

    package init() {}

    subscript(key: String) -> SchemaNode? { nodes.withLock { $0.byPlace[key] } }

    var annotates: Bool { nodes.withLock { $0.annotates } }

    /// How many schema nodes were compiled for the document (each distinct one once, unless two
    /// threads compiled it at the same time) and how many distinct places they are at.
    package var counts: (compiled: Int, distinct: Int) { nodes.withLock { ($0.compiles, $0.byPlace.count) } }

    func add(_ compiled: [String: SchemaNode]) {
        guard !compiled.isEmpty else { return }
        let annotates = compiled.values.contains { $0.needsAnnotations }
        nodes.withLock {
            $0.byPlace.merge(compiled) { old, _ in old }
            $0.annotates = $0.annotates || annotates
            $0.compiles += compiled.count
        }
    }
}

extension JSONValue {
    var arrayValue: [JSONValue] { if case .array(let xs) = self { return xs }; return [] }
}
