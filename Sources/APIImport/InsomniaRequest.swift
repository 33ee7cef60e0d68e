import APISupport
import APITargets
import APITransport
/// An Insomnia request → a `CollectionRequest`: URL (`:name` segments as `{name}`, their values
/// from `pathParameters`), `parameters` (query), headers, body by `mimeType`, `authentication`
/// (the request's, else its nearest request group's) and `description`.
extension InsomniaMapper {
    mutating func request(_ res: InsomniaResource) -> CollectionRequest? {
        let node = res.node, path = res.path
        let name = node["name"]?.text ?? ""
        guard let rawURL = node["url"]?.text, !rawURL.trimmingWhitespace().isEmpty else {
            warn(node, path, "request '\(name)' has no URL; it is not imported")
            return nil
        }
        let method = node["method"]?.text?.uppercased() ?? "GET"
        guard TargetFile.isToken(method) else {
            warn(node["method"]!, "\(path).method", "'\(method)' is not an HTTP method; request '\(name)' is not imported")
            return nil
        }
        let url = CollectionURL(variables.inlined(rawURL))
        var r = CollectionRequest(name: name, origin: variables.text(url.origin))
        r.rawOrigin = url.origin
        r.folders = folders(of: res)
        r.description = CollectionInput.description(node["description"]) ?? CollectionInput.description(node["meta"]?["description"])
        r.method = method
        var defaults: [String: String] = [:]
        for (key, value, _) in CollectionInput.enabled(node["pathParameters"], key: "name") { defaults[key] = variables.inlined(value) }
        r.setPath(url.path, defaults: defaults, only: Set(defaults.keys), variables: &variables)
        var query = url.query
        for (key, value, _) in CollectionInput.enabled(node["parameters"], key: "name") { query.append((key, value)) }
        r.setQuery(query, variables: &variables)
        for (i, (key, value, n)) in CollectionInput.enabled(node["headers"], key: "name").enumerated() {
            if let w = r.addHeader(key, value, prefix: prefix, variables: &variables) { warn(n, "\(path).headers[\(i)]", w) }
        }
        if let body = node["body"], body.isMapping {
            self.body(body, at: "\(path).body", into: &r)
            for w in r.secretJSONFields(prefix: prefix) { warn(body, "\(path).body", w) }
        }
        auth(res, into: &r)
        for (script, at, what) in scripts(res) {
            warn(script, at, "the \(what) of request '\(name)' is not run (apicli runs no JavaScript)")
            r.notes.append("The \(what) was not imported (apicli runs no JavaScript).")
        }
        return r
    }

    private mutating func body(_ b: SpecNode, at path: String, into r: inout CollectionRequest) {
        let type = (b["mimeType"]?.text ?? "").lowercased()
        let text = b["text"]?.text ?? ""
        var warnings: [String] = []
        if let file = b["fileName"]?.text, !file.isEmpty {
            warnings = [r.fileBody(file)]
        } else if type == "application/graphql" {
            if let g = CurlMapper.json(text), let query = g["query"]?.scalarText {
                let vars = g["variables"].map { $0.scalarText ?? $0.jsonValue.jsonText }
                let name: String? = if case .string(let n)? = g["operationName"] { n } else { nil }
                warnings = r.setGraphQL(query: query, variablesText: vars, operationName: name, variables: &variables)
            } else {
                warnings = ["a GraphQL body that is not {\"query\": …} JSON is not imported"]
            }
        } else if type == "application/x-www-form-urlencoded" {
            warnings = r.setForm(CollectionInput.enabled(b["params"], key: "name").map { ($0.key, $0.value) }, variables: &variables)
        } else if type == "multipart/form-data" {
            let parts = CollectionInput.enabled(b["params"], key: "name").map { p in
                (p.key, p.value, p.node["type"]?.text == "file" ? p.node["fileName"]?.text ?? "?" : nil)
            }
            warnings = r.setMultipart(parts, variables: &variables)
        } else {
            r.setText(text, json: type.contains("json"), contentType: type.isEmpty || type.contains("json") ? nil : type, variables: &variables)
        }
        for w in warnings { warn(b, path, w) }
    }

    private mutating func auth(_ res: InsomniaResource, into r: inout CollectionRequest) {
        let own = res.node["authentication"].flatMap { $0["type"]?.text == nil ? nil : $0 }
        guard let a = own ?? groupAuth(of: res), a["disabled"]?.bool != true else { return }
        let here = own != nil ? "\(res.path).authentication" : "(the request group's authentication)"
        let type = a["type"]?.text ?? ""
        let field = { (k: String) in a[k]?.text ?? "" }
        let kind: CollectionAuth.Kind
        switch type {
        case "none": kind = .none
        case "basic": kind = .basic(user: field("username"), password: field("password"))
        case "digest": kind = .digest(user: field("username"), password: field("password"))
        case "bearer":
            if !field("prefix").isEmpty, field("prefix").lowercased() != "bearer" {
                warn(a, here, "the bearer prefix '\(field("prefix"))' is not imported; apicli sends 'Bearer'")
            }
            kind = .bearer(token: field("token"))
        case "apikey":
            if field("addTo") == "cookie" {
                kind = .unsupported("apikey in a cookie")
            } else {
                kind = .apiKey(name: field("key"), value: field("value"), inQuery: field("addTo") == "queryParams")
            }
        case "oauth2":
            kind = .oauth2(grant: field("grantType"), tokenURL: field("accessTokenUrl"), clientId: field("clientId"), scope: field("scope"))
        default: kind = .unsupported(type)
        }
        var m = CollectionAuth.map(kind, prefix: prefix, variables: &variables)
        for w in m.warnings { warn(a, here, w) }
        if case .string("none") = m.auth { m.auth = nil }  // the service files have no auth: of their own
        if let q = m.query { r.query.append(q) }
        if m.auth != nil { r.auth = m.auth }
        r.notes += m.notes
    }
}
