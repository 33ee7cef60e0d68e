import APIJSON
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An operation's query and path parameters with their schemas (OpenAPI 3 `parameters:` of the
/// Path Item and the Operation, the Operation's winning by name and place), for `mock --validate`:
/// a request whose parameter is missing or breaks its schema is refused, naming the parameter.
/// Text is read as the schema's type asks (`?limit=5` is the integer 5 for `type: integer`);
/// an array is the repeated parameter (`?tag=a&tag=b`, `explode`, the default) or one
/// comma-separated value (`explode: false`, and path parameters).
package struct RequestParameter: Sendable {
    package enum Place: String, Sendable { case query, path }
    package var name: String
    package var place: Place
    package var required: Bool
    var schema: JSONSchema
    /// The schema's `type` (`integer`, `array`…), its `$ref`s followed; nil when it names none.
    var type: String?
    /// For an array: its items' `type`.
    var itemType: String?
    var explode: Bool

    /// The violations of the request's values for this parameter (`values`: every occurrence in
    /// the query, or the path segment's one); empty when it is fine.
    func violations(_ values: [String], assertFormats: Bool) -> [SchemaViolation] {
        guard !values.isEmpty else {
            guard required else { return [] }
            return [SchemaViolation(instancePath: "$", schemaPath: schema.root.location, keyword: "required", expected: "present",
                                    got: "absent", message: "is required and missing")]
        }
        let value: JSONValue
        if type == "array" {
            let items = values.count == 1 && (!explode || place == .path)
                ? values[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : values
            value = .array(items.map { Self.typed($0, as: itemType) })
        } else {
            value = Self.typed(values[values.count - 1], as: type)
        }
        return schema.violations(of: value, options: SchemaOptions(assertFormats: assertFormats, direction: .request))
    }

    /// The text as the JSON value the type asks for; left a string when it is not one (the
    /// schema then says what is wrong: `"ten" is string, not integer`).
    static func typed(_ text: String, as type: String?) -> JSONValue {
        switch type {
        case "integer", "number":
            guard !text.contains(where: { $0.isWhitespace }), let v = JSONValue.parse(Data(text.utf8)), case .number = v else { return .string(text) }
            return v
        case "boolean":
            return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case "null":
            return text.isEmpty || text == "null" ? .null : .string(text)
        default:
            return .string(text)
        }
    }
}

extension OpenAPIContract {
    /// The query and path parameters of `op` (and of its Path Item `item`) that have a schema.
    static func parameters(of op: Place, item: Place, dialect: SchemaDialect, loader: @escaping @Sendable (String) -> JSONValue?,
                           main: Document) throws -> [RequestParameter] {
        var found: [RequestParameter] = []
        for owner in [item, op] {
            guard case .array(let list)? = owner.node["parameters"] else { continue }
            for (i, raw) in list.enumerated() {
                let at = Place(value: owner.value, path: owner.path, pointer: owner.pointer + "/parameters/\(i)", node: raw)
                guard let p = follow(at, loader: loader), case .string(let name)? = p.node["name"],
                      case .string(let written)? = p.node["in"], let place = RequestParameter.Place(rawValue: written),
                      let schemaNode = p.node["schema"] else { continue }
                let pointer = p.pointer + "/schema"
                let schema = p.path == main.path
                    ? try JSONSchema(in: main.prepared, pointer: pointer)
                    : try JSONSchema(document: p.value, pointer: pointer, uri: "file://" + p.path, dialect: dialect, loader: loader)
                let resolved = follow(Place(value: p.value, path: p.path, pointer: pointer, node: schemaNode), loader: loader)
                let type = resolved?.node["type"]?.stringValue
                var itemType: String?
                if type == "array", let items = resolved, let raw = items.node["items"] {
                    itemType = follow(Place(value: items.value, path: items.path, pointer: items.pointer + "/items", node: raw),
                                      loader: loader)?.node["type"]?.stringValue
                }
                let parameter = RequestParameter(name: name, place: place, required: place == .path || p.node["required"] == .bool(true),
                                                 schema: schema, type: type, itemType: itemType,
                                                 explode: p.node["explode"].map { $0 == .bool(true) } ?? true)
                found.removeAll { $0.name == name && $0.place == place }
                found.append(parameter)
            }
        }
        return found
    }
}
