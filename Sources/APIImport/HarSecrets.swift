import APISecrets
/// What of a HAR recording is a credential or noise: credentials become `${VAR}`s (never written
/// as recorded), hop-by-hop and browser headers are left out.
enum HarSecrets {
    /// Request headers a client sets for itself (hop-by-hop, transport) or a browser adds on its own.
    static let noise: Set<String> = [
        "host", "connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding",
        "upgrade", "content-length", "accept-encoding", "user-agent", "referer", "origin", "accept-language", "cache-control",
        "pragma", "dnt", "priority", "upgrade-insecure-requests", "if-none-match", "if-modified-since", "purpose",
        "x-client-data", "expect",
    ]

    static func isNoise(_ name: String) -> Bool {
        let n = name.lowercased()
        return n.hasPrefix(":") || n.hasPrefix("sec-") || noise.contains(n)
    }

    /// Parts of a name that mark a credential wherever they stand (`PHPSESSID`, `sessionid`), and
    /// words that do as a whole word (`sig`, but not `signal`).
    static let parts = ["passwd", "sessid", "session", "csrf", "xsrf", "jwt", "credential", "apikey"]
    static let words: Set<String> = ["auth", "sid", "sig", "signature", "pwd", "otp", "ticket", "cookie", "authorization"]

    /// `access_token`, `X-Api-Key`, `PHPSESSID`, `sig`, `client_secret`, …: apicli's own rule for
    /// secret variable names (`token`, `secret`, `password`, `key`), and the words above.
    static func isSecret(_ name: String) -> Bool {
        if Secrets.isSecretName(name) { return true }
        let n = name.lowercased()
        if parts.contains(where: { n.contains($0) }) { return true }
        return n.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).contains { words.contains(String($0)) }
    }

    /// The variable a credential of `service` named `name` is read from: `LOCAL_ACCESS_TOKEN`; a
    /// name that does not read as a secret gets `_SECRET`, so apicli hides its value in output.
    static func variable(service: String, _ name: String) -> String {
        var v = ImportNames.variable(service) + "_" + ImportNames.variable(name)
        while v.contains("__") { v = v.replacing("__", with: "_") }
        if v.hasSuffix("_") { v.removeLast() }
        return Secrets.isSecretName(v) ? v : v + "_SECRET"
    }
}
