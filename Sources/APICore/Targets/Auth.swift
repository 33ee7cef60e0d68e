/// `auth:` as declared at service, rule or target level: Moya's AccessTokenPlugin and
/// CredentialsPlugin as data. Values are templates, expanded when the endpoint is resolved.
public enum Auth: Sendable, Equatable {
    /// `auth: none`: no credentials, whatever the service or a rule says.
    case none
    /// `{ bearer: token }`: `Authorization: Bearer token`.
    case bearer(Template)
    /// `{ basic: { user: u, password: p } }`: `Authorization: Basic base64(u:p)`.
    case basic(user: Template, password: Template)
    /// `{ header: X-API-Key, value: v }`: any header.
    case header(name: String, value: Template)
}

/// Expanded credentials, ready for `AuthPlugin`.
public enum Credential: Sendable, Equatable {
    case bearer(String)
    case basic(user: String, password: String)
    case header(name: String, value: String)
}
