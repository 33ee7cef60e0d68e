/// Security schemes → `auth:`. Bearer and basic HTTP auth and API keys in a header map onto the
/// target file's auth forms with credentials from `${SERVICE_…}` variables; OAuth2 and OpenID
/// Connect send the token they obtain as a bearer token, with a comment on how to get one.
/// An API key in the query is added to every target's `task: query` that uses it; one in a cookie
/// has no place: a warning says so.
extension OpenAPIMapper {
    struct MappedAuth {
        var auth: YAMLOut?
        var notes: [String] = []
        /// `name: "${SERVICE_API_KEY}"` for `task: query`, for an API key sent in the query.
        var query: YAMLOut.Entry?
    }

    /// The file's `auth:` from the top-level `security:` (its first requirement).
    func serviceAuth() -> MappedAuth? {
        guard let security = root["security"], let name = firstScheme(security) else { return nil }
        let mapped = auth(scheme: name, at: security)
        serviceScheme = mapped.auth == nil && mapped.query == nil ? nil : name
        serviceQuery = mapped.query
        return mapped
    }

    /// An operation's own `security:`: `[]` is `auth: none`; the service's scheme needs nothing.
    func operationAuth(_ op: SpecNode) -> MappedAuth {
        guard let security = op["security"] else { return MappedAuth(query: serviceQuery) }
        guard let name = firstScheme(security) else {
            return serviceScheme == nil || serviceQuery != nil ? MappedAuth() : MappedAuth(auth: .string("none"))
        }
        if name == serviceScheme { return MappedAuth(query: serviceQuery) }
        var mapped = auth(scheme: name, at: security)
        if mapped.auth == nil, serviceScheme != nil, serviceQuery == nil { mapped.auth = .string("none") }  // not the service's too
        return mapped
    }

    /// The first scheme named by the first requirement; an empty requirement (`{}`) means none.
    private func firstScheme(_ security: SpecNode) -> String? {
        security.items.first?.entries.first?.key
    }

    func auth(scheme name: String, at place: SpecNode) -> MappedAuth {
        guard let raw = root["components"]?["securitySchemes"]?[name], let s = loader.resolve(raw) else {
            warn(place, "security scheme '\(name)' is not defined under components.securitySchemes")
            return MappedAuth()
        }
        let v = variablePrefix
        switch (s["type"]?.text, s["scheme"]?.text?.lowercased(), s["in"]?.text) {
        case ("http", "bearer", _):
            return MappedAuth(auth: .map([.pair("bearer", .string("${\(v)_TOKEN}"))]))
        case ("http", "basic", _):
            return MappedAuth(auth: .map([.pair("basic", .map([
                .pair("user", .string("${\(v)_USER}")), .pair("password", .string("${\(v)_PASSWORD}"))]))]))
        case ("apiKey", _, "header"):
            let header = s["name"]?.text ?? "X-API-Key"
            return MappedAuth(auth: .map([.pair("header", .string(header)), .pair("value", .string("${\(v)_API_KEY}"))]))
        case ("apiKey", _, "query"):
            return MappedAuth(query: .pair(s["name"]?.text ?? "api_key", .string("${\(v)_API_KEY}")))
        case ("oauth2", _, _), ("openIdConnect", _, _):
            return MappedAuth(auth: .map([.pair("bearer", .string("${\(v)_TOKEN}"))]), notes: oauthNotes(name, s))
        default:
            warn(s, "security scheme '\(name)' (\(Self.describe(s))) has no auth: form; send it with -H")
            return MappedAuth()
        }
    }

    private func oauthNotes(_ name: String, _ s: SpecNode) -> [String] {
        var notes = ["Security scheme '\(name)' is \(s["type"]?.text ?? "oauth2"): apicli has no OAuth2 flow yet,",
                     "so it sends a token you obtain yourself as ${\(variablePrefix)_TOKEN}."]
        if let url = s["openIdConnectUrl"]?.text { notes.append("OpenID Connect discovery: \(url)") }
        for (flow, _, f) in s["flows"]?.entries ?? [] {
            let url = f["tokenUrl"]?.text ?? f["authorizationUrl"]?.text ?? "?"
            notes.append("\(flow) flow: \(url)")
        }
        return notes
    }

    private static func describe(_ s: SpecNode) -> String {
        [s["type"]?.text, s["scheme"]?.text, s["in"]?.text.map { "in \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}
