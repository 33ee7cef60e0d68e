/// A JSON Schema compiled once and used for any number of instances: draft 2020-12, draft 4 or
/// OpenAPI 3.0's dialect (`$schema` in the document picks, else `dialect`). References to other
/// documents go through `loader` (absolute URI without fragment → the document), never the network.
public struct JSONSchema: Sendable {
    let root: SchemaNode
    let dynamic: [String: [String: SchemaNode]]

    /// Throws when the schema is not one (a keyword of the wrong shape, a `$ref` that resolves
    /// nowhere, a pattern that does not compile), naming where.
    public init(_ schema: JSONValue, uri: String = "urn:apicli:schema", dialect: SchemaDialect = .draft2020,
                loader: (@Sendable (String) -> JSONValue?)? = nil) throws(SchemaError) {
        try self.init(document: schema, pointer: "", uri: uri, dialect: dialect, loader: loader)
    }

    /// The schema at `pointer` (`/components/schemas/User`) inside `document`; messages give
    /// schema paths from the document's root (`#/components/schemas/User/properties/id`).
    public init(document: JSONValue, pointer: String, uri: String = "urn:apicli:schema", dialect: SchemaDialect = .draft2020,
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
    }

    /// Every violation (empty when `instance` satisfies the schema).
    public func violations(of instance: JSONValue, options: SchemaOptions = SchemaOptions()) -> [SchemaViolation] {
        var errs: [SchemaViolation]? = []
        var ann = Annotations()
        let evaluator = SchemaEvaluator(options: options, dynamic: dynamic)
        _ = evaluator.eval(root, instance, .root, &errs, &ann)
        if let stopped = evaluator.exhaustion { return [stopped] + (errs ?? []) }
        return errs ?? []
    }

    /// Whether `instance` satisfies the schema (stops at the first violation).
    public func isValid(_ instance: JSONValue, options: SchemaOptions = SchemaOptions()) -> Bool {
        var errs: [SchemaViolation]? = nil
        var ann = Annotations()
        let evaluator = SchemaEvaluator(options: options, dynamic: dynamic)
        return evaluator.eval(root, instance, .root, &errs, &ann) && evaluator.exhaustedAt == nil
    }
}
