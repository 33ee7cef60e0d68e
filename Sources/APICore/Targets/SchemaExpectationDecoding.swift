#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TargetFile.Keys {
    public static let schemaExpectation = ["file", "$ref", "openapi", "operation", "formats"]
}

/// Reads `expect: { schema: }` (see `SchemaExpectation`): files through the project's YAML layer
/// (JSON is YAML), relative to the target file and never outside its folder.
extension ServiceDecoder {
    mutating func schemaExpectation(_ node: Node) -> SchemaExpectation? {
        let pairs = node.pairs ?? []
        let keys = pairs.compactMap { $0.key.scalarText }
        let isReference = !keys.isEmpty && keys.allSatisfy { TargetFile.Keys.schemaExpectation.contains($0) }
            && (keys.contains("file") || keys.contains("$ref") || keys.contains("openapi"))
        guard isReference else { return inlineSchema(node) }
        guard let entries = reader.mapping(node, "expect schema", known: TargetFile.Keys.schemaExpectation) else { return nil }
        var fields: [String: (Template, Mark)] = [:]
        var formats = false
        for e in entries {
            if e.key == "formats" {
                formats = reader.boolean(e.value, "formats") ?? false
            } else if let t = reader.text(e.value, "expect schema \(e.key)") {
                fields[e.key] = (t, e.value.mark)
            }
        }
        var out: SchemaExpectation?
        if let (file, mark) = fields["file"] {
            out = schemaFile(file.text, pointer: "", mark: mark, source: file.text)
        } else if let (ref, mark) = fields["$ref"] {
            let parts = ref.text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            out = schemaFile(String(parts[0]), pointer: parts.count > 1 ? String(parts[1]) : "", mark: mark, source: ref.text)
        } else if let (spec, mark) = fields["openapi"] {
            guard let (operation, _) = fields["operation"] else {
                reader.error("expect schema openapi: needs operation: (the operationId whose responses to check)", at: node.mark)
                return nil
            }
            out = operationSchemas(spec.text, operation: operation.text, mark: mark)
        }
        out?.assertFormats = formats
        return out
    }

    private mutating func inlineSchema(_ node: Node) -> SchemaExpectation? {
        guard let value = reader.value(node, "expect schema") else { return nil }
        do {
            let schema = try JSONSchema(JSONValue(value), uri: "file://" + file + "#expect-schema", dialect: .draft2020)
            return SchemaExpectation(source: "inline", mark: node.mark, schemas: [("*", schema)])
        } catch {
            reader.error("expect schema: \(error.message) (at \(error.location))", at: Self.mark(of: error.location, in: node),
                         hint: "see json-schema.org draft 2020-12")
            return nil
        }
    }

    /// The node a schema location (`#/properties/id/type`) names, for the error's line.
    static func mark(of location: String, in node: Node) -> Mark {
        guard let hash = location.firstIndex(of: "#"), let steps = SchemaURI.pointer(String(location[location.index(after: hash)...])) else {
            return node.mark
        }
        var current = node
        for step in steps {
            if let pairs = current.pairs, let p = pairs.first(where: { $0.key.scalarText == step }) { current = p.value }
            else if let items = current.items, let i = Int(step), items.indices.contains(i) { current = items[i] }
            else { break }
        }
        return current.mark
    }

    /// A document next to the target file, read as YAML (JSON included), with its dialect.
    private mutating func document(_ written: String, mark: Mark) -> (value: JSONValue, path: String, dialect: SchemaDialect)? {
        let path = written.hasPrefix("/") ? written : Path.join(folder, written)
        let inside = !written.hasPrefix("/") && !written.split(separator: "/").contains("..")
        guard inside else {
            reader.error("schema file '\(written)' is outside the folder of the target file", at: mark,
                         hint: "keep schemas and OpenAPI descriptions in or below the target file's folder")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            reader.error("schema file '\(written)' cannot be read (looked for \(path))", at: mark, hint: "paths are relative to the folder of the target file")
            return nil
        }
        let root: Node?
        do { root = try YAMLParser.parse(Array(data)) } catch {
            reader.error("schema file '\(written)' is not YAML or JSON: \(error)", at: mark)
            return nil
        }
        var fileReader = NodeReader(file: path)
        guard let root, let value = fileReader.value(root, "schema file") else {
            reader.error("schema file '\(written)' is empty", at: mark)
            return nil
        }
        let json = JSONValue(value)
        var dialect = SchemaDialect.draft2020
        if case .string(let v)? = json["openapi"], v.hasPrefix("3.0") { dialect = .openAPI30 }
        if case .string? = json["swagger"] { dialect = .draft4 }
        return (json, path, dialect)
    }

    private mutating func schemaFile(_ written: String, pointer: String, mark: Mark, source: String) -> SchemaExpectation? {
        guard let doc = document(written, mark: mark) else { return nil }
        do {
            let schema = try JSONSchema(document: doc.value, pointer: pointer, uri: "file://" + doc.path, dialect: doc.dialect,
                                        loader: Self.fileLoader(root: folder))
            return SchemaExpectation(source: source, mark: mark, schemas: [("*", schema)])
        } catch {
            reader.error("expect schema '\(source)': \(error.message) (at \(error.location))", at: mark)
            return nil
        }
    }

    private mutating func operationSchemas(_ written: String, operation: String, mark: Mark) -> SchemaExpectation? {
        guard let doc = document(written, mark: mark) else { return nil }
        for (path, item) in doc.value["paths"]?.members ?? [] {
            for (method, op) in item.members where op["operationId"] == .string(operation) {
                var schemas: [(status: String, schema: JSONSchema)] = []
                for (status, response) in op["responses"]?.members ?? [] {
                    guard let media = (response["content"]?.members ?? []).first(where: { Self.isJSON($0.key) }),
                          media.value["schema"] != nil else { continue }
                    let pointer = "/paths/\(SchemaURI.escape(path))/\(method)/responses/\(SchemaURI.escape(status))/content/\(SchemaURI.escape(media.key))/schema"
                    do {
                        let schema = try JSONSchema(document: doc.value, pointer: pointer, uri: "file://" + doc.path, dialect: doc.dialect,
                                                    loader: Self.fileLoader(root: folder))
                        schemas.append((status, schema))
                    } catch {
                        reader.error("expect schema: \(written) \(operation) \(status): \(error.message) (at \(error.location))", at: mark)
                        return nil
                    }
                }
                var out = SchemaExpectation(source: "\(written) \(operation)", mark: mark, schemas: schemas)
                var bodyPointer = "/paths/\(SchemaURI.escape(path))/\(method)/requestBody"
                var body = op["requestBody"]
                if case .string(let ref)? = body?["$ref"], ref.hasPrefix("#/") {
                    bodyPointer = String(ref.dropFirst())
                    body = SchemaURI.pointer(bodyPointer).flatMap { steps in steps.reduce(Optional(doc.value)) { $0?[$1] } }
                }
                if let media = (body?["content"]?.members ?? []).first(where: { Self.isJSON($0.key) }), media.value["schema"] != nil {
                    do {
                        out.request = try JSONSchema(document: doc.value, pointer: bodyPointer + "/content/\(SchemaURI.escape(media.key))/schema",
                                                     uri: "file://" + doc.path, dialect: doc.dialect, loader: Self.fileLoader(root: folder))
                    } catch {
                        reader.error("expect schema: \(written) \(operation) request body: \(error.message) (at \(error.location))", at: mark)
                        return nil
                    }
                }
                return out
            }
        }
        reader.error("expect schema: \(written) has no operation with operationId '\(operation)'", at: mark)
        return nil
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let t = mediaType.lowercased()
        return t.hasPrefix("application/json") || t.contains("+json") || t == "*/*"
    }

    /// `$ref`s to other files, read through the YAML layer, inside `root` only.
    static func fileLoader(root: String) -> @Sendable (String) -> JSONValue? {
        { uri in
            guard uri.hasPrefix("file://") else { return nil }
            let path = String(uri.dropFirst(7))
            guard path.hasPrefix(root.hasSuffix("/") ? root : root + "/"), !path.split(separator: "/").contains(".."),
                  let data = FileManager.default.contents(atPath: path),
                  let node = try? YAMLParser.parse(Array(data)) else { return nil }
            var r = NodeReader(file: path)
            return r.value(node, "schema").map(JSONValue.init)
        }
    }
}

extension JSONValue {
    var members: [(key: String, value: JSONValue)] { if case .object(let m) = self { return m }; return [] }
}
