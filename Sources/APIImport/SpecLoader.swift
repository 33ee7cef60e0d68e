import APISupport
import APIYAML
import APIJSON
import APIDiagnostics
import APITransport
/// Reads OpenAPI descriptions (YAML or JSON, both through libyaml: JSON is YAML flow syntax) and
/// resolves `$ref`s: local (`#/components/schemas/Pet`) and to other files relative to the
/// referring one (`common.yaml#/Error`). Files and resolved pointers are read once. A `$ref` to a
/// file outside the `roots` (the spec's folder, and what `--allow-ref-root` names) is not followed:
/// a description cannot make the import read, and then send, any file of the machine.
final class SpecLoader {
    private var documents: [String: Node] = [:]
    private var resolved: [String: SpecNode] = [:]
    private(set) var warnings: [ImportWarning] = []
    /// Where the bytes of `path` come from; the executable passes a file reader.
    private let read: (String) throws(APIError) -> [UInt8]
    /// Folders a `$ref`'d file must be inside; none: the referring files' own folders only.
    private var roots: [String]
    private var warned: Set<String> = []
    /// Applied to every document read from now on (a Swagger 2.0 description's files: `Swagger2`).
    private var convert: ((SpecNode) -> Node)?

    init(read: @escaping (String) throws(APIError) -> [UInt8], roots: [String] = []) {
        self.read = read
        self.roots = roots
    }

    /// The root of the document at `path` (as the user or a `$ref` named it).
    func root(_ path: String) throws(APIError) -> SpecNode {
        if let node = documents[path] { return SpecNode(node: node, file: path) }
        let bytes = try read(path)
        let node: Node?
        do {
            node = try YAMLParser.parse(JSONParser.escapingDEL(bytes))  // a raw DEL in JSON, as JSON reads it
        } catch {
            throw .invalid(Diagnostic(file: path, error))
        }
        guard var node else { throw .invalid(Diagnostic(file: path, mark: nil, message: "the file is empty")) }
        if documents.isEmpty { roots.insert(Path.parent(path), at: 0) }  // the spec's own folder
        if let convert { node = convert(SpecNode(node: node, file: path)) }
        documents[path] = node
        return SpecNode(node: node, file: path)
    }

    /// The document at `path` (read already) replaced by `convert` of it, and every document read
    /// from now on converted by `convert` too: the files of a Swagger 2.0 description.
    func converting(_ path: String, _ convert: @escaping (SpecNode) -> Node) -> SpecNode {
        let node = convert(SpecNode(node: documents[path]!, file: path))
        documents[path] = node
        self.convert = convert
        return SpecNode(node: node, file: path)
    }

    /// A document as read (and converted), by the name `files` gives it.
    func document(_ path: String) -> Node? { documents[path] }

    /// Every file read so far, as named (the spec, then what its `$ref`s named).
    var files: [String] { Array(documents.keys) }

    /// Records a warning once: the same message at the same place is not repeated.
    func warn(_ w: ImportWarning) {
        if warned.insert(w.description).inserted { warnings.append(w) }
    }

    /// The node a `$ref` chain ends at, or the node itself; nil (and a warning) when a reference
    /// cannot be followed. `seen` is the chain so far: a cycle of `$ref`s is reported, not followed.
    func resolve(_ n: SpecNode) -> SpecNode? {
        var current = n
        var seen: Set<String> = []
        while let ref = current.ref {
            let key = Self.key(ref, from: current.file)
            guard seen.insert(key).inserted else {
                warn(current.warning("$ref '\(ref)' refers back to itself"))
                return nil
            }
            guard let target = lookUp(ref, key: key, from: current) else { return nil }
            current = target
        }
        return current
    }

    /// A reference's identity: the file it names (relative to the referring one) and the pointer.
    static func key(_ ref: String, from file: String) -> String {
        let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        return relative(path, to: file) + "#" + pointer
    }

    static func relative(_ path: String, to file: String) -> String {
        if path.isEmpty { return file }
        if path.hasPrefix("/") { return path }
        return Path.join(Path.parent(file), path)
    }

    private func lookUp(_ ref: String, key: String, from n: SpecNode) -> SpecNode? {
        if let hit = resolved[key] { return hit }
        let hash = key.lastIndex(of: "#")!
        let path = String(key[..<hash])
        if ref.hasPrefix("http://") || ref.hasPrefix("https://") {
            warn(n.warning("$ref '\(ref)' names a URL; only local files are read"))
            return nil
        }
        if documents[path] == nil, !roots.contains(where: { Path.isInside(path, $0) }) {
            warn(n.warning("$ref '\(ref)' names a file outside the description's folder; it is not followed (pass --allow-ref-root DIR to allow the folder holding it)"))
            return nil
        }
        let document: SpecNode
        do {
            document = try root(path)
        } catch {
            let reason = Self.reason(error)
            warn(n.warning("$ref '\(ref)': " + (reason.hasPrefix("cannot read") ? reason : "cannot read \(path)" + (reason.isEmpty ? "" : ": " + reason))))
            return nil
        }
        guard let target = Self.follow(pointer: String(key[key.index(after: hash)...]), in: document) else {
            warn(n.warning("$ref '\(ref)' points at nothing in \(path)"))
            return nil
        }
        resolved[key] = target
        return target
    }

    private static func reason(_ error: APIError) -> String {
        if case .invalidInput(let d) = error, let first = d.first { return first.message }
        return ""
    }

    /// A JSON pointer (RFC 6901: `/a/b~1c`, `~0` for `~`, percent-encoding) from `root`.
    static func follow(pointer: String, in root: SpecNode) -> SpecNode? {
        var node = root
        let decoded = pointer.removingPercentEscapes() ?? pointer
        for raw in decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let token = String(raw).replacing("~1", with: "/").replacing("~0", with: "~")
            if let next = node[token] {
                node = next
            } else if let i = Int(token), node.items.indices.contains(i) {
                node = node.items[i]
            } else {
                return nil
            }
        }
        return node
    }
}
