import APISupport
import APIDiagnostics
/// A Bruno collection folder of `.bru` files → `BrunoCollection`: `bruno.json` (the name),
/// `collection.bru` and each folder's `folder.bru` (headers, auth, vars its requests inherit),
/// `environments/*.bru`, and one request per other `.bru` file.
enum BrunoBru {
    static let methods = ["get", "post", "put", "delete", "patch", "options", "head", "connect", "trace"]
    /// Blocks a request file may hold that the mapping reads.
    static let read: Set<String> = ["meta", "headers", "params:query", "query", "params:path", "vars:pre-request", "assert", "docs", "settings",
                                    "body:json", "body:text", "body:xml", "body:sparql", "body:graphql", "body:graphql:vars",
                                    "body:form-urlencoded", "body:multipart-form", "body:file", "http", "auth"]
    static let maxDepth = 32

    static func collection(_ dir: String, files: ImportFolder) throws(APIError) -> BrunoCollection {
        var c = BrunoCollection()
        if let bytes = files.read(Path.join(dir, "bruno.json")) {
            let root = try CollectionInput.root(ImportInput(name: Path.join(dir, "bruno.json"), bytes: bytes))
            c.name = root["name"]?.text
            if let proxy = root["proxy"], proxy["enabled"]?.bool == true || (proxy["inherit"]?.bool == false && proxy["disabled"]?.bool != true) {
                c.warnings.append(proxy.warning("$.proxy: the collection's proxy is not imported (apicli reads https_proxy and http_proxy)"))
            }
            if let certs = root["clientCertificates"], certs["enabled"]?.bool != false, !(certs["certs"]?.items.isEmpty ?? true) {
                c.warnings.append(certs.warning("$.clientCertificates: client certificates are not imported (write tls: { cert, key } in the service file)"))
            }
        }
        c.root.name = ""
        walk(dir, depth: 0, files: files, into: &c.root, warnings: &c.warnings)
        let envDir = Path.join(dir, "environments")
        for name in (files.list(envDir) ?? []).sorted() where name.hasSuffix(".bru") {
            let path = Path.join(envDir, name)
            guard let bytes = files.read(path) else { continue }
            let bru = BruFile(text: String(decoding: bytes, as: UTF8.self))
            var env = BrunoEnvironment(name: String(name.dropLast(4)))
            for p in bru.enabled("vars") { env.values[p.key] = p.value }
            env.secrets = Set(bru.block("vars:secret")?.items.map { $0.hasPrefix("~") ? String($0.dropFirst()) : $0 } ?? [])
            c.environments.append(env)
        }
        c.root.sort()
        return c
    }

    private static func walk(_ dir: String, depth: Int, files: ImportFolder, into folder: inout BrunoFolder, warnings: inout [ImportWarning]) {
        folder.read(dir, depth: depth, files: files, warnings: &warnings) { path, name, depth, folder, warnings in
            guard name.hasSuffix(".bru"), let bytes = files.read(path) else { return }
            let bru = BruFile(text: String(decoding: bytes, as: UTF8.self))
            for s in bru.stray { warnings.append(ImportWarning(file: path, mark: .init(line: s.line, column: 1), message: "'\(s.text.prefix(40))' is outside every block; it is not read")) }
            if name == "folder.bru" || (depth == 0 && name == "collection.bru") {
                settings(bru, file: path, into: &folder)
                if name == "collection.bru" { folder.docs = bru.block("docs")?.text }
            } else if let r = request(bru, file: path, name: String(name.dropLast(4))) {
                folder.requests.append(r)
            } else {
                warnings.append(ImportWarning(file: path, mark: nil, message: "the file has no request block (get, post, …); it is not imported"))
            }
        }
    }

    /// `collection.bru` or `folder.bru`: what the folder's requests inherit.
    static func settings(_ bru: BruFile, file: String, into folder: inout BrunoFolder) {
        if let name = bru.value("meta", "name"), !name.isEmpty { folder.name = name }
        if let seq = bru.value("meta", "seq").flatMap(Double.init) { folder.seq = seq }
        folder.headers = entries(bru.enabled("headers"), file)
        folder.vars = entries(bru.enabled("vars:pre-request"), file)
        folder.auth = auth(bru, mode: bru.value("auth", "mode"), file: file)
        folder.skipped = skipped(bru, file: file, known: Set(["meta", "headers", "vars:pre-request", "auth"] + (file.hasSuffix("collection.bru") ? ["docs"] : [])),
                                 owner: "the folder")
    }

    /// A request file → `BrunoRequest`; nil when it has no request block.
    static func request(_ bru: BruFile, file: String, name: String) -> BrunoRequest? {
        let kinds = methods + ["http", "grpc", "ws"]
        guard let block = bru.blocks.first(where: { kinds.contains($0.name) }) else { return nil }
        var r = BrunoRequest(name: bru.value("meta", "name") ?? name, place: BrunoPlace(file, line: block.line))
        if let seq = bru.value("meta", "seq").flatMap(Double.init) { r.seq = seq }
        let value = { (key: String) in block.pairs.first { $0.key == key && $0.enabled }?.value }
        r.kind = block.name == "grpc" || block.name == "ws" ? block.name : (bru.value("meta", "type") == "graphql" ? "graphql" : "http")
        r.method = block.name == "http" ? (value("method") ?? "GET").uppercased() : block.name.uppercased()
        r.url = value("url") ?? ""
        if let query = ["params:query", "query"].first(where: { bru.block($0) != nil }) {  // `query`: the first grammar's name
            r.query = entries(bru.enabled(query), file)
            if let q = r.url.firstIndex(of: "?") { r.url = String(r.url[..<q]) }
        }
        for p in bru.enabled("params:path") { r.pathParams[p.key] = p.value }
        r.headers = entries(bru.enabled("headers"), file)
        r.vars = entries(bru.enabled("vars:pre-request"), file)
        r.asserts = entries(bru.enabled("assert"), file)
        r.auth = auth(bru, mode: value("auth") ?? "inherit", file: file)
        body(bru, mode: value("body") ?? "none", file: file, into: &r)
        for p in bru.block("settings")?.pairs ?? [] where p.enabled { r.setting(p.key, p.value, at: BrunoPlace(file, line: p.line)) }
        r.docs = bru.block("docs")?.text
        for b in bru.blocks where b.name == "example" { if let e = example(b.text, line: b.line) { r.examples.append(e) } }
        r.skipped += skipped(bru, file: file, known: read.union(kinds).union(bru.blocks.map(\.name).filter { $0.hasPrefix("auth:") }), owner: "the request")
        return r
    }

    /// An `example { name: …, request: { … }, response: { headers: { … }, status: { code: 200 }, body: { type: json, content: '''…''' } } }`
    /// block's response; nil without a status code.
    static func example(_ text: String, line: Int) -> (name: String, status: Int, headers: [(String, String)], body: String?, json: Bool)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        /// The lines inside `name: {` … `}` at `indent` spaces, within `range`.
        func inner(_ name: String, _ range: Range<Int>, indent: Int) -> Range<Int>? {
            let pad = String(repeating: " ", count: indent)
            guard let open = range.first(where: { lines[$0] == pad + name + ": {" }),
                  let close = (open + 1..<range.upperBound).first(where: { lines[$0].trimmingTrailingSpaces() == pad + "}" }) else { return nil }
            return open + 1..<close
        }
        let all = 0..<lines.count
        guard let response = inner("response", all, indent: 0), let status = inner("status", response, indent: 2),
              let code = BruFile.pairs(Array(lines[status]), firstLine: 1).first(where: { $0.key == "code" }).flatMap({ Int($0.value) }),
              (100...599).contains(code) else { return nil }
        let name = lines.first { $0.hasPrefix("name:") }.map { String($0.dropFirst(5)).trimmingWhitespace() } ?? String(code)
        let headers = inner("headers", response, indent: 2).map { BruFile.pairs(Array(lines[$0]), firstLine: 1).filter(\.enabled).map { ($0.key, $0.value) } } ?? []
        let body = inner("body", response, indent: 2).map { BruFile.pairs(Array(lines[$0]), firstLine: 1) } ?? []
        let content = body.first { $0.key == "content" }?.value
        return (name, code, headers, content, body.first { $0.key == "type" }?.value == "json")
    }

    private static func entries(_ pairs: [BruFile.Pair], _ file: String) -> [BrunoEntry] {
        pairs.map { BrunoEntry(name: $0.key, value: $0.value, place: BrunoPlace(file, line: $0.line)) }
    }

    /// The blocks not imported: scripts and tests (not run), post-response vars, examples, others.
    private static func skipped(_ bru: BruFile, file: String, known: Set<String>, owner: String) -> [(what: String, place: BrunoPlace)] {
        bru.blocks.compactMap { b in
            let place = BrunoPlace(file, line: b.line)
            switch b.name {
            case _ where known.contains(b.name): return nil
            case _ where b.name.hasPrefix("auth:"): return nil
            case "script:pre-request": return b.text.trimmingWhitespace().isEmpty ? nil : ("the pre-request script", place)
            case "script:post-response": return b.text.trimmingWhitespace().isEmpty ? nil : ("the post-response script", place)
            case "tests": return b.text.trimmingWhitespace().isEmpty ? nil : ("the tests", place)
            case "vars:post-response": return b.pairs.isEmpty ? nil : ("the post-response variables (vars:post-response)", place)
            case "example": return example(b.text, line: b.line) == nil ? ("the response example (no response status code in it)", place) : nil
            default: return ("the block '\(b.name)'", place)
            }
        }
    }

    /// The auth of `mode` from its `auth:MODE` block; nil for `inherit` (or no mode).
    static func auth(_ bru: BruFile, mode: String?, file: String) -> BrunoAuth? {
        guard let mode, mode != "inherit" else { return nil }
        let block = bru.block("auth:\(mode)")
        var a = BrunoAuth(mode: mode, place: BrunoPlace(file, line: block?.line ?? 1))
        let names = ["username": "username", "password": "password", "token": "token", "key": "key", "value": "value",
                     "placement": "placement", "grant_type": "grant", "access_token_url": "tokenURL", "client_id": "clientId",
                     "client_secret": "clientSecret", "scope": "scope", "accessKeyId": "accessKeyId",
                     "secretAccessKey": "secretAccessKey", "sessionToken": "sessionToken", "service": "service", "region": "region"]
        for p in block?.pairs ?? [] where p.enabled {
            if let n = names[p.key] { a.fields[n] = n == "placement" && p.value == "queryparams" ? "query" : p.value }
        }
        return a
    }

    private static func body(_ bru: BruFile, mode: String, file: String, into r: inout BrunoRequest) {
        let blockName: String
        switch mode {
        case "none": return
        case "json", "text", "xml", "sparql":
            blockName = "body:\(mode)"
            if let b = bru.block(blockName) { r.body = .text(kind: mode, b.text) }
        case "formUrlEncoded":
            blockName = "body:form-urlencoded"
            r.body = .form(entries(bru.enabled(blockName), file))
        case "multipartForm":
            blockName = "body:multipart-form"
            r.body = .multipart(entries(bru.enabled(blockName), file).map { e in
                var e = e
                if let type = e.value.firstRange(of: " @contentType(") { e.value = String(e.value[..<type.lowerBound]) }
                if e.value.hasPrefix("@file("), e.value.hasSuffix(")") {
                    return (e, String(e.value.dropFirst(6).dropLast()))
                }
                return (e, nil)
            })
        case "graphql":
            blockName = "body:graphql"
            r.body = .graphql(query: bru.block(blockName)?.text ?? "", variables: bru.block("body:graphql:vars")?.text)
        case "file":
            blockName = "body:file"
            let chosen = bru.enabled(blockName).first?.value ?? ""
            let path = chosen.firstRange(of: "@file(").map { chosen[$0.upperBound...].prefix { $0 != ")" } } ?? chosen[...]
            r.body = .file(String(path))
        default:
            r.skipped.append(("the body mode '\(mode)'", r.place))
            return
        }
        r.bodyPlace = BrunoPlace(file, line: bru.block(blockName)?.line ?? r.place.mark?.line ?? 1)
    }
}
