import APISupport
import APIYAML
import APIJSON
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The schemas an OpenAPI description gives one operation (`expect: { schema: { openapi:,
/// operation: } }`): its JSON response schemas by status and its JSON request body schema.
/// The operation is named by its `operationId` or as `METHOD /path` (`GET /pets/{petId}`, for
/// operations without one); a Path Item or Operation given as a `$ref` to another file of the
/// description is followed. Every file is read through the YAML layer from inside `root` only.
/// Used by the target decoder and by `import openapi` (which writes only references that load).
package enum OpenAPIContract {
    /// A document read as YAML (JSON included), with its dialect.
    package struct Document: Sendable {
        package var value: JSONValue
        package var path: String
        package var dialect: SchemaDialect
        /// The description indexed once, for every operation's schemas (and each schema node
        /// compiled once, however many operations reach it).
        var prepared: SchemaDocument
        /// Its operations, found once: by `operationId` and by `method /path` (lower-case method),
        /// each the first in document order.
        var operationIndex: [String: IndexedOperation] = [:]

        /// The schema nodes compiled so far for this description.
        package var compiled: CompiledSchemas { prepared.compiled }
    }

    /// An operation of a description: its Path Item and Operation objects, `$ref`s followed.
    struct IndexedOperation {
        var item: Place
        var op: Place
        /// Its position in the description (the first match in document order wins).
        var order: Int
    }

    /// Every operation of `value`, keyed as `Document.operationIndex` is.
    static func operationIndex(_ value: JSONValue, path file: String, loader: @Sendable (String) -> JSONValue?) -> [String: IndexedOperation] {
        var out: [String: IndexedOperation] = [:]
        var order = 0
        for (path, raw) in value["paths"]?.members ?? [] {
            let itemPlace = Place(value: value, path: file, pointer: "/paths/\(SchemaURI.escape(path))", node: raw)
            guard let item = follow(itemPlace, loader: loader) else { continue }
            // 3.2's `additionalOperations` (`COPY:`) beside the fixed fields
            let fixed = item.node.members.filter { methods.contains($0.key.lowercased()) }.map { ($0.key, "/" + SchemaURI.escape($0.key), $0.value) }
            let more = (item.node["additionalOperations"]?.members ?? []).map { ($0.key, "/additionalOperations/" + SchemaURI.escape($0.key), $0.value) }
            for (method, step, rawOp) in fixed + more {
                let opPlace = Place(value: item.value, path: item.path, pointer: item.pointer + step, node: rawOp)
                guard let op = follow(opPlace, loader: loader) else { continue }
                let found = IndexedOperation(item: item, op: op, order: order)
                order += 1
                if case .string(let id)? = op.node["operationId"], out["id " + id] == nil { out["id " + id] = found }
                let key = "at \(method.lowercased()) \(path)"
                if out[key] == nil { out[key] = found }
            }
        }
        return out
    }

    /// `written` relative to `folder` (the target file's), refused outside it: as real paths
    /// (`Path.isInside`, as `import openapi` checks its `$ref`s), so a symbolic link inside the
    /// folder to a file outside it is outside.
    package static func document(_ written: String, folder: String) -> Result<Document, SchemaError> {
        let path = Path.join(folder, written)
        guard !written.hasPrefix("/"), Path.isInside(path, folder) else {
            return .failure(SchemaError(location: written, message: "schema file '\(written)' is outside the folder of the target file"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(SchemaError(location: written, message: "schema file '\(written)' cannot be read (looked for \(path))"))
        }
        let root: Node?
        do { root = try YAMLParser.parse(JSONParser.escapingDEL(Array(data))) } catch {
            return .failure(SchemaError(location: written, message: "schema file '\(written)' is not YAML or JSON: \(error)"))
        }
        var fileReader = NodeReader(file: path)
        guard let root, let value = fileReader.value(root, "schema file") else {
            return .failure(SchemaError(location: written, message: "schema file '\(written)' is empty"))
        }
        let json = JSONValue(value)
        if case .string(let v)? = json["swagger"] {
            // Its schemas sit where OpenAPI 3's do not (and say x-nullable): read as 3, nothing would be checked.
            return .failure(SchemaError(location: written, message: "schema file '\(written)' is a Swagger \(v) description; contracts read OpenAPI 3 (apicli import openapi converts it and refers to the converted copy)"))
        }
        let dialect = SchemaDialect.default(for: json)
        let loader = fileLoader(root: folder)
        let prepared = SchemaDocument(json, uri: "file://" + path, dialect: dialect, loader: loader)
        return .success(Document(value: json, path: path, dialect: dialect, prepared: prepared,
                                 operationIndex: operationIndex(json, path: path, loader: loader)))
    }

    /// A place in some file of the description: the file's document and a JSON Pointer into it.
    struct Place {
        var value: JSONValue
        var path: String
        var pointer: String
        var node: JSONValue
    }

    /// The operation's schemas in the description `doc` (read by `document`), or why not.
    package static func load(_ doc: Document, written: String, operation: String, folder: String) -> Result<SchemaExpectation, SchemaError> {
        let loader = fileLoader(root: folder)
        let byID = doc.operationIndex["id " + operation]
        let byPlace = methodAndPath(operation).flatMap { doc.operationIndex["at \($0.method) \($0.path)"] }
        if let found = [byID, byPlace].compactMap({ $0 }).min(by: { $0.order < $1.order }) {
            return schemas(of: found.op, item: found.item, source: "\(written) \(operation)", dialect: doc.dialect, loader: loader, main: doc)
        }
        return .failure(SchemaError(location: written, message: "\(written) has no operation '\(operation)' (an operationId or METHOD /path)"))
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    /// `GET /pets/{id}` → ("get", "/pets/{id}").
    static func methodAndPath(_ text: String) -> (method: String, path: String)? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[1].hasPrefix("/") else { return nil }
        return (parts[0].lowercased(), String(parts[1]))
    }

    private static func schemas(of op: Place, item: Place, source: String, dialect: SchemaDialect, loader: @escaping @Sendable (String) -> JSONValue?,
                                main: Document) -> Result<SchemaExpectation, SchemaError> {
        var schemas: [(status: String, schema: JSONSchema)] = []
        var bodiless: Set<String> = []
        do {
            for (status, raw) in op.node["responses"]?.members ?? [] {
                let at = Place(value: op.value, path: op.path, pointer: op.pointer + "/responses/\(SchemaURI.escape(status))", node: raw)
                guard let response = follow(at, loader: loader) else { continue }
                if let schema = try jsonSchema(in: response, dialect: dialect, loader: loader, main: main) {
                    schemas.append((status, schema))
                } else {
                    bodiless.insert(status.uppercased())
                }
            }
            var out = SchemaExpectation(source: source, mark: Mark(line: 0, column: 0), schemas: schemas)
            out.bodiless = bodiless
            if let raw = op.node["requestBody"],
               let body = follow(Place(value: op.value, path: op.path, pointer: op.pointer + "/requestBody", node: raw), loader: loader) {
                out.request = try jsonSchema(in: body, dialect: dialect, loader: loader, main: main)
                out.requestRequired = body.node["required"] == .bool(true)
                out.requestOtherMediaTypes = (body.node["content"]?.members ?? []).map { $0.key.lowercased() }.filter { !isJSON($0) }
            }
            out.parameters = try parameters(of: op, item: item, dialect: dialect, loader: loader, main: main)
            out.refusal = refusal(op, loader: loader)
            return .success(out)
        } catch let error as SchemaError {
            return .failure(error)
        } catch {
            return .failure(SchemaError(location: op.path, message: "\(error)"))
        }
    }

    /// How the mock refuses a request to `op` (docs/samples-and-mock.md, "What --validate checks"):
    /// 400 when documented, else 422, else 400 under a documented `4XX` or `default`, else the
    /// lowest client-error status the operation documents (not 401, 403, 407 or 429, which say
    /// something else), else 400, undocumented. With the JSON media type documented for it and a
    /// sample of its schema, for a refusal whose own body that schema does not accept.
    static func refusal(_ op: Place, loader: @escaping @Sendable (String) -> JSONValue?) -> SchemaExpectation.Refusal {
        let responses = op.node["responses"]?.members ?? []
        let documented = responses.map { $0.key.uppercased() }
        var out = SchemaExpectation.Refusal()
        let others = documented.compactMap { Int($0) }.filter { (400..<500).contains($0) && ![401, 403, 407, 429].contains($0) }.sorted()
        let chosen: (status: Int, key: String)? = documented.contains("400") ? (400, "400")
            : documented.contains("422") ? (422, "422")
            : documented.contains("4XX") ? (400, "4XX")
            : documented.contains("DEFAULT") ? (400, "DEFAULT")
            : others.first.map { ($0, String($0)) }
        guard let chosen else {
            out.documented = false
            return out
        }
        out.status = chosen.status
        guard let (key, raw) = responses.first(where: { $0.key.uppercased() == chosen.key }).map({ ($0.key, $0.value) }) else { return out }
        let at = Place(value: op.value, path: op.path, pointer: op.pointer + "/responses/\(SchemaURI.escape(key))", node: raw)
        guard let response = follow(at, loader: loader) else { return out }
        let media = response.node["content"]?.members ?? []
        guard let usable = media.first(where: { isJSON($0.key) && $0.key != "*/*" && HeaderField.forbiddenCharacter(in: $0.key) == nil })
        else { return out }
        out.contentType = usable.key
        if let schema = usable.value["schema"] {
            let pointer = response.pointer + "/content/\(SchemaURI.escape(usable.key))/schema"
            out.sample = RefusalSample(loader: loader).value(Place(value: response.value, path: response.path, pointer: pointer, node: schema))?.jsonText
        }
        return out
    }

    /// The schema of the JSON media type of a Response or Request Body object.
    private static func jsonSchema(in place: Place, dialect: SchemaDialect, loader: @escaping @Sendable (String) -> JSONValue?,
                                   main: Document) throws -> JSONSchema? {
        guard let media = (place.node["content"]?.members ?? []).first(where: { isJSON($0.key) }), media.value["schema"] != nil else { return nil }
        let pointer = place.pointer + "/content/\(SchemaURI.escape(media.key))/schema"
        if place.path == main.path { return try JSONSchema(in: main.prepared, pointer: pointer) }
        return try JSONSchema(document: place.value, pointer: pointer, uri: "file://" + place.path, dialect: dialect, loader: loader)
    }

    /// Follows `$ref`s (in this file or another one inside the root) to the object they name.
    static func follow(_ start: Place, loader: @Sendable (String) -> JSONValue?) -> Place? {
        var place = start
        for _ in 0..<16 {
            guard case .string(let ref)? = place.node["$ref"] else { return place }
            let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file = String(parts[0])
            let pointer = parts.count > 1 ? String(parts[1]) : ""
            var value = place.value
            var path = place.path
            if !file.isEmpty {
                path = Path.normalized(Path.join(Path.parent(place.path), file))
                guard let loaded = loader("file://" + path) else { return nil }
                value = loaded
            }
            guard let steps = SchemaURI.pointer(pointer.removingPercentEscapes() ?? pointer) else { return nil }
            var node: JSONValue? = value
            for step in steps { node = node?[step] }
            guard let node else { return nil }
            place = Place(value: value, path: path, pointer: SchemaURI.escapedPointer(steps), node: node)
        }
        return nil
    }

    package static func isJSON(_ mediaType: String) -> Bool {
        let t = mediaType.lowercased()
        return t.hasPrefix("application/json") || t.contains("+json") || t == "*/*"
    }

    /// `$ref`s to other files, read through the YAML layer, inside `root` only.
    package static func fileLoader(root: String) -> @Sendable (String) -> JSONValue? {
        { uri in
            guard uri.hasPrefix("file://") else { return nil }
            let path = String(uri.dropFirst(7))
            guard Path.isInside(path, root), let data = FileManager.default.contents(atPath: path),
                  let node = try? YAMLParser.parse(JSONParser.escapingDEL(Array(data))) else { return nil }
            var r = NodeReader(file: path)
            return r.value(node, "schema").map(JSONValue.init)
        }
    }
}
