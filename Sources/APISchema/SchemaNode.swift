import APISupport
import APIJSON
/// Which rules a schema follows: `$schema` in the document picks one, else the caller's default.
package enum SchemaDialect: Sendable, Equatable {
    /// Draft 2020-12 (OpenAPI 3.1).
    case draft2020
    /// Draft 4: `id`, boolean `exclusiveMaximum`, array `items` + `additionalItems`,
    /// `dependencies`, and `$ref` hiding its siblings.
    case draft4
    /// OpenAPI 3.0's Schema Object: draft 4 plus `nullable`, `discriminator`,
    /// `readOnly`/`writeOnly` by direction (`example` is an annotation).
    case openAPI30

    var refHidesSiblings: Bool { self != .draft2020 }

    static func from(_ uri: String?) -> SchemaDialect? {
        guard let uri else { return nil }
        if uri.contains("draft-04") || uri.contains("draft-05") { return .draft4 }
        if uri.contains("2020-12") || uri.contains("2019-09") { return .draft2020 }
        return nil
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
