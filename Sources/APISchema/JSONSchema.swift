import APISupport
import APIJSON
import Dispatch

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
        var compiler = SchemaCompiler(registry: prepared.registry)
        root = try compiler.compile(place: .init(resource: prepared.base, pointer: steps))
        try compiler.compileDynamicAnchors()
        dynamic = compiler.dynamic
        annotates = compiler.annotates
    }

    /// Every violation (empty when `instance` satisfies the schema). The whole validation runs on
    /// a thread of its own with `options.timeLimit`: `pattern`s are matched there directly (one
    /// bound for the document, not a thread per string); past the limit the answer is one
    /// violation saying so, and that thread runs on until the process ends, as `BoundedRegex`'s do.
    package func violations(of instance: JSONValue, options: SchemaOptions = SchemaOptions()) -> [SchemaViolation] {
        let (root, dynamic, annotates) = (self.root, self.dynamic, self.annotates)
        let result = Locked<[SchemaViolation]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Detached.run {
            var errs: [SchemaViolation]? = []
            var ann = Annotations()
            let evaluator = SchemaEvaluator(options: options, dynamic: dynamic, annotates: annotates)
            _ = evaluator.eval(root, instance, .root, &errs, &ann)
            let found = (evaluator.exhaustion.map { [$0] } ?? []) + (errs ?? [])
            result.withLock { $0 = found }
            done.signal()
        }
        guard done.wait(timeout: .now() + options.timeLimit) == .success else {
            return [SchemaViolation(instancePath: "$", schemaPath: root.location, keyword: "pattern",
                                    expected: "an answer within \(options.timeLimit) s", got: "none",
                                    message: "validation gave no answer within \(options.timeLimit) s (a pattern that backtracks without end?)")]
        }
        return result.withLock { $0 } ?? []
    }

    /// Whether `instance` satisfies the schema.
    package func isValid(_ instance: JSONValue, options: SchemaOptions = SchemaOptions()) -> Bool {
        violations(of: instance, options: options).isEmpty
    }
}

/// A document indexed once (its resources and anchors) for compiling many schemas inside it:
/// every operation of an OpenAPI description of thousands compiles against one index.
package struct SchemaDocument: Sendable {
    let registry: SchemaRegistry
    let base: String

    package init(_ document: JSONValue, uri: String, dialect: SchemaDialect, loader: (@Sendable (String) -> JSONValue?)?) {
        var registry = SchemaRegistry(loader: loader)
        base = SchemaURI.stripFragment(uri)
        registry.add(document, uri: base, dialect: dialect, location: "#")
        self.registry = registry
    }
}
