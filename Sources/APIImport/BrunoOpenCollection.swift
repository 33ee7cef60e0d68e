import APISupport
import APIYAML
import APIDiagnostics
/// OpenCollection YAML (Bruno's format since 2026) → `BrunoCollection`, read through the YAML
/// layer (so every warning has a line and column): a folder with `opencollection.yml`, one
/// request per other `.yml` file, `folder.yml` per folder, `environments/*.yml`; or one file
/// holding it all (`items:`, `config.environments`).
enum BrunoOpenCollection {
    static let rootFile = "opencollection.yml"

    /// `opencollection: "1.0.0"`, or the earlier draft's top-level `name` (or `info`) and `items`.
    static func isCollection(_ root: SpecNode) -> Bool {
        root["opencollection"] != nil || (root["items"]?.node.items != nil && (root["name"] != nil || root["info"] != nil))
    }

    /// A folder holding `opencollection.yml`.
    static func collection(_ dir: String, files: ImportFolder) throws(APIError) -> BrunoCollection {
        let rootPath = Path.join(dir, rootFile)
        let root = try node(rootPath, files)
        var c = try collection(root)
        walk(dir, depth: 0, files: files, into: &c.root, warnings: &c.warnings)
        let envDir = Path.join(dir, "environments")
        for name in (files.list(envDir) ?? []).sorted() where name.hasSuffix(".yml") || name.hasSuffix(".yaml") {
            guard let env = try? node(Path.join(envDir, name), files) else {
                c.warnings.append(ImportWarning(file: Path.join(envDir, name), mark: nil, message: "the environment file cannot be read as YAML; it is not imported"))
                continue
            }
            c.environments.append(environment(env, name: Path.stem(name)))
        }
        c.root.sort()
        return c
    }

    /// One file: `opencollection.yml` alone (with `items:`), or a single request file.
    static func collection(_ root: SpecNode) throws(APIError) -> BrunoCollection {
        var c = BrunoCollection()
        c.name = root["info"]?["name"]?.text ?? root["name"]?.text
        c.root.docs = root["docs"]?.text ?? root["docs"]?["content"]?.text
        if let request = root["request"] { defaults(request, into: &c.root, warnings: &c.warnings) }
        for env in (root["config"]?["environments"] ?? root["environments"])?.items ?? [] {
            c.environments.append(environment(env, name: env["name"]?.text ?? "env"))
        }
        if let items = root["items"] { self.items(items, depth: 0, into: &c.root, warnings: &c.warnings) }
        c.root.sort()
        return c
    }

    static func node(_ path: String, _ files: ImportFolder) throws(APIError) -> SpecNode {
        guard let bytes = files.read(path) else {
            throw .invalid(Diagnostic(file: path, mark: nil, message: "cannot read \(path)"))
        }
        return try CollectionInput.root(ImportInput(name: path, bytes: bytes))
    }

    private static func walk(_ dir: String, depth: Int, files: ImportFolder, into folder: inout BrunoFolder, warnings: inout [ImportWarning]) {
        folder.read(dir, depth: depth, files: files, warnings: &warnings) { path, name, depth, folder, warnings in
            guard name.hasSuffix(".yml") || name.hasSuffix(".yaml"), !(depth == 0 && name == rootFile) else { return }
            let node: SpecNode
            do throws(APIError) { node = try self.node(path, files) } catch {
                let why = if case .invalidInput(let d) = error, let first = d.first { first.message } else { "it cannot be read" }
                warnings.append(ImportWarning(file: path, mark: nil, message: "\(why); the file is not imported"))
                return
            }
            if Path.stem(name) == "folder" {
                if let n = node["info"]?["name"]?.text { folder.name = n }
                if let seq = node["info"]?["seq"]?.text.flatMap(Double.init) { folder.seq = seq }
                if let request = node["request"] { defaults(request, into: &folder, warnings: &warnings) }
                return
            }
            item(node, depth: depth, into: &folder, warnings: &warnings)
        }
    }

    /// `items:` of a one-file collection.
    private static func items(_ list: SpecNode, depth: Int, into folder: inout BrunoFolder, warnings: inout [ImportWarning]) {
        for item in list.items { self.item(item, depth: depth, into: &folder, warnings: &warnings) }
    }

    private static func item(_ node: SpecNode, depth: Int, into folder: inout BrunoFolder, warnings: inout [ImportWarning]) {
        // `info: { type, name, seq }`; the earlier draft writes them on the item itself
        let type = (node["info"] ?? node)["type"]?.text ?? (node["items"] != nil ? "folder" : node["graphql"] != nil ? "graphql" : "http")
        let name = (node["info"] ?? node)["name"]?.text ?? Path.stem(Path.lastComponent(node.file))
        switch type {
        case "folder":
            guard depth < BrunoBru.maxDepth else { return }
            var sub = BrunoFolder(name: name)
            if let seq = (node["info"] ?? node)["seq"]?.text.flatMap(Double.init) { sub.seq = seq }
            if let docs = node["docs"]?.text, !docs.trimmingWhitespace().isEmpty {
                sub.skipped.append(("the docs", BrunoPlace(node["docs"]!.file, node["docs"]!.mark)))
            }
            if let request = node["request"] { defaults(request, into: &sub, warnings: &warnings) }
            if let items = node["items"] { self.items(items, depth: depth + 1, into: &sub, warnings: &warnings) }
            folder.folders.append(sub)
        case "http", "graphql":
            folder.requests.append(request(node, name: name, kind: type))
        default:
            folder.requests.append(BrunoRequest(name: name, place: BrunoPlace(node.file, node.mark), kind: type))
        }
    }

    /// A folder's (or the collection's) `request:` defaults: headers, auth, variables, scripts.
    private static func defaults(_ node: SpecNode, into folder: inout BrunoFolder, warnings: inout [ImportWarning]) {
        folder.headers = entries(node["headers"])
        folder.vars = entries(node["variables"])
        folder.auth = auth(node["auth"])
        folder.skipped = scripts(node["scripts"])
    }

    static func request(_ node: SpecNode, name: String, kind: String) -> BrunoRequest {
        let http = node[kind == "graphql" ? "graphql" : "http"] ?? node["http"] ?? node
        var r = BrunoRequest(name: name, place: BrunoPlace(node.file, (node["http"] ?? node["graphql"] ?? node).mark), kind: kind)
        if let seq = (node["info"] ?? node)["seq"]?.text.flatMap(Double.init) { r.seq = seq }
        r.method = (http["method"]?.text ?? (kind == "graphql" ? "POST" : "GET")).uppercased()
        r.url = http["url"]?.text ?? ""
        let params = (http["params"]?.items ?? []).filter { $0["disabled"]?.bool != true && $0["enabled"]?.bool != false }
        let query = params.filter { ($0["type"]?.text ?? "query") == "query" }
        if !query.isEmpty, let q = r.url.firstIndex(of: "?") { r.url = String(r.url[..<q]) }
        r.query = query.compactMap(entry)
        for p in params where p["type"]?.text == "path" { if let e = entry(p) { r.pathParams[e.name] = e.value } }
        r.headers = entries(http["headers"])
        r.auth = auth(http["auth"])
        if let b = http["body"] {
            let chosen = b.node.items == nil ? b : (b.items.first { $0["selected"]?.bool == true } ?? b.items.first)?["body"]
            if let chosen { body(chosen, kind: kind, into: &r) }
        }
        let runtime = node["runtime"]
        r.vars = entries(runtime?["variables"])
        r.skipped = scripts(runtime?["scripts"] ?? node["scripts"])
        if let actions = runtime?["actions"], !actions.items.isEmpty {
            r.skipped.append(("the post-response actions", BrunoPlace(actions.file, actions.mark)))
        }
        for a in runtime?["assertions"]?.items ?? [] where a["disabled"]?.bool != true {
            guard let expr = a["expression"]?.text else { continue }
            let value = [a["operator"]?.text ?? "eq", a["value"]?.text ?? ""].joined(separator: " ").trimmingWhitespace()
            r.asserts.append(BrunoEntry(name: expr, value: value, place: BrunoPlace(a.file, a.mark)))
        }
        for (key, _, value) in node["settings"]?.entries ?? [] {
            if let text = value.text { r.setting(key, text, at: BrunoPlace(value.file, value.mark)) }
        }
        r.docs = node["docs"]?.text ?? node["docs"]?["content"]?.text
        for e in node["examples"]?.items ?? [] {
            guard let response = e["response"], let status = Int(response["status"]?.text ?? "200"), (100...599).contains(status) else {
                r.skipped.append(("the response example (no response with a status 100–599)", BrunoPlace(e.file, e.mark)))
                continue
            }
            let headers = entries(response["headers"]).map { ($0.name, $0.value) }
            r.examples.append((e["name"]?.text ?? String(status), status, headers, response["body"]?["data"]?.text,
                               response["body"]?["type"]?.text == "json"))
        }
        return r
    }

    private static func body(_ b: SpecNode, kind: String, into r: inout BrunoRequest) {
        r.bodyPlace = BrunoPlace(b.file, b.mark)
        if kind == "graphql" || b["query"] != nil {
            r.body = .graphql(query: b["query"]?.text ?? "", variables: b["variables"]?.text)
            return
        }
        let type = b["type"]?.text ?? b["mode"]?.text ?? "none"
        let data = b["data"] ?? b[type]
        switch type {
        case "json", "text", "xml", "sparql":
            r.body = .text(kind: type, data?.text ?? "")
        case "form-urlencoded", "formUrlEncoded":
            r.body = .form(entries(data))
        case "multipart-form", "multipartForm":
            r.body = .multipart((data?.items ?? []).filter { $0["disabled"]?.bool != true }.compactMap { p in
                guard let e = entry(p) else { return nil }
                if p["type"]?.text == "file" {
                    let files = p["value"]?.items.compactMap(\.text) ?? []
                    return (e, files.first ?? e.value)
                }
                return (e, nil)
            })
        case "file":
            let chosen = data?.items.first { $0["selected"]?.bool != false } ?? data?.items.first
            r.body = .file(chosen?["filePath"]?.text ?? "")
        case "none":
            r.body = .none
        default:
            r.skipped.append(("the body type '\(type)'", BrunoPlace(b.file, b.mark)))
        }
    }

    /// `[{ name, value, disabled }]`, enabled ones; a typed value (`{ type: number, data: "1" }`) as its data.
    private static func entries(_ list: SpecNode?) -> [BrunoEntry] {
        (list?.items ?? []).filter { $0["disabled"]?.bool != true && $0["enabled"]?.bool != false }.compactMap(entry)
    }

    private static func entry(_ node: SpecNode) -> BrunoEntry? {
        guard let name = node["name"]?.text else { return nil }
        let v = node["value"]
        let value = v?.text ?? v?["data"]?.text ?? ""
        return BrunoEntry(name: name, value: value, place: BrunoPlace(node.file, node.mark))
    }

    static func auth(_ node: SpecNode?) -> BrunoAuth? {
        guard let node else { return nil }
        if let text = node.text { return text == "inherit" ? nil : BrunoAuth(mode: text, place: BrunoPlace(node.file, node.mark)) }
        guard let type = node["type"]?.text, type != "inherit" else { return nil }
        var a = BrunoAuth(mode: type, place: BrunoPlace(node.file, node.mark))
        for key in ["username", "password", "token", "key", "value", "placement", "scope", "accessKeyId", "secretAccessKey",
                    "sessionToken", "service", "region"] {
            if let v = node[key]?.text { a.fields[key] = v }
        }
        if type == "oauth2" {
            a.fields["grant"] = node["flow"]?.text
            a.fields["tokenURL"] = node["accessTokenUrl"]?.text
            a.fields["clientId"] = node["credentials"]?["clientId"]?.text
            a.fields["clientSecret"] = node["credentials"]?["clientSecret"]?.text
        }
        return a
    }

    private static func scripts(_ list: SpecNode?) -> [(what: String, place: BrunoPlace)] {
        if let list, list.isMapping {  // the earlier draft: `scripts: { preRequest:, postResponse:, tests: }`
            return list.entries.compactMap { key, _, code in
                guard let text = code.text, !text.trimmingWhitespace().isEmpty else { return nil }
                let what = ["preRequest": "the pre-request script", "postResponse": "the post-response script", "tests": "the tests"][key] ?? "the script '\(key)'"
                return (what, BrunoPlace(code.file, code.mark))
            }
        }
        return (list?.items ?? []).compactMap { s in
            guard let code = s["code"]?.text, !code.trimmingWhitespace().isEmpty else { return nil }
            let what = switch s["type"]?.text ?? "" {
            case "before-request": "the pre-request script"
            case "after-response": "the post-response script"
            case "tests": "the tests"
            default: "the script"
            }
            return (what, BrunoPlace(s.file, s.mark))
        }
    }

    static func environment(_ node: SpecNode, name: String) -> BrunoEnvironment {
        var env = BrunoEnvironment(name: node["name"]?.text ?? name)
        for v in node["variables"]?.items ?? [] where v["disabled"]?.bool != true {
            guard let e = entry(v) else { continue }
            if v["secret"]?.bool == true { env.secrets.insert(e.name) } else { env.values[e.name] = e.value }
        }
        return env
    }
}
