import APIYAML
import APITargets
import APITransport
/// Auth of a Postman collection or an Insomnia export → the target file's `auth:` forms. A secret
/// is never written: a value that is a variable stays one (`${TOKEN}`), a literal one becomes
/// `${SERVICE_TOKEN}` (a comment says so), so an exported collection's credentials stay out of files.
enum CollectionAuth {
    enum Kind {
        case none
        case bearer(token: String)
        case basic(user: String, password: String)
        case digest(user: String, password: String)
        case apiKey(name: String, value: String, inQuery: Bool)
        case oauth2(grant: String, tokenURL: String, clientId: String, scope: String)
        case unsupported(String)
    }

    struct Mapped {
        var auth: YAMLOut?
        /// An API key sent in the query: `name: "${…}"` for `task: query`.
        var query: YAMLOut.Entry?
        var notes: [String] = []
        var warnings: [String] = []
    }

    /// `prefix`: `SERVICE` in `${SERVICE_TOKEN}`.
    static func map(_ kind: Kind, prefix: String, variables: inout CollectionVariables) -> Mapped {
        var m = Mapped()
        func secret(_ value: String, _ suffix: String) -> String {
            if variables.hasVariable(value) { return variables.text(value, secret: true) }
            if !value.isEmpty { m.notes.append("The input's \(suffix.lowercased().replacing("_", with: " ")) is not written: set ${\(prefix)_\(suffix)}.") }
            return "${\(prefix)_\(suffix)}"
        }
        func plain(_ value: String, _ suffix: String) -> String {
            if value.isEmpty || CollectionVariables.isSecret(name: suffix, value: value) || !CollectionVariables.isDefaultable(value) {
                return variables.hasVariable(value) ? variables.text(value) : "${\(prefix)_\(suffix)}"
            }
            return variables.text(value)
        }
        switch kind {
        case .none:
            m.auth = .string("none")
        case .bearer(let token):
            m.auth = .map([.pair("bearer", .string(secret(token, "TOKEN")))])
        case .basic(let user, let password):
            m.auth = .map([.pair("basic", .map([.pair("user", .string(plain(user, "USER"))),
                                                 .pair("password", .string(secret(password, "PASSWORD")))]))])
        case .digest(let user, let password):
            m.auth = .map([.pair("digest", .map([.pair("username", .string(plain(user, "USER"))),
                                                  .pair("password", .string(secret(password, "PASSWORD")))]))])
        case .apiKey(let name, let value, let inQuery):
            let key = name.isEmpty ? "X-API-Key" : name
            let v = secret(value, "API_KEY")
            if inQuery {
                m.query = .pair(key, .string(v))
            } else if let problem = ImportText.headerProblem(name: key, value: "") {
                m.warnings.append("API key: \(problem); it is not imported (send it with -H)")
                m.notes = []  // nothing to set: the key is not sent
            } else {
                m.auth = .map([.pair("header", .string(key)), .pair("value", .string(v))])
            }
        case .oauth2(let grant, let tokenURL, let clientId, let scope):
            let http = tokenURL.lowercased().hasPrefix("http://") || tokenURL.lowercased().hasPrefix("https://") || variables.hasVariable(tokenURL)
            if grant == "client_credentials", !http {
                m.warnings.append("OAuth2 token URL '\(tokenURL)' is not an http(s) URL; the token is sent as a bearer token from ${\(prefix)_TOKEN}")
            }
            if grant == "client_credentials", http {
                var fields: [YAMLOut.Entry] = [.pair("tokenURL", .string(variables.text(tokenURL))),
                                               .pair("clientId", .string(plain(clientId, "CLIENT_ID"))),
                                               .pair("clientSecret", .string("${\(prefix)_CLIENT_SECRET}"))]
                if !scope.isEmpty { fields.append(.pair("scope", .string(variables.text(scope)))) }
                fields.append(.pair("grant", .string("client_credentials")))
                m.auth = .map([.pair("oauth2", .map(fields))])
                m.notes.append("OAuth2 client credentials: apicli fetches the token; set ${\(prefix)_CLIENT_SECRET}.")
            } else {
                m.auth = .map([.pair("bearer", .string("${\(prefix)_TOKEN}"))])
                if grant != "client_credentials" { m.warnings.append("OAuth2 grant '\(grant.isEmpty ? "?" : grant)' is not run by apicli; the token is sent as a bearer token from ${\(prefix)_TOKEN}") }
                m.notes.append("OAuth2 (\(grant.isEmpty ? "?" : grant)): obtain a token yourself and set ${\(prefix)_TOKEN}.")
            }
        case .unsupported(let type):
            m.warnings.append("auth type '\(type)' has no auth: form in apicli; it is not imported (send it with -H)")
        }
        return m
    }
}
