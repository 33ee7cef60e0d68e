import APIYAML
import APITransport
/// Security schemes → `auth:`. Bearer and basic HTTP auth and API keys in a header map onto the
/// target file's auth forms with credentials from `${SERVICE_…}` variables. OAuth2 becomes
/// `oauth2:` for the first flow apicli can run itself (client credentials, password; an
/// authorization code flow as `grant: refresh_token`: the browser step is the user's, once), with
/// the requirement's scopes; an implicit flow and OpenID Connect send a token the user obtains as
/// a bearer token, with a comment on how to get one.
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
            if let problem = ImportText.headerProblem(name: header, value: "") {
                warn(s, "security scheme '\(name)': \(problem); it is not imported (send the key with -H)")
                return MappedAuth()
            }
            return MappedAuth(auth: .map([.pair("header", .string(header)), .pair("value", .string("${\(v)_API_KEY}"))]))
        case ("apiKey", _, "query"):
            return MappedAuth(query: .pair(s["name"]?.text ?? "api_key", .string("${\(v)_API_KEY}")))
        case ("oauth2", _, _):
            if let mapped = oauth2(name, s, scopes: Self.scopes(of: name, in: place)) { return mapped }
            return MappedAuth(auth: .map([.pair("bearer", .string("${\(v)_TOKEN}"))]), notes: oauthNotes(name, s))
        case ("openIdConnect", _, _):
            return MappedAuth(auth: .map([.pair("bearer", .string("${\(v)_TOKEN}"))]), notes: oauthNotes(name, s))
        default:
            warn(s, "security scheme '\(name)' (\(Self.describe(s))) has no auth: form; send it with -H")
            return MappedAuth()
        }
    }

    /// `oauth2:` for the first flow with a token URL apicli can use: clientCredentials, password,
    /// authorizationCode (from a refresh token); nil when there is none (only `implicit`).
    private func oauth2(_ name: String, _ s: SpecNode, scopes: [String]) -> MappedAuth? {
        let v = variablePrefix
        let flows = s["flows"]
        for (flow, grant) in [("clientCredentials", "client_credentials"), ("password", "password"),
                              ("authorizationCode", "refresh_token")] {
            guard let given = flows?[flow]?["tokenUrl"]?.text, !given.isEmpty else { continue }
            let tokenURL = url(ImportText.literal(given), in: flows?[flow]?["tokenUrl"])
            // Client credentials are a confidential client's; the others may be public (no secret).
            let secret = grant == "client_credentials" ? "${\(v)_CLIENT_SECRET}" : "${\(v)_CLIENT_SECRET:-}"
            var fields: [YAMLOut.Entry] = [.pair("tokenURL", .string(tokenURL)), .pair("clientId", .string("${\(v)_CLIENT_ID}")),
                                           .pair("clientSecret", .string(secret))]
            if !scopes.isEmpty { fields.append(.pair("scope", .string(ImportText.literal(scopes.joined(separator: " "))))) }
            fields.append(.pair("grant", .string(grant)))
            var notes = ["Security scheme '\(name)': OAuth2 \(flow) flow; apicli fetches, caches and refreshes the token."]
            switch flow {
            case "password":
                fields += [.pair("username", .string("${\(v)_USERNAME}")), .pair("password", .string("${\(v)_PASSWORD}"))]
            case "authorizationCode":
                fields.append(.pair("refreshToken", .string("${\(v)_REFRESH_TOKEN}")))
                let authorize = flows?[flow]?["authorizationUrl"]?.text.map { " at \(url($0))" } ?? ""
                notes = ["Security scheme '\(name)': OAuth2 authorizationCode flow. Authorize once in a browser\(authorize)",
                         "and set ${\(v)_REFRESH_TOKEN}; apicli trades it for access tokens and refreshes them."]
            default:
                break
            }
            if let refresh = flows?[flow]?["refreshUrl"]?.text.map({ url(ImportText.literal($0)) }), refresh != tokenURL {
                notes.append("Its refreshUrl is \(refresh); apicli refreshes at tokenURL: change it there if the two differ.")
            }
            return MappedAuth(auth: .map([.pair("oauth2", .map(fields))]), notes: notes)
        }
        return nil
    }

    /// The scopes the requirement naming `scheme` asks for (`- oauth: [read, write]`).
    private static func scopes(of scheme: String, in security: SpecNode) -> [String] {
        for requirement in security.items {
            for (key, _, value) in requirement.entries where key == scheme { return value.items.compactMap(\.text) }
        }
        return []
    }

    private func oauthNotes(_ name: String, _ s: SpecNode) -> [String] {
        let what = s["type"]?.text == "openIdConnect" ? "OpenID Connect" : "OAuth2 with no flow apicli runs (implicit, deviceAuthorization)"
        var notes = ["Security scheme '\(name)' is \(what):",
                     "apicli sends a token you obtain yourself as ${\(variablePrefix)_TOKEN}."]
        if let discovery = s["openIdConnectUrl"]?.text { notes.append("OpenID Connect discovery: \(url(discovery))") }
        for (flow, _, f) in s["flows"]?.entries ?? [] {
            let given = f["tokenUrl"]?.text ?? f["authorizationUrl"]?.text
            notes.append("\(flow) flow: \(given.map { url($0) } ?? "?")")
        }
        return notes
    }

    /// A URL of a security scheme (`tokenUrl`, `authorizationUrl`, `refreshUrl`, `openIdConnectUrl`):
    /// a relative one (FastAPI writes `tokenUrl: token`) is resolved against the first server's URL
    /// (OpenAPI 4.6: relative references resolve against the Server Object). One that cannot be
    /// resolved stays as written, with a warning at `node`.
    func url(_ given: String, in node: SpecNode? = nil) -> String {
        if Self.isAbsolute(given) { return given }
        if let resolved = Self.resolve(given, against: baseURL) { return resolved }
        if let node { warn(node, "'\(given)' is a relative URL that cannot be resolved against \(baseURL); write it whole") }
        return given
    }

    private static func describe(_ s: SpecNode) -> String {
        [s["type"]?.text, s["scheme"]?.text, s["in"]?.text.map { "in \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}
