import APISupport
import APIJSON

/// A JSON Schema compiled once and used for any number of instances: draft 2020-12, draft 4 or
/// OpenAPI 3.0's dialect (`$schema` in the document picks, else `dialect`). References to other
/// documents go through `loader` (absolute URI without fragment → the document), never the network.
package struct JSONSchema: Sendable {
    package let root: SchemaNode
    let dynamic: [String: [String: SchemaNode]]
    let annotates: Bool

    /// Throws when the schema is not one (a keyword of the wrong shape, a `$ref` that resolves
    /// nowhere, a pattern that does not compile), naming where.
    package init(_ schema: JSONValue, uri: String = "urn:apicli:schema", dialect: SchemaDialect = .draft2020,
                loader: (@Sendable (String) -> JSONValue?)? = nil) throws(SchemaError) {
        try self.init(document: schema, pointer: "", uri: uri, dialect: dialect, loader: loader)
    }

    /// The schema at `pointer` (`/components/schemas/User`) inside `document`; messages give
    /// schema paths from the document's root (`#/components/schemas/User/properties/id`).
    package init(document: JSONValue, pointer: String, uri: String = "urn:apicli:schema", dialect: SchemaDialect = .draft2020,
                loader: (@Sendable (String) -> JSONValue?)? = nil) throws(SchemaError) {
        var registry = SchemaRegistry(loader: loader)
        let base = SchemaURI.stripFragment(uri)
        registry.add(document, uri: base, dialect: dialect, location: "#")
        guard let steps = SchemaURI.pointer(pointer) else {
            throw SchemaError(location: "#" + pointer, message: "not a JSON Pointer (it starts with /)")
        }
        var compiler = SchemaCompiler(registry: registry)
        root = try compiler.compile(place: .init(resource: base, pointer: steps))
        try compiler.compileDynamicAnchors()
        dynamic = compiler.dynamic
        annotates = compiler.annotates
    }

    /// The schema at `pointer` inside a document indexed once (`SchemaDocument`): the same as
    /// `init(document:pointer:…)`, without indexing the whole document again for each schema.
    package init(in prepared: SchemaDocument, pointer: String) throws(SchemaError) {
        guard let steps = SchemaURI.pointer(pointer) else {
            throw SchemaError(location: "#" + pointer, message: "not a JSON Pointer (it starts with /)")
        }
        var compiler = SchemaCompiler(registry: prepared.registry, shared: prepared.compiled)
        root = try compiler.compile(place: .init(resource: prepared.base, pointer: steps))
        try compiler.compileDynamicAnchors()
        prepared.compiled.add(compiler.cache)
        dynamic = compiler.dynamic
        annotates = compiler.annotates
    }

    /// Every violation (empty when `instance` satisfies the schema). The work is bounded on the
    /// caller's thread: `options.maxSteps` subschema evaluations, `options.timeLimit` seconds, and
    /// every `pattern` match `BoundedRegex`'s work limit; past a bound the answer says which.
    package func violations(of instance: JSONValue, options: SchemaOptions = SchemaOptions()) -> [SchemaViolation] {
        var errs: [SchemaViolation]? = []
        var ann = Annotations()
        let evaluator = SchemaEvaluator(options: options, dynamic: dynamic, annotates: annotates)
        _ = evaluator.eval(root, instance, .root, &errs, &ann)
        var found = (evaluator.exhaustion.map { [$0] } ?? []) + (errs ?? [])
        if let limit = evaluator.regexLimit, !found.contains(limit) { found.insert(limit, at: 0) }
        return found
    }

    /// Whether `instance` satisfies the schema.
    package func isValid(_ instance: JSONValue, options: SchemaOptions = SchemaOptions()) -> Bool {
        violations(of: instance, options: options).isEmpty
    }
}

/// A document indexed once (its resources and anchors) for compiling many schemas inside it:
/// every operation of an OpenAPI description of thousands compiles against one index, and a
/// schema node two operations reach (a shared component) is compiled once.
package struct SchemaDocument: Sendable {
    let registry: SchemaRegistry
    let base: String
    /// Every schema node compiled inside the document so far (each once).
    package let compiled = CompiledSchemas()

    package init(_ document: JSONValue, uri: String, dialect: SchemaDialect, loader: (@Sendable (String) -> JSONValue?)?) {
        var registry = SchemaRegistry(loader: loader)
        base = SchemaURI.stripFragment(uri)
        registry.add(document, uri: base, dialect: dialect, location: "#")
        self.registry = registry
    }
}
