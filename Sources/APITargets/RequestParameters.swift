import APISupport
import APIJSON
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An operation's query, path, header and cookie parameters with their schemas (OpenAPI 3
/// `parameters:` of the Path Item and the Operation, the Operation's winning by name and place),
/// for `mock --validate`: a request whose parameter is missing or breaks its schema is refused,
/// naming the parameter. Text is read as the schema's type asks (`?limit=5` is the integer 5 for
/// `type: integer`), and arrays and objects as the parameter's `style` and `explode` write them
/// (OpenAPI 3 "Style Values"): query `form` (`?tag=a&tag=b`, `?tag=a,b`, `?name=x&age=3`,
/// `?filter=name,x,age,3`), `deepObject` (`?filter[name]=x`), `spaceDelimited`, `pipeDelimited`;
/// path `simple`, `label` (`.a.b`), `matrix` (`;id=a,b`); header `simple`; cookie `form`.
package struct RequestParameter: Sendable {
    package enum Place: String, Sendable { case query, path, header, cookie }
    package enum Style: String, Sendable { case form, simple, label, matrix, deepObject, spaceDelimited, pipeDelimited }
    package var name: String
    package var place: Place
    package var required: Bool
    var schema: JSONSchema
    /// The schema's `type` (`integer`, `array`…), its `$ref`s followed; nil when it names none.
    var type: String?
    /// For an array: its items' `type`.
    var itemType: String?
    /// For an object: each property's `type` (nil when it names none), in the schema's order.
    var propertyTypes: [(name: String, type: String?)] = []
    var style: Style
    var explode: Bool
    /// `content:` instead of `schema:`: the value is that media type's text, not a style's
    /// writing; `application/json` (and `+json`) text is parsed as JSON, other text stays a string.
    var content: String?

    init(name: String, place: Place, required: Bool, schema: JSONSchema, type: String?, itemType: String?,
         propertyTypes: [(name: String, type: String?)] = [], style: Style? = nil, explode: Bool? = nil) {
        self.name = name
        self.place = place
        self.required = required
        self.schema = schema
        self.type = type
        self.itemType = itemType
        self.propertyTypes = propertyTypes
        let style = style ?? (place == .query || place == .cookie ? .form : .simple)
        self.style = style
        self.explode = explode ?? (style == .form)
    }

    /// What a request carries, read once for all of an operation's parameters.
    package struct Request: Sendable {
        /// The query's pairs, percent-decoded, in order.
        var query: [(name: String, value: String)]
        /// The path's captures by parameter name (percent-decoded segments).
        var captures: [String: String]
        /// Header fields (names compared without case).
        var headers: [(name: String, value: String)]
        /// The `Cookie` header's pairs.
        var cookies: [(name: String, value: String)]

        package init(query: Substring, captures: [String: String], headers: [(name: String, value: String)] = []) {
            let decode = { (t: Substring) in String(t).removingPercentEscapes() ?? String(t) }
            self.query = query.split(separator: "&").map { pair in
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (decode(kv[0]), kv.count > 1 ? decode(kv[1]) : "")
            }
            self.captures = captures
            self.headers = headers
            self.cookies = headers.filter { $0.name.lowercased() == "cookie" }.flatMap { field in
                field.value.split(separator: ";").map { piece -> (name: String, value: String) in
                    let kv = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = kv[0].trimmingSpaces()
                    return (name, kv.count > 1 ? kv[1].trimmingSpaces() : "")
                }
            }
        }
    }

    /// The violations of `request`'s value for this parameter (`others`: the names of the
    /// operation's other query parameters, which an exploded free-form object does not take);
    /// nil when the request does not reach it (a path parameter the target's path names
    /// otherwise); empty when it is fine.
    func violations(in request: Request, others: Set<String> = [], assertFormats: Bool) -> [SchemaViolation]? {
        if let content, OpenAPIContract.isJSON(content), case .some(.some(let text)) = text(in: request),
           JSONValue.parse(Data(text.utf8)) == nil {
            return [SchemaViolation(instancePath: "$", schemaPath: schema.root.location, keyword: "content", expected: content,
                                    got: "text", message: "is not JSON (the parameter's content is \(content))")]
        }
        guard let read = value(in: request, others: others) else { return nil }
        guard let value = read else {
            guard required else { return [] }
            return [SchemaViolation(instancePath: "$", schemaPath: schema.root.location, keyword: "required", expected: "present",
                                    got: "absent", message: "is required and missing")]
        }
        return schema.violations(of: value, options: SchemaOptions(assertFormats: assertFormats, direction: .request))
    }

    /// The parameter's value as JSON: `.some(nil)` when the request does not carry it, nil when
    /// the request cannot (a path parameter the route does not capture).
    func value(in request: Request, others: Set<String> = []) -> JSONValue?? {
        if let content {
            guard let read = text(in: request) else { return nil }
            guard let text = read else { return .some(nil) }
            return .some(OpenAPIContract.isJSON(content) ? JSONValue.parse(Data(text.utf8)) ?? .string(text) : .string(text))
        }
        switch place {
        case .path:
            guard let captured = request.captures[name] else { return nil }
            return .some(path(captured))
        case .header:
            let fields = request.headers.filter { $0.name.lowercased() == name.lowercased() }
            guard !fields.isEmpty else { return .some(nil) }
            return .some(simple(fields.map(\.value).joined(separator: ",")))
        case .query:
            return .some(query(request.query, others: others))
        case .cookie:
            return .some(query(request.cookies, others: others))
        }
    }

    /// The parameter's text as the request carries it (a `content:` parameter's): `.some(nil)`
    /// when absent, nil when the request cannot carry it.
    func text(in request: Request) -> String?? {
        switch place {
        case .path: return request.captures[name].map { .some($0) }
        case .header:
            let fields = request.headers.filter { $0.name.lowercased() == name.lowercased() }
            return .some(fields.isEmpty ? nil : fields.map(\.value).joined(separator: ","))
        case .query: return .some(request.query.last { $0.name == name }?.value)
        case .cookie: return .some(request.cookies.last { $0.name == name }?.value)
        }
    }

    private var isObject: Bool { type == "object" || (type == nil && !propertyTypes.isEmpty) }

    /// `query` (or cookie) pairs as this parameter's style writes it.
    private func query(_ pairs: [(name: String, value: String)], others: Set<String>) -> JSONValue? {
        let mine = pairs.filter { $0.name == name }.map(\.value)
        if isObject {
            switch style {
            case .deepObject:
                // `?f[status]=open`, and nested as the qs convention writes it: `?f[owner][id]=3`
                let members = pairs.compactMap { pair -> (path: [String], value: String)? in
                    guard let path = Self.brackets(pair.name, after: name) else { return nil }
                    return (path, pair.value)
                }
                return members.isEmpty ? nil : nested(members)
            case .form where explode:
                let known = Set(propertyTypes.map(\.name))
                let members = pairs.filter { known.isEmpty ? !others.contains($0.name) && $0.name != "apicli-sample" : known.contains($0.name) }
                // every pair is optional: an exploded object is present even when none of its properties is
                return object(members.map { ($0.name, $0.value) })
            default:
                guard let last = mine.last else { return nil }
                return object(pairsOf(split(last, by: delimiter)))
            }
        }
        guard !mine.isEmpty else { return nil }
        if type == "array" {
            let items = mine.count == 1 && !explode ? split(mine[0], by: delimiter) : mine
            return array(items)
        }
        return Self.typed(mine[mine.count - 1], as: type)
    }

    /// The delimiter of a non-exploded array or object in the query.
    private var delimiter: Character {
        switch style {
        case .spaceDelimited: return " "
        case .pipeDelimited: return "|"
        default: return ","
        }
    }

    /// A path segment (the capture) as `simple`, `label` or `matrix` writes it.
    private func path(_ text: String) -> JSONValue? {
        switch style {
        case .label:
            guard text.hasPrefix(".") else { return Self.typed(text, as: type) }
            let rest = String(text.dropFirst())
            guard type == "array" || isObject else { return Self.typed(rest, as: type) }
            if explode {
                return structured(split(rest, by: "."), exploded: true)
            }
            return structured([rest], exploded: false)
        case .matrix:
            guard text.hasPrefix(";") else { return Self.typed(text, as: type) }
            let pieces = split(String(text.dropFirst()), by: ";")
            if isObject, explode { return structured(pieces, exploded: true) }
            let values = pieces.map { piece -> String in
                let kv = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return kv.count > 1 ? String(kv[1]) : ""
            }
            if type == "array" { return explode ? array(values) : array(values.flatMap { split($0, by: ",") }) }
            if isObject { return object(pairsOf(values.flatMap { split($0, by: ",") })) }
            return Self.typed(values.last ?? "", as: type)
        default:
            return simple(text)
        }
    }

    /// A `simple` value: `a,b` for an array, `k,v,k,v` (or `k=v,k=v` exploded) for an object.
    private func simple(_ text: String) -> JSONValue {
        guard type == "array" || isObject else { return Self.typed(text, as: type) }
        return structured(split(text, by: ","), exploded: explode)
    }

    /// Pieces already split: array items, or an object's `k=v` pieces (exploded) or `k`, `v` pairs;
    /// a non-exploded label value (one piece) is split at commas.
    private func structured(_ pieces: [String], exploded: Bool) -> JSONValue {
        let pieces = pieces.count == 1 && !exploded ? split(pieces[0], by: ",") : pieces
        if type == "array" { return array(pieces) }
        if exploded {
            return object(pieces.map { piece in
                let kv = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(kv[0]), kv.count > 1 ? String(kv[1]) : "")
            })
        }
        return object(pairsOf(pieces))
    }

    /// The pieces of a delimited value; none for the empty text (`?ids=` is the empty array).
    private func split(_ text: String, by delimiter: Character) -> [String] {
        text.isEmpty ? [] : text.split(separator: delimiter, omittingEmptySubsequences: false).map(String.init)
    }

    /// `[k, v, k, v]` → `[(k, v), (k, v)]` (a last key without a value has the empty string).
    private func pairsOf(_ pieces: [String]) -> [(String, String)] {
        stride(from: 0, to: pieces.count, by: 2).map { (pieces[$0], $0 + 1 < pieces.count ? pieces[$0 + 1] : "") }
    }

    /// `name[a][b]` → `["a", "b"]`; nil when `key` is not `name` followed by one or more `[…]`.
    static func brackets(_ key: String, after name: String) -> [String]? {
        guard key.hasPrefix(name + "["), key.hasSuffix("]") else { return nil }
        let inner = key.dropFirst(name.count + 1).dropLast()
        let parts = inner.split(separator: "][", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: { $0.contains("[") || $0.contains("]") }) else { return nil }
        return parts
    }

    /// deepObject members by their bracket paths, as one object (the last of a repeated path
    /// wins; a path through a value that is not an object replaces it), each value read as the
    /// schema's type at its path.
    private func nested(_ members: [(path: [String], value: String)]) -> JSONValue {
        final class Tree {
            var members: [(key: String, tree: Tree)] = []
            var text: String?
            func child(_ key: String) -> Tree {
                if let i = members.firstIndex(where: { $0.key == key }) { return members[i].tree }
                let t = Tree()
                members.append((key, t))
                return t
            }
        }
        let root = Tree()
        for (path, value) in members {
            var at = root
            for key in path {
                at.text = nil
                at = at.child(key)
            }
            at.members = []
            at.text = value
        }
        func json(_ tree: Tree, _ path: [String]) -> JSONValue {
            if let text = tree.text {
                let type = path.count == 1 ? (propertyTypes.first { $0.name == path[0] }?.type ?? schema.root.type(at: path)) : schema.root.type(at: path)
                return Self.typed(text, as: type)
            }
            return .object(tree.members.map { ($0.key, json($0.tree, path + [$0.key])) })
        }
        return json(root, [])
    }

    private func array(_ items: [String]) -> JSONValue { .array(items.map { Self.typed($0, as: itemType) }) }

    private func object(_ members: [(String, String)]) -> JSONValue {
        var seen: Set<String> = []
        var out: [(key: String, value: JSONValue)] = []
        for (key, text) in members.reversed() where seen.insert(key).inserted {  // the last of a repeated key wins
            let type = propertyTypes.first { $0.name == key }?.type ?? nil
            out.insert((key, Self.typed(text, as: type)), at: 0)
        }
        return .object(out)
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
    /// The parameters of `op` (and of its Path Item `item`) that have a schema; header parameters
    /// named `Accept`, `Content-Type` or `Authorization` are left out, as OpenAPI says.
    static func parameters(of op: Place, item: Place, dialect: SchemaDialect, loader: @escaping @Sendable (String) -> JSONValue?,
                           main: Document) throws -> [RequestParameter] {
        var found: [RequestParameter] = []
        for owner in [item, op] {
            guard case .array(let list)? = owner.node["parameters"] else { continue }
            for (i, raw) in list.enumerated() {
                let at = Place(value: owner.value, path: owner.path, pointer: owner.pointer + "/parameters/\(i)", node: raw)
                guard let p = follow(at, loader: loader), case .string(let name)? = p.node["name"],
                      case .string(let written)? = p.node["in"], let place = RequestParameter.Place(rawValue: written) else { continue }
                // `schema:`, or `content:` with one media type and its schema
                let media = p.node["schema"] == nil ? p.node["content"]?.members.first : nil
                guard let schemaNode = p.node["schema"] ?? media?.value["schema"] else { continue }
                if place == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }
                let pointer = p.pointer + (media.map { "/content/\(SchemaURI.escape($0.key))/schema" } ?? "/schema")
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
                var properties: [(name: String, type: String?)] = []
                if let object = resolved, case .object(let members)? = object.node["properties"] {
                    properties = members.map { member in
                        let at = Place(value: object.value, path: object.path,
                                       pointer: object.pointer + "/properties/" + SchemaURI.escape(member.key), node: member.value)
                        return (member.key, follow(at, loader: loader)?.node["type"]?.stringValue)
                    }
                }
                var parameter = RequestParameter(name: name, place: place, required: place == .path || p.node["required"] == .bool(true),
                                                 schema: schema, type: type, itemType: itemType, propertyTypes: properties,
                                                 style: p.node["style"]?.stringValue.flatMap(RequestParameter.Style.init(rawValue:)),
                                                 explode: p.node["explode"].flatMap { if case .bool(let b) = $0 { b } else { nil } })
                parameter.content = media?.key
                found.removeAll { $0.name == name && $0.place == place }
                found.append(parameter)
            }
        }
        return found
    }
}
