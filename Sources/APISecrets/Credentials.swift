/// The one list of what is a credential, for every writer and every output: header names whose
/// values are credentials whatever they hold, and the names (of headers, query and form fields,
/// JSON members, variables) that mark a secret. Imports and `call --save` write such values as
/// `${SERVICE_…}` variables, `record` never writes them, and outputs print them as `••••`.
package enum Credentials {
    /// Header names (lower-cased) whose values are credentials.
    package static let headers: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Whether a header named `name` carries a credential: one of `headers`, or a secret name (`X-Api-Key`).
    package static func isHeader(_ name: String) -> Bool {
        headers.contains(name.lowercased()) || isSecretName(name)
    }

    /// Parts of a name that mark a credential wherever they stand (`PHPSESSID`, `sessionid`), and
    /// words that do as a whole word (`sig`, `x-auth`, but not `signal`, `author` or `setDiscoveredCookie`).
    static let parts = ["passwd", "sessid", "session", "csrf", "xsrf", "jwt", "credential", "apikey"]
    static let words: Set<String> = ["auth", "sid", "sig", "signature", "pwd", "otp", "ticket", "cookie", "authorization",
                                     "bearer", "private"]

    /// `access_token`, `X-Api-Key`, `PHPSESSID`, `sig`, `client_secret`, `GITHUB_TOKEN`, …: a
    /// variable name that `Secrets` hides (`TOKEN`, `SECRET`, `PASSWORD`, `KEY`), or one of the above.
    package static func isSecretName(_ name: String) -> Bool {
        if Secrets.isSecretName(name) { return true }
        let n = name.lowercased()
        if parts.contains(where: { n.contains($0) }) { return true }
        return nameWords(name).contains { words.contains($0) }
    }

    /// `X-Auth-Token`, `X_AUTH_TOKEN` → `x`, `auth`, `token` (lower-cased). Not split at a case
    /// change: `setDiscoveredCookie=true` is no cookie.
    static func nameWords(_ name: String) -> [String] {
        name.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }
}
