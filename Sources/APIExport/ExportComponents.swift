import APISupport
import APIYAML
import APIJSON
import APITargets

/// The response schemas of `expect: { schema: { openapi: FILE, operation: ID } }` (what `import
/// openapi` writes), copied from that description with its `components.schemas`, which their
/// `$ref`s name. A description whose schemas refer elsewhere (another file, another component
/// kind), or whose schema names another description already gave other schemas, is not copied.
/// OpenAPI 3.0 schemas are written as 3.1 says: `nullable: true` → a `"null"` type,
/// boolean `exclusiveMinimum`/`exclusiveMaximum` → the number; a name `required` twice, once.
struct ExportComponents {
    var schemas: [(name: String, value: YAMLOut)] = []
    /// Description file → whether its schemas were copied (nil: not read yet), and why not.
    private var read: [String: (document: OpenAPIContract.Document?, problem: String?)] = [:]

    /// The schemas by status and media type, or why there are none.
    mutating func responses(spec written: String, operation: String, folder: String) -> Result<[(status: String, mediaType: String, schema: YAMLOut)], ExportProblem> {
        let key = Path.normalized(Path.join(folder, written))
        if read[key] == nil { read[key] = load(written, folder: folder) }
        guard let doc = read[key]?.document else { return .failure(ExportProblem(read[key]?.problem ?? "cannot be read")) }
        guard let found = OpenAPIContract.responseSchemas(doc, operation: operation, folder: folder) else {
            return .failure(ExportProblem("\(written) has no operation '\(operation)'"))
        }
        let upgrade = Self.isThreeZero(doc)
        let names = Set((doc.value["components"]?["schemas"]).map { v -> [String] in
            if case .object(let m) = v { return m.map(\.key) }
            return []
        } ?? [])
        for f in found {
            if let ref = Self.foreignRef(f.schema, names: names) {
                return .failure(ExportProblem("the schema of its \(f.status) response refers to \(ref), which the exported description would not hold"))
            }
        }
        return .success(found.map { ($0.status, $0.mediaType, Self.out($0.schema, upgrade: upgrade)) })
    }

    private mutating func load(_ written: String, folder: String) -> (document: OpenAPIContract.Document?, problem: String?) {
        let doc: OpenAPIContract.Document
        switch OpenAPIContract.document(written, folder: folder) {
        case .failure(let e): return (nil, e.message)
        case .success(let d): doc = d
        }
        let upgrade = Self.isThreeZero(doc)
        let own = (doc.value["components"]?["schemas"]).map { v -> [(String, JSONValue)] in
            if case .object(let m) = v { return m.map { ($0.key, $0.value) } }
            return []
        } ?? []
        let names = Set(own.map(\.0))
        for (name, schema) in own {
            if let ref = Self.foreignRef(schema, names: names) {
                return (nil, "its schema '\(name)' refers to \(ref), which the exported description would not hold")
            }
        }
        var added: [(String, YAMLOut)] = []
        for (name, s) in own {
            let value = Self.out(s, upgrade: upgrade)
            if let same = schemas.first(where: { $0.name == name }) {
                if same.value != value { return (nil, "its schema '\(name)' differs from another description's of that name") }
                continue
            }
            added.append((name, value))
        }
        schemas += added.map { (name: $0.0, value: $0.1) }
        return (doc, nil)
    }

    static func isThreeZero(_ doc: OpenAPIContract.Document) -> Bool {
        if case .string(let v)? = doc.value["openapi"] { return v.hasPrefix("3.0") }
        return false
    }

    static func refs(in v: JSONValue, into out: inout [String]) {
        switch v {
        case .object(let members):
            for m in members {
                if m.key == "$ref", case .string(let s) = m.value { out.append(s) } else { refs(in: m.value, into: &out) }
            }
        case .array(let items): for i in items { refs(in: i, into: &out) }
        default: break
        }
    }

    /// A `$ref` in `schema` to anything but one of the description's `components.schemas` `names`.
    static func foreignRef(_ schema: JSONValue, names: Set<String>) -> String? {
        var found: [String] = []
        refs(in: schema, into: &found)
        let prefix = "#/components/schemas/"
        return found.first { !($0.hasPrefix(prefix) && names.contains(String($0.dropFirst(prefix.count)))) }
    }

    /// A schema as the writers' value; with `upgrade`, 3.0's keywords as 3.1 has them.
    static func out(_ v: JSONValue, upgrade: Bool) -> YAMLOut {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number: return .number(v.jsonText)
        case .string(let s): return .string(s)
        case .array(let items): return .list(items.map { out($0, upgrade: upgrade) })
        case .object(var members):
            // a name listed twice in `required` says nothing more, and JSON Schema wants each once
            if let i = members.firstIndex(where: { $0.key == "required" }), case .array(let names) = members[i].value {
                var seen: [JSONValue] = []
                for n in names where !seen.contains(n) { seen.append(n) }
                members[i].value = .array(seen)
            }
            if upgrade {
                if let i = members.firstIndex(where: { $0.key == "nullable" }) {
                    let nullable = members[i].value == .bool(true)
                    members.remove(at: i)
                    if nullable, let t = members.firstIndex(where: { $0.key == "type" }), case .string(let type) = members[t].value {
                        members[t].value = .array([.string(type), .string("null")])
                    }
                }
                for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
                    guard let i = members.firstIndex(where: { $0.key == flag }), case .bool(let on) = members[i].value else { continue }
                    if on, let b = members.firstIndex(where: { $0.key == bound }) {
                        members[i].value = members[b].value
                        members.remove(at: b)
                    } else {
                        members.remove(at: i)
                    }
                }
            }
            return .map(members.map { .pair($0.key, out($0.value, upgrade: upgrade)) })
        }
    }
}

struct ExportProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
