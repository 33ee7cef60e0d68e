import APISupport
import APIJSON
/// Which rules a schema follows: `$schema` in the document (or in an embedded resource) picks one,
/// else the caller's default. Every rule below is read while compiling, never while validating.
package enum SchemaDialect: Sendable, Equatable, CaseIterable {
    /// Draft 4: `id`, boolean `exclusiveMaximum`, array `items` + `additionalItems`,
    /// `dependencies`, and `$ref` hiding its siblings.
    case draft4
    /// Draft 6: draft 4 with `$id`, numeric `exclusiveMaximum`, `const`, `contains`, `propertyNames`.
    case draft6
    /// Draft 7: draft 6 with `if`/`then`/`else`.
    case draft7
    /// Draft 2019-09: `$ref` beside other keywords, `$anchor`, `$recursiveRef`/`$recursiveAnchor`,
    /// `dependentRequired`/`dependentSchemas`, `unevaluated*`, `minContains`/`maxContains`.
    case draft2019
    /// Draft 2020-12 (OpenAPI 3.1): `prefixItems`, `$dynamicRef`/`$dynamicAnchor`.
    case draft2020
    /// OpenAPI 3.0's Schema Object: draft 4 plus `nullable`, `discriminator`,
    /// `readOnly`/`writeOnly` by direction (`example` is an annotation).
    case openAPI30
    /// OpenAPI 3.1's (and 3.2's) dialect: draft 2020-12 plus `readOnly`/`writeOnly` by direction.
    case openAPI31
    /// Swagger 2.0's Schema Object: draft 4 plus `x-nullable`, `type: file`, a string
    /// `discriminator` (naming a definition), `readOnly` by direction.
    case swagger2

    /// The JSON Schema draft whose keywords it reads.
    enum Draft: Int, Comparable {
        case d4 = 4, d6 = 6, d7 = 7, d2019 = 2019, d2020 = 2020
        static func < (a: Draft, b: Draft) -> Bool { a.rawValue < b.rawValue }
    }

    var draft: Draft {
        switch self {
        case .draft4, .openAPI30, .swagger2: return .d4
        case .draft6: return .d6
        case .draft7: return .d7
        case .draft2019: return .d2019
        case .draft2020, .openAPI31: return .d2020
        }
    }

    /// Draft 7 and before: keywords beside `$ref` are ignored (`$id` included).
    var refHidesSiblings: Bool { draft <= .d7 }
    /// The keyword that names a resource: draft 4's `id`, later `$id`.
    var idKeyword: String { draft == .d4 ? "id" : "$id" }
    /// Whether `readOnly`/`writeOnly` are asserted by direction (request/response): only
    /// OpenAPI's dialects give them one; in plain JSON Schema they are annotations.
    var directional: Bool { self == .openAPI30 || self == .openAPI31 || self == .swagger2 }

    /// The `$schema` URI a document states for this dialect (Swagger 2.0 and OpenAPI 3.0 have no
    /// JSON Schema meta-schema: their description schemas' Schema Object stands for one).
    package var uri: String {
        switch self {
        case .draft4: return "http://json-schema.org/draft-04/schema#"
        case .draft6: return "http://json-schema.org/draft-06/schema#"
        case .draft7: return "http://json-schema.org/draft-07/schema#"
        case .draft2019: return "https://json-schema.org/draft/2019-09/schema"
        case .draft2020: return "https://json-schema.org/draft/2020-12/schema"
        case .openAPI30: return "https://spec.openapis.org/oas/3.0/schema/2021-09-28#/definitions/Schema"
        case .openAPI31: return "https://spec.openapis.org/oas/3.1/dialect/base"
        case .swagger2: return "http://swagger.io/v2/schema.json#/definitions/schema"
        }
    }

    /// The dialect a `$schema` value names, nil for one not known here (the caller's default
    /// applies). Scheme, trailing `#` and the `/schema` spelling do not matter.
    package static func from(_ uri: String?) -> SchemaDialect? {
        guard let uri else { return nil }
        if uri.contains("draft-04") || uri.contains("draft-05") { return .draft4 }
        if uri.contains("draft-06") { return .draft6 }
        if uri.contains("draft-07") { return .draft7 }
        if uri.contains("2019-09") { return .draft2019 }
        if uri.contains("2020-12") { return .draft2020 }
        if uri.contains("swagger.io/v2/schema") { return .swagger2 }
        if uri.contains("openapis.org/oas/3.0") { return .openAPI30 }
        if uri.contains("openapis.org/oas/3.1") || uri.contains("openapis.org/oas/3.2") { return .openAPI31 }
        return nil
    }

    /// The default for the schemas of a document: an OpenAPI 3.0 description's is OpenAPI 3.0's
    /// dialect, a 3.1/3.2 one's its `jsonSchemaDialect` or else OpenAPI 3.1's, a Swagger 2.0 one's
    /// Swagger 2.0's; any other document (a schema file) follows draft 2020-12 unless its
    /// `$schema` says otherwise.
    package static func `default`(for document: JSONValue) -> SchemaDialect {
        guard case .object(let members) = document else { return .draft2020 }
        func member(_ key: String) -> String? {
            if case .string(let s)? = members.last(where: { $0.key == key })?.value { return s }
            return nil
        }
        if member("swagger") != nil { return .swagger2 }
        if let version = member("openapi") {
            if version.hasPrefix("3.0") { return .openAPI30 }
            return from(member("jsonSchemaDialect")) ?? .openAPI31
        }
        return .draft2020
    }
}

/// One compiled schema: its keywords read once into fields, subschemas compiled into nodes,
/// `$ref` targets linked (cycles share nodes). Immutable once `SchemaCompiler` is done with it.
package final class SchemaNode: @unchecked Sendable {
    /// `#/components/schemas/Item/properties/price`: where it is, for messages.
    package let location: String
    /// The resource (`$id`) it belongs to, for `$dynamicRef`'s dynamic scope.
    let resource: String
    var dialect: SchemaDialect = .draft2020
    var constant: Bool?  // true / false schemas

    var ref: SchemaNode?
    var dynamicRef: SchemaNode?
    var dynamicAnchorName: String?  // the anchor `$dynamicRef` looks up, when the bookend is there

    var types: [String]?
    var nullable = false
    var enumValues: [JSONValue]?
    var constValue: JSONValue?
    var format: String?
    var readOnly = false, writeOnly = false

    var minimum: Double?, maximum: Double?
    var exclusiveMinimum: Double?, exclusiveMaximum: Double?
    var multipleOf: Double? {
        didSet { multipleOfDecimal = multipleOf.flatMap(SchemaNumber.decimal) }
    }
    /// `multipleOf` as digits and a power of ten, worked out once.
    var multipleOfDecimal: (digits: Int, exponent: Int)?

    var minLength: Int?, maxLength: Int?
    var pattern: SchemaPattern?

    var prefixItems: [SchemaNode] = []
    var items: SchemaNode?
    var contains: SchemaNode?
    /// Whether the items `contains` matches count as evaluated for `unevaluatedItems` (2020-12, not 2019-09).
    var containsAnnotates = false
    var minContains: Int?, maxContains: Int?
    var minItems: Int?, maxItems: Int?
    var uniqueItems = false
    var unevaluatedItems: SchemaNode?

    var properties: [String: SchemaNode] = [:]
    var patternProperties: [(SchemaPattern, SchemaNode)] = []
    var additionalProperties: SchemaNode?
    var propertyNames: SchemaNode?
    var required: [String] = []
    var dependentRequired: [(String, [String])] = []
    var dependentSchemas: [(String, SchemaNode)] = []
    var minProperties: Int?, maxProperties: Int?
    var unevaluatedProperties: SchemaNode?

    var allOf: [SchemaNode] = []
    var anyOf: [SchemaNode] = []
    var oneOf: [SchemaNode] = []
    var not: SchemaNode?
    var ifNode: SchemaNode?, thenNode: SchemaNode?, elseNode: SchemaNode?
    var discriminator: (property: String, mapping: [String: SchemaNode])?

    /// Whether `unevaluated*` below or here needs annotations collected.
    var needsAnnotations: Bool { unevaluatedItems != nil || unevaluatedProperties != nil }

    package init(location: String, resource: String) {
        self.location = location
        self.resource = resource
    }
}

extension SchemaNode {
    /// The `type` the schema names for the value at `path` (property names from here), looking
    /// through `$ref`s and `allOf` parts (the first that names one; `null` passed over); nil when
    /// none does. For reading text (a query's `?f[a][b]=3`) as the JSON value the schema asks for.
    package func type(at path: [String]) -> String? {
        var seen: Set<ObjectIdentifier> = []
        return Self.type(at: path[...], in: self, seen: &seen)
    }

    private static func type(at path: ArraySlice<String>, in node: SchemaNode, seen: inout Set<ObjectIdentifier>) -> String? {
        guard seen.insert(ObjectIdentifier(node)).inserted else { return nil }
        if let first = path.first {
            if let property = node.properties[first], let found = type(at: path.dropFirst(), in: property, seen: &seen) { return found }
        } else if let named = node.types?.first(where: { $0 != "null" }) {
            return named
        }
        for next in [node.ref].compactMap({ $0 }) + node.allOf {
            if let found = type(at: path, in: next, seen: &seen) { return found }
        }
        return nil
    }
}
