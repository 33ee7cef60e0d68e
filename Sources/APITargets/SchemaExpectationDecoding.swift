import APIYAML
import APIJSON
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TargetFile.Keys {
    package static let schemaExpectation = ["file", "$ref", "openapi", "operation", "formats"]
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
                         hint: "see json-schema.org: draft 2020-12, or the draft its $schema names")
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
    private mutating func document(_ written: String, mark: Mark) -> OpenAPIContract.Document? {
        if let known = contractDocuments[written] { return known }
        switch OpenAPIContract.document(written, folder: folder) {
        case .success(let d):
            contractDocuments[written] = d
            return d
        case .failure(let e):
            let hint = e.message.contains("outside") ? "keep schemas and OpenAPI descriptions in or below the target file's folder"
                : "paths are relative to the folder of the target file"
            reader.error(e.message, at: mark, hint: hint)
            return nil
        }
    }

    private mutating func schemaFile(_ written: String, pointer: String, mark: Mark, source: String) -> SchemaExpectation? {
        guard let doc = document(written, mark: mark) else { return nil }
        do {
            let schema = try JSONSchema(document: doc.value, pointer: pointer, uri: "file://" + doc.path, dialect: doc.dialect,
                                        loader: OpenAPIContract.fileLoader(root: folder))
            return SchemaExpectation(source: source, mark: mark, schemas: [("*", schema)])
        } catch {
            reader.error("expect schema '\(source)': \(error.message) (at \(error.location))", at: mark)
            return nil
        }
    }

    private mutating func operationSchemas(_ written: String, operation: String, mark: Mark) -> SchemaExpectation? {
        guard let doc = document(written, mark: mark) else { return nil }
        switch OpenAPIContract.load(doc, written: written, operation: operation, folder: folder) {
        case .success(var out):
            out.mark = mark
            return out
        case .failure(let e):
            reader.error("expect schema: \(e.message)\(e.location == written ? "" : " (at \(e.location))")", at: mark)
            return nil
        }
    }
}

extension JSONValue {
    var members: [(key: String, value: JSONValue)] { if case .object(let m) = self { return m }; return [] }
}
