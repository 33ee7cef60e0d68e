import APISupport
import APIYAML
import APIJSON
import APISchema
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Judges a sample `import openapi` built from a schema by that schema, right when it is built
/// (whatever the import then writes to: a file, standard output, a description of thousands of
/// operations). The schema is compiled from the document it stands in, found by its JSON pointer
/// (found from the node's place), each document indexed and compiled once
/// (`SchemaDocument`'s cache: a component two operations share is compiled once).
/// A schema it cannot place or compile is not judged here (the written file's check still is).
final class SampleJudge {
    private let loader: SpecLoader
    /// The root document's dialect (OpenAPI 3.0's, 3.1's…), for every file it names.
    private var dialect: SchemaDialect?
    private var documents: [String: Document?] = [:]
    private var compiled: [String: JSONSchema?] = [:]
    /// The documents read so far, for `$ref`s from one file to another (a `@Sendable` loader).
    private let known = Known()

    private struct Document {
        let prepared: SchemaDocument
        let root: Node
    }

    private final class Known: @unchecked Sendable {
        var values: [String: JSONValue] = [:]
    }

    private let root: String

    init(loader: SpecLoader, root: String) {
        self.loader = loader
        self.root = root
    }

    /// The first violation of `schema` by `value`, said as `validate` says it, or nil when the
    /// value satisfies it (or the schema could not be placed or compiled).
    func violation(_ value: YAMLOut, of schema: SpecNode, direction: SchemaOptions.Direction) -> String? {
        violation(JSONValue(value.jsonValue), of: schema, direction: direction)
    }

    func violation(_ value: JSONValue, of schema: SpecNode, direction: SchemaOptions.Direction) -> String? {
        guard let compiledSchema = compile(schema),
              let first = compiledSchema.violations(of: value, options: SchemaOptions(direction: direction)).first
        else { return nil }
        return "\(first.description) [\(first.keyword)]"
    }

    /// Whether `schema` can be placed and compiled (what `violation` judges by).
    func judges(_ schema: SpecNode) -> Bool { compile(schema) != nil }

    private func compile(_ schema: SpecNode) -> JSONSchema? {
        guard let doc = document(schema.file), let pointer = Self.pointer(to: schema.mark, in: doc.root) else { return nil }
        let key = schema.file + "#" + pointer
        if let hit = compiled[key] { return hit }
        // A `$ref` to another file compiles against it when the import has read it (the sample was built from it)
        for other in loader.files where documents[other] == nil { _ = document(other) }
        let made = try? JSONSchema(in: doc.prepared, pointer: pointer)
        compiled[key] = made
        return made
    }

    private func document(_ file: String) -> Document? {
        if let hit = documents[file] { return hit }
        if dialect == nil, file != root { _ = document(root) }  // the root's dialect holds for every file
        var made: Document?
        if let node = loader.document(file) {
            var reader = NodeReader(file: file)
            if let read = reader.value(node, "description") {
                let value = JSONValue(read)
                let dialect = self.dialect ?? SchemaDialect.default(for: value)
                self.dialect = dialect
                let uri = Self.uri(file)
                known.values[uri] = value
                let known = self.known
                let prepared = SchemaDocument(value, uri: uri, dialect: dialect, loader: { known.values[$0] })
                made = Document(prepared: prepared, root: node)
            }
        }
        documents[file] = made
        return made
    }

    /// `file://` and the absolute path (how a `$ref` relative to it is resolved).
    private static func uri(_ file: String) -> String {
        let absolute = file.hasPrefix("/") ? file : Path.join(FileManager.default.currentDirectoryPath, file)
        return "file://" + Path.normalized(absolute)
    }

    /// The JSON pointer of the node at `mark`, found by descending from `root` into the last child
    /// that starts at or before it (a document's nodes start in the order they are written); nil
    /// when no node starts exactly there (a converted document whose nodes are out of order).
    static func pointer(to mark: Mark, in root: Node) -> String? {
        var node = root
        var pointer = ""
        for _ in 0..<512 {
            if node.mark == mark { return pointer }
            if let pairs = node.pairs {
                guard let i = pairs.lastIndex(where: { $0.value.mark <= mark }), let key = pairs[i].key.scalarText else { return nil }
                pointer += "/" + SchemaURI.escape(key)
                node = pairs[i].value
            } else if let items = node.items {
                guard let i = items.lastIndex(where: { $0.mark <= mark }) else { return nil }
                pointer += "/\(i)"
                node = items[i]
            } else {
                return nil
            }
        }
        return nil
    }
}
