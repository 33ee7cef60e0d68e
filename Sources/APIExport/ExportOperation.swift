import APISupport
import APIYAML
import APIDiagnostics
import APISecrets
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One target as an Operation object.
struct ExportOperation {
    let service: Service
    let target: Target
    let path: String
    /// The target's node in its file's tree (for an inline `expect: schema:`).
    let tree: Node?
    var warnings: [Diagnostic] = []

    init(service: Service, target: Target, path: String, tree: Node?) {
        self.service = service
        self.target = target
        self.path = path
        self.tree = tree
    }

    mutating func warn(_ message: String) {
        var d = Diagnostic(file: service.file, mark: target.mark, message: "target \(target.qualifiedName): " + message)
        d.isWarning = true
        warnings.append(d)
    }

    func example(_ t: Template) -> String { ExportText.example(t, params: target.params) }

    mutating func build(operationId: String, security: YAMLOut?, components: inout ExportComponents) -> YAMLOut {
        var op: [YAMLOut.Entry] = [.pair("operationId", .string(operationId))]
        if let doc = target.doc { op.append(.pair("summary", .string(doc))) }
        let parameters = self.parameters()
        if !parameters.isEmpty { op.append(.pair("parameters", .list(parameters))) }
        if let body = requestBody() { op.append(.pair("requestBody", body)) }
        op.append(.pair("responses", .map(responses(&components))))
        if let security { op.append(.pair("security", security)) }
        return .map(op)
    }

    // MARK: parameters

    private mutating func parameters() -> [YAMLOut] {
        var out: [YAMLOut] = []
        var seen: Set<String> = []
        for name in Template(path, mark: target.mark).placeholders where seen.insert(name).inserted {
            var p: [YAMLOut.Entry] = [.pair("name", .string(name)), .pair("in", .string("path")), .pair("required", .bool(true)),
                                      .pair("schema", .map([.pair("type", .string("string"))]))]
            if let value = target.params.first(where: { $0.name == name })?.value { p.append(.pair("example", .string(example(value)))) }
            out.append(.map(p))
        }
        var query: [Value.Member] = []
        if case .object(let members)? = target.task.query { query += members } else if target.task.query != nil {
            warn("its task query is not a mapping of names to values; it is left out")
        }
        if !target.task.parametersInBody(method: target.method), case .object(let members)? = target.task.parameters { query += members }
        for m in query { out.append(queryParameter(m)) }
        for h in headers() {
            let lower = h.name.lowercased()
            guard !["accept", "content-type", "authorization"].contains(lower) else { continue }
            var p: [YAMLOut.Entry] = [.pair("name", .string(h.name)), .pair("in", .string("header")), .pair("required", .bool(true)),
                                      .pair("schema", .map([.pair("type", .string("string"))]))]
            if Credentials.isHeader(h.name) {
                p.append(.pair("description", .string("A credential: its value is not exported.")))
            } else {
                p.append(.pair("example", .string(example(h.value))))
            }
            out.append(.map(p))
        }
        return out
    }

    /// The service's headers and the target's, a target's replacing the service's of the same name.
    func headers() -> [Header] {
        var out = service.headers
        for h in target.headers {
            if let i = out.firstIndex(where: { $0.name.lowercased() == h.name.lowercased() }) { out[i] = h } else { out.append(h) }
        }
        return out
    }

    private func queryParameter(_ m: Value.Member) -> YAMLOut {
        let value = wire(m.value)
        var name = m.key
        var p: [YAMLOut.Entry] = []
        switch value {
        case .list:
            if target.task.arrays == .brackets { name += "[]" }
            p = [.pair("style", .string("form")), .pair("explode", .bool(true))]
        case .map:
            p = [.pair("style", .string("deepObject")), .pair("explode", .bool(true))]
        default: break
        }
        var head: [YAMLOut.Entry] = [.pair("name", .string(name)), .pair("in", .string("query")), .pair("required", .bool(true))]
        head += p
        head.append(.pair("schema", ExportSchema.of(value)))
        if Credentials.isSecretName(m.key) {
            head.append(.pair("description", .string("A credential: its value is not exported.")))
        } else {
            head.append(.pair("example", value))
        }
        return .map(head)
    }

    /// A query value as it is sent: booleans as the task's `bools:` says.
    private func wire(_ v: Value) -> YAMLOut {
        switch v {
        case .bool(let b) where target.task.bools == .numeric: return .number(b ? "1" : "0")
        case .array(let items): return .list(items.map(wire))
        case .object(let members): return .map(members.map { .pair($0.key, wire($0.value)) })
        default: return out(v)
        }
    }

    /// A value of the target file as an example; a member with a credential's name (`password`,
    /// `access_token`, see `Credentials`) as `••••` when it is text.
    func out(_ v: Value) -> YAMLOut {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let t): return .string(example(t))
        case .array(let items): return .list(items.map(out))
        case .object(let members):
            return .map(members.map { m in
                if case .string = m.value, Credentials.isSecretName(m.key) { return .pair(m.key, .string(Redactor.mask)) }
                return .pair(m.key, out(m.value))
            })
        }
    }

    // MARK: request body

    private mutating func requestBody() -> YAMLOut? {
        let declared = target.task.contentType.map(example)
            ?? headers().first(where: { $0.name.lowercased() == "content-type" }).map { example($0.value) }
        var media: (type: String, content: [YAMLOut.Entry])?
        if target.task.parametersInBody(method: target.method), let params = target.task.parameters {
            let v = out(params)
            media = (target.task.encoding == .json ? "application/json" : "application/x-www-form-urlencoded",
                     [.pair("schema", ExportSchema.of(v)), .pair("example", v)])
        }
        switch target.task.body {
        case nil: break
        case .json(let value)?:
            let v = out(value)
            media = ("application/json", [.pair("schema", ExportSchema.of(v)), .pair("example", v)])
        case .form(let value)?:
            let v = out(value)
            media = ("application/x-www-form-urlencoded", [.pair("schema", ExportSchema.of(v)), .pair("example", v)])
        case .text(let t)?:
            media = ("text/plain", [.pair("schema", .map([.pair("type", .string("string"))])), .pair("example", .string(example(t)))])
        case .file(let file, _)?, .upload(let file, _)?:
            warn("its body is the file \(Path.lastComponent(file)): the description says only its media type")
            media = ("application/octet-stream", [.pair("schema", .map([.pair("type", .string("string")),
                                                                         .pair("contentMediaType", .string(declared ?? "application/octet-stream"))]))])
        case .multipart(let parts)?:
            var properties: [YAMLOut.Entry] = []
            var example: [YAMLOut.Entry] = []
            for part in parts {
                switch part.content {
                case .value(let t):
                    properties.append(.pair(part.name, .map([.pair("type", .string("string"))])))
                    example.append(.pair(part.name, .string(Credentials.isSecretName(part.name) ? Redactor.mask : self.example(t))))
                case .file:
                    properties.append(.pair(part.name, .map([.pair("type", .string("string")),
                                                             .pair("contentMediaType", .string(part.type ?? "application/octet-stream"))])))
                }
            }
            media = ("multipart/form-data", [.pair("schema", .map([.pair("type", .string("object")), .pair("properties", .map(properties))])),
                                             .pair("example", .map(example))])
        case .graphql(let g)?:
            let v = out(.object(g.members(inURL: false)))
            media = ("application/json", [.pair("schema", ExportSchema.of(v)), .pair("example", v)])
        }
        guard var media else { return nil }
        if let declared, !declared.isEmpty, declared.split(separator: ";").first?.trimmingSpaces().lowercased() != media.type {
            media.type = declared
        }
        return .map([.pair("required", .bool(true)), .pair("content", .map([.pair(media.type, .map(media.content))]))])
    }

    // MARK: responses

    private mutating func responses(_ components: inout ExportComponents) -> [YAMLOut.Entry] {
        let (inline, documented) = expectSchemas(&components)
        var statuses: [(status: String, samples: [(name: String, sample: Sample)])] = []
        for (name, sample) in target.allSamples where sample.error == nil {
            let key = String(sample.status)
            if let i = statuses.firstIndex(where: { $0.status == key }) {
                statuses[i].samples.append((name ?? "sample", sample))
            } else {
                statuses.append((key, [(name ?? "sample", sample)]))
            }
        }
        // the statuses the referenced description documents and no sample shows
        for d in documented where !statuses.contains(where: { $0.status == d.status.uppercased() || ($0.status == "default" && d.status.uppercased() == "DEFAULT") }) {
            statuses.append((d.status.uppercased() == "DEFAULT" ? "default" : d.status.uppercased(), []))
        }
        if statuses.isEmpty {
            var r: [YAMLOut.Entry] = [.pair("description", .string("Not described by a sample"))]
            if let inline { r.append(.pair("content", .map([.pair("application/json", .map([.pair("schema", inline)]))]))) }
            return [.pair("default", .map(r))]
        }
        return statuses.map { group in
            let names = group.samples.map(\.name)
            var r: [YAMLOut.Entry] = [.pair("description", .string(names.isEmpty ? "As the description the target refers to says"
                                                                  : "From the target's " + names.joined(separator: ", ")))]
            let success = group.status.hasPrefix("2")
            var headers: [YAMLOut.Entry] = []
            for h in group.samples.first?.sample.headers ?? [] where !["content-type", "set-cookie"].contains(h.name.lowercased()) && !Credentials.isHeader(h.name) {
                headers.append(.pair(h.name, .map([.pair("schema", .map([.pair("type", .string("string"))])), .pair("example", .string(example(h.value)))])))
            }
            if !headers.isEmpty { r.append(.pair("headers", .map(headers))) }
            // Media type → schema and (name, example) of each sample with a body
            var media: [(type: String, schema: YAMLOut?, examples: [(String, YAMLOut)])] = []
            for (name, sample) in group.samples {
                guard let (type, value) = body(sample) else { continue }
                if let i = media.firstIndex(where: { $0.type == type }) { media[i].examples.append((name, value)) } else { media.append((type, nil, [(name, value)])) }
            }
            for d in documented where d.status.uppercased() == group.status.uppercased() {
                if let i = media.firstIndex(where: { Self.sameType($0.type, d.mediaType) }) { media[i].schema = d.schema } else { media.append((d.mediaType, d.schema, [])) }
            }
            if success, let inline {
                if media.isEmpty { media.append(("application/json", nil, [])) }
                for i in media.indices where Self.isJSON(media[i].type) && media[i].schema == nil { media[i].schema = inline }
            }
            if !media.isEmpty {
                r.append(.pair("content", .map(media.map { m in
                    var entry: [YAMLOut.Entry] = []
                    if let schema = m.schema { entry.append(.pair("schema", schema)) }
                    if m.examples.count == 1 {
                        entry.append(.pair("example", m.examples[0].1))
                    } else if m.examples.count > 1 {
                        entry.append(.pair("examples", .map(m.examples.map { .pair($0.0, .map([.pair("value", $0.1)])) })))
                    }
                    return .pair(m.type, .map(entry))
                })))
            }
            return .pair(group.status, .map(r))
        }
    }

    /// `application/json; charset=utf-8` is `application/json`.
    static func sameType(_ a: String, _ b: String) -> Bool {
        func bare(_ t: String) -> String { t.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? "" }
        return bare(a) == bare(b)
    }

    static func isJSON(_ type: String) -> Bool {
        let t = type.lowercased()
        return t.hasPrefix("application/json") || t.contains("+json")
    }

    /// A sample's media type and body as an example.
    private mutating func body(_ sample: Sample) -> (String, YAMLOut)? {
        let declared = sample.headers.first { $0.name.lowercased() == "content-type" }.map { example($0.value) }
        switch sample.body {
        case nil: return nil
        case .json(let v)?: return (declared ?? "application/json", out(v))
        case .text(let t)?: return (declared ?? "text/plain", .string(example(t)))
        case .file(let file, _)?:
            guard let data = FileManager.default.contents(atPath: file), data.count <= 1 << 20 else {
                warn("its sample body file \(Path.lastComponent(file)) is missing or over 1 MiB; no example is written from it")
                return nil
            }
            let text = String(decoding: data, as: UTF8.self)
            if let type = declared, Self.isJSON(type), let node = try? YAMLParser.parse(Array(data)) {
                return (type, YAMLOut(node))
            }
            return (declared ?? "application/octet-stream", .string(text))
        }
    }

    /// The target's `expect: schema:`: an inline schema (for its JSON 2xx responses), or the
    /// response schemas of the description operation it names (by status and media type); a
    /// schema file, or a description that cannot be copied, is a warning.
    private mutating func expectSchemas(_ components: inout ExportComponents) -> (inline: YAMLOut?, documented: [(status: String, mediaType: String, schema: YAMLOut)]) {
        guard let expectation = target.expect?.schema else { return (nil, []) }
        let node = ExportTree.child(tree, ["expect", "schema"])
        if expectation.source == "inline", let node { return (YAMLOut(node), []) }
        if let spec = ExportTree.child(node, "openapi")?.scalarText, let operation = ExportTree.child(node, "operation")?.scalarText {
            switch components.responses(spec: spec, operation: operation, folder: Path.parent(service.file)) {
            case .success(let found): return (nil, found)
            case .failure(let problem):
                warn("the schemas of its expect schema (\(spec) \(operation)) are not exported: \(problem.message)")
                return (nil, [])
            }
        }
        warn("its expect schema '\(expectation.source)' is a schema file; only inline schemas and those of an OpenAPI operation are exported")
        return (nil, [])
    }
}

/// A JSON Schema that an example value satisfies: its type, an object's properties, an array's items.
enum ExportSchema {
    static func of(_ v: YAMLOut) -> YAMLOut {
        switch v {
        case .null: return .map([.pair("type", .string("null"))])
        case .bool: return .map([.pair("type", .string("boolean"))])
        case .number(let n): return .map([.pair("type", .string(Int(n) != nil ? "integer" : "number"))])
        case .string: return .map([.pair("type", .string("string"))])
        case .list(let items):
            return .map([.pair("type", .string("array"))] + (items.first.map { [.pair("items", of($0))] } ?? []))
        case .map(let entries), .blockMap(let entries):
            let properties: [YAMLOut.Entry] = entries.compactMap { if case .pair(let k, let v) = $0 { return .pair(k, of(v)) } else { return nil } }
            return .map([.pair("type", .string("object"))] + (properties.isEmpty ? [] : [.pair("properties", .map(properties))]))
        }
    }
}
