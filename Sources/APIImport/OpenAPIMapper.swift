import APISupport
import APIYAML
import APITargets
import APITransport
/// Maps one OpenAPI document onto a service draft: the file-level keys here, operations in
/// `OpenAPIOperation.swift`, parameters, bodies, responses and security in their own files.
final class OpenAPIMapper {
    let loader: SpecLoader
    let root: SpecNode
    let service: String
    /// `SERVICE` in `${SERVICE_API_KEY}`.
    let variablePrefix: String
    var sampler: SchemaSample
    /// Judges each sample (built or the description's) and built request body by its schema before it is written.
    let judge: SampleJudge
    /// The service-level security scheme's name, when `security:` names one we could map.
    var serviceScheme: String?
    /// The service's API key when it travels in the query.
    var serviceQuery: YAMLOut.Entry?
    /// Server lists of paths and operations already warned about.
    var ignoredServers: Set<[String]> = []
    /// The first server's URL as written (variables as `${…}`), what relative URLs are resolved against.
    var baseURL = "http://localhost"

    init(loader: SpecLoader, root: SpecNode, service: String) {
        self.loader = loader
        self.root = root
        self.service = service
        self.variablePrefix = ImportNames.variable(service)
        self.sampler = SchemaSample(loader: loader)
        self.judge = SampleJudge(loader: loader, root: root.file)
    }

    func warn(_ node: SpecNode, _ message: String) { loader.warn(node.warning(message)) }

    /// The file-level keys: base URL and environments from `servers`, `doc` from `info`, `auth`.
    func service(baseURL: String) -> ServiceDraft {
        let servers = self.servers()
        self.baseURL = servers.first?.base ?? self.baseURL
        var draft = ServiceDraft(service: service, baseURL: servers.first?.url ?? self.baseURL)
        if servers.isEmpty, root["paths"] != nil || root["webhooks"] == nil {  // (webhooks only: no file of paths)
            warn(root, "no servers: baseURL is http://localhost; set it, or pass --base-url when calling")
        }
        if servers.count > 1 {
            draft.environments = servers.map { .pair($0.name, .map([.pair("baseURL", .string($0.url))])) }
        } else if let variants = servers.first?.variants, !variants.isEmpty {
            draft.environments = variants.map { .pair($0.name, .map([.pair("baseURL", .string($0.url))])) }
        }
        if let title = root["info"]?["title"]?.text {
            let version = root["info"]?["version"]?.text.map { " \($0)" } ?? ""
            draft.doc = ImportText.oneLine(title + version)
        }
        if let auth = serviceAuth() {
            draft.auth = auth.auth
            draft.authNotes = auth.notes
        }
        return draft
    }

    /// Every operation of `paths` in the spec's order, as targets (only those with one of `tags`).
    func targets(tags: [String]) -> [TargetDraft] {
        var taken = UniqueNames()
        let tags = tags.isEmpty ? tags : Self.withChildren(tags, root["tags"])
        if let me = root["$self"] {
            warn(me, "$self is not used for $refs (only for relative server URLs): they are read relative to the file (\(me.text ?? "?") names no file read)")
        }
        var out: [TargetDraft] = []
        guard let paths = root["paths"] else {
            if root["webhooks"] == nil { warn(root, "the description has no paths:") }
            return []
        }
        for (key, keyMark, rawItem) in paths.entries {
            guard key.hasPrefix("/") else {
                if !key.hasPrefix("x-") {
                    loader.warn(ImportWarning(file: paths.file, mark: keyMark, message: "path '\(key)' does not start with '/'; it is not imported"))
                }
                continue
            }
            guard let item = loader.resolve(rawItem) else { continue }
            // `/files/{id}#get_shared_link`: the fragment tells operations apart; it is no part of the URL.
            let hash = key.firstIndex(of: "#")
            let path = ImportText.literalVariables(hash.map { String(key[..<$0]) } ?? key)
            let naming = hash.map { path + "/" + key[key.index(after: $0)...] } ?? path
            if let servers = item["servers"] { serversIgnored(servers, of: "path \(key)") }
            for (_, method, rawOp) in operations(of: item) {
                guard let op = loader.resolve(rawOp) else { continue }
                guard tags.isEmpty || Self.tags(of: op).contains(where: tags.contains) else { continue }
                var t = target(method: method, path: path, naming: naming, op: op, item: item, taken: &taken)
                t.operation = .init(name: op["operationId"]?.text ?? "\(method) \(key)", file: op.file, mark: op.mark)
                out.append(t)
            }
        }
        return out
    }

    /// `servers:` of a path or an operation: nothing to say when they are the description's own;
    /// else one warning per distinct list.
    func serversIgnored(_ servers: SpecNode, of what: String) {
        let urls = servers.items.compactMap { $0["url"]?.text }
        let top = root["servers"]?.items.compactMap { $0["url"]?.text } ?? []
        guard urls != top, ignoredServers.insert(urls).inserted else { return }
        warn(servers, "servers \(urls.joined(separator: ", ")) of \(what) are not imported (nor of any other path or operation listing them); the service's baseURL applies")
    }

    static let methods: [String: String] = [
        "get": "GET", "put": "PUT", "post": "POST", "delete": "DELETE",
        "options": "OPTIONS", "head": "HEAD", "patch": "PATCH", "trace": "TRACE", "query": "QUERY",
    ]

    /// A Path Item's operations: its fixed fields (3.2's `query` among them), then 3.2's
    /// `additionalOperations` (`COPY:`, sent as written); a name that is no HTTP method token is warned about.
    func operations(of item: SpecNode) -> [(key: String, method: String, op: SpecNode)] {
        var out: [(key: String, method: String, op: SpecNode)] = []
        for (name, _, rawOp) in item.entries {
            if let method = Self.methods[name] { out.append((name, method, rawOp)) }
        }
        for (name, keyMark, rawOp) in item["additionalOperations"]?.entries ?? [] {
            guard TargetFile.isToken(name), Self.methods[name.lowercased()] == nil else {
                loader.warn(ImportWarning(file: item.file, mark: keyMark, message: "additional operation '\(name)' is not imported: \(TargetFile.isToken(name) ? "its method has a fixed field of the Path Item (use that)" : "not an HTTP method name")"))
                continue
            }
            out.append((name, name, rawOp))
        }
        return out
    }

    static func tags(of op: SpecNode) -> [String] { op["tags"]?.items.compactMap(\.text) ?? [] }

    /// `--tags` names and, by 3.2's `parent`, every tag below one of them.
    static func withChildren(_ tags: [String], _ list: SpecNode?) -> [String] {
        var out = tags
        let parents = (list?.items ?? []).compactMap { t in t["name"]?.text.flatMap { n in t["parent"]?.text.map { (n, $0) } } }
        var grew = true
        while grew {
            grew = false
            for (child, parent) in parents where out.contains(parent) && !out.contains(child) {
                out.append(child)
                grew = true
            }
        }
        return out
    }
}

/// Text from a spec made fit for a one-line key.
enum ImportText {
    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A string value that goes through template expansion, written so it stays the spec's text:
    /// `${` as `$${`, a `{` that would start a placeholder as `${{}` (see `Template.escaping`).
    static func literal(_ s: String) -> String { Template.escaping(s) }

    /// Only `${` escaped: for text whose `{name}`s are meant (paths, server URLs).
    static func literalVariables(_ s: String) -> String {
        s.contains("${") ? s.replacing("${", with: "$${") : s
    }

    /// Why a header cannot be written (a name that is not a token, a value with a line break or
    /// another control character), or nil.
    static func headerProblem(name: String, value: String) -> String? {
        if !TargetFile.isToken(name) { return "header name '\(name.debugDescription.dropFirst().dropLast())' is not a valid header name" }
        if HeaderField.forbiddenCharacter(in: value) != nil {
            return "the value of header '\(name)' holds a line break or a control character"
        }
        return nil
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
