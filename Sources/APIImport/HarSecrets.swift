/// What of a HAR recording is noise: hop-by-hop and browser headers are left out. (Credentials
/// become `${VAR}`s by the one policy, `ImportSecrets`.)
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
}
