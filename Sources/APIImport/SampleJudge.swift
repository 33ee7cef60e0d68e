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

/// Judges every sample `import openapi` writes — built from a schema, or the description's own
/// example — and every request body it builds, by the schema it is checked against, right when it
/// is chosen (whatever the import then writes to: a file, standard output, a description of
/// thousands of operations). The schema is compiled from the document it stands in, found by its
/// JSON pointer (found from the node's place), each document indexed and compiled once
/// (`SchemaDocument`'s cache: a component two operations share is compiled once).
/// A schema it cannot compile is not judged (nor can `validate` load it: the target gets no
/// reference); nor is one it cannot place (no node of its mark and shape: not seen so far).
final class SampleJudge {
    private let loader: SpecLoader
    /// The root document's dialect (OpenAPI 3.0's, 3.1's…), for every file it names.
    private var dialect: SchemaDialect?
    private var documents: [String: Document?] = [:]
    private var compiled: [String: JSONSchema?] = [:]
    /// Every node of a converted document by its mark, for `place` (built when first needed).
    private var indexes: [String: [Mark: [(pointer: String, node: Node)]]] = [:]
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
        guard let doc = document(schema.file), let pointer = place(schema, in: doc) else { return nil }
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

    /// The JSON pointer of `schema` in its document: found by descending to its mark; in a
    /// converted document (Swagger 2.0's, whose nodes keep the marks they came from, out of order,
    /// several sharing one) through an index of every node by mark, built once, the node of the
    /// same shape.
    private func place(_ schema: SpecNode, in doc: Document) -> String? {
        if let found = Self.pointer(to: schema.mark, in: doc.root), Self.sameShape(found.node, schema.node) { return found.pointer }
        if indexes[schema.file] == nil {
            var index: [Mark: [(pointer: String, node: Node)]] = [:]
            Self.index(doc.root, "", into: &index, depth: 0)
            indexes[schema.file] = index
        }
        return indexes[schema.file]?[schema.mark]?.first { Self.sameShape($0.node, schema.node) }?.pointer
    }

    private static func index(_ node: Node, _ pointer: String, into index: inout [Mark: [(pointer: String, node: Node)]], depth: Int) {
        guard depth < 512 else { return }
        index[node.mark, default: []].append((pointer, node))
        for pair in node.pairs ?? [] {
            guard let key = pair.key.scalarText else { continue }
            Self.index(pair.value, pointer + "/" + SchemaURI.escape(key), into: &index, depth: depth + 1)
        }
        for (i, item) in (node.items ?? []).enumerated() { Self.index(item, pointer + "/\(i)", into: &index, depth: depth + 1) }
    }

    /// Whether two nodes are the same node as far as one level shows: their keys (or items) and
    /// where each child starts, or their scalar.
    static func sameShape(_ a: Node, _ b: Node) -> Bool {
        if let x = a.pairs, let y = b.pairs {
            return x.count == y.count && zip(x, y).allSatisfy { $0.key.scalarText == $1.key.scalarText && $0.value.mark == $1.value.mark }
        }
        if let x = a.items, let y = b.items { return x.count == y.count && zip(x, y).allSatisfy { $0.mark == $1.mark } }
        return a.pairs == nil && b.pairs == nil && a.items == nil && b.items == nil && a.scalarText == b.scalarText
    }

    /// `file://` and the absolute path (how a `$ref` relative to it is resolved).
    private static func uri(_ file: String) -> String {
        let absolute = file.hasPrefix("/") ? file : Path.join(FileManager.default.currentDirectoryPath, file)
        return "file://" + Path.normalized(absolute)
    }

    /// The JSON pointer of the node at `mark` (and the node), found by descending from `root` into
    /// the last child that starts at or before it (a document's nodes start in the order they are
    /// written); nil when no node starts exactly there (a converted document's nodes may not).
    static func pointer(to mark: Mark, in root: Node) -> (pointer: String, node: Node)? {
        var node = root
        var pointer = ""
        for _ in 0..<512 {
            if node.mark == mark { return (pointer, node) }
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
