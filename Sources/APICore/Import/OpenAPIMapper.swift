/// Maps one OpenAPI document onto a service draft: the file-level keys here, operations in
/// `OpenAPIOperation.swift`, parameters, bodies, responses and security in their own files.
final class OpenAPIMapper {
    let loader: SpecLoader
    let root: SpecNode
    let service: String
    /// `SERVICE` in `${SERVICE_API_KEY}`.
    let variablePrefix: String
    var sampler: SchemaSample
    /// The service-level security scheme's name, when `security:` names one we could map.
    var serviceScheme: String?
    /// The service's API key when it travels in the query.
    var serviceQuery: YAMLOut.Entry?

    init(loader: SpecLoader, root: SpecNode, service: String) {
        self.loader = loader
        self.root = root
        self.service = service
        self.variablePrefix = ImportNames.variable(service)
        self.sampler = SchemaSample(loader: loader)
    }

    func warn(_ node: SpecNode, _ message: String) { loader.warn(node.warning(message)) }

    /// The file-level keys: base URL and environments from `servers`, `doc` from `info`, `auth`.
    func service(baseURL: String) -> ServiceDraft {
        let servers = self.servers()
        var draft = ServiceDraft(service: service, baseURL: servers.first?.url ?? "http://localhost")
        if servers.isEmpty {
            warn(root, "no servers: baseURL is http://localhost; set it, or pass --base-url when calling")
        }
        if servers.count > 1 {
            draft.environments = servers.map { .pair($0.name, .map([.pair("baseURL", .string($0.url))])) }
        }
        if let title = root["info"]?["title"]?.text {
            let version = root["info"]?["version"]?.text.map { " \($0)" } ?? ""
            draft.doc = ImportText.oneLine(title + version)
        }
        if let auth = serviceAuth() {
            draft.auth = auth.auth
            draft.authNotes = auth.notes
        }
        for key in ["webhooks"] where root[key] != nil {
            warn(root[key]!, "\(key) are not imported (apicli calls APIs; it does not receive calls)")
        }
        return draft
    }

    /// Every operation of `paths` in the spec's order, as targets (only those with one of `tags`).
    func targets(tags: [String]) -> [TargetDraft] {
        var taken: Set<String> = []
        var out: [TargetDraft] = []
        guard let paths = root["paths"] else {
            warn(root, "the description has no paths:")
            return []
        }
        for (path, _, rawItem) in paths.entries where path.hasPrefix("/") {
            guard let item = loader.resolve(rawItem) else { continue }
            if let servers = item["servers"] { warn(servers, "servers of path \(path) are not imported; the service's baseURL applies") }
            for (key, _, op) in item.entries {
                guard let method = Self.methods[key] else { continue }
                guard tags.isEmpty || Self.tags(of: op).contains(where: tags.contains) else { continue }
                out.append(target(method: method, path: path, op: op, item: item, taken: &taken))
            }
        }
        return out
    }

    static let methods: [String: String] = [
        "get": "GET", "put": "PUT", "post": "POST", "delete": "DELETE",
        "options": "OPTIONS", "head": "HEAD", "patch": "PATCH", "trace": "TRACE",
    ]

    static func tags(of op: SpecNode) -> [String] { op["tags"]?.items.compactMap(\.text) ?? [] }
}

/// Text from a spec made fit for a one-line key.
enum ImportText {
    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A string value that goes through template expansion: a literal `${` is written `$${`.
    static func literal(_ s: String) -> String {
        s.utf8.contains(UInt8(ascii: "$")) ? s.replacing("${", with: "$${") : s
    }

    /// Every string of `value` escaped for template expansion.
    static func literal(_ value: YAMLOut) -> YAMLOut {
        switch value {
        case .string(let s): return .string(literal(s))
        case .list(let items): return .list(items.map(literal))
        case .map(let entries):
            return .map(entries.map { if case .pair(let k, let v) = $0 { return .pair(k, literal(v)) } else { return $0 } })
        default: return value
        }
    }
}
