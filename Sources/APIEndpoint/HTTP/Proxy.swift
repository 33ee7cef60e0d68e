import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The proxy a request goes through, from the environment as curl reads it: `http_proxy` for http
/// URLs, `https_proxy` for https ones (upper-case names too; lower-case wins), none for a host that
/// `no_proxy` names (`*`, a host, a domain and its subdomains, `.domain`). `user:password@` in the
/// proxy URL becomes Basic proxy authorization. Read from the environment the workspace was made
/// with (`RunSettings.proxies`).
package struct ProxySettings: Sendable, Equatable {
    package struct Server: Sendable, Hashable {
        package var host: String
        package var port: Int
        /// `user:password`, for Proxy-Authorization: Basic.
        package var credentials: String?
    }

    package var http: Server?
    package var https: Server?
    package var noProxy: [String]

    package init(http: Server? = nil, https: Server? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    package init(environment env: [String: String]) {
        func value(_ name: String) -> String? {
            (env[name.lowercased()] ?? env[name.uppercased()]).flatMap { $0.isEmpty ? nil : $0 }
        }
        http = value("http_proxy").flatMap(Self.server)
        https = value("https_proxy").flatMap(Self.server)
        noProxy = (value("no_proxy") ?? "").split(separator: ",").map { $0.trimmingSpaces().lowercased() }
            .filter { !$0.isEmpty }
    }

    /// `http://user:pw@proxy:3128`, or `proxy:3128` (http assumed).
    static func server(_ text: String) -> Server? {
        let full = text.contains("://") ? text : "http://" + text
        guard let c = URLComponents(string: full), let host = c.host, !host.isEmpty else { return nil }
        let credentials = c.user.map { user in (user.removingPercentEscapes() ?? user) + ":" + ((c.password ?? "").removingPercentEscapes() ?? "") }
        return Server(host: host, port: c.port ?? (c.scheme == "https" ? 443 : 1080), credentials: credentials)
    }

    /// The proxy for `url`, or nil for a direct connection.
    package func server(for url: URL) -> Server? {
        // No proxy set (the common case): nothing of the URL is taken apart.
        guard http != nil || https != nil, let host = url.host?.lowercased() else { return nil }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        for entry in noProxy {
            if entry == "*" { return nil }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            let name = domain.split(separator: ":").first.map(String.init) ?? domain
            if bare == name || bare.hasSuffix("." + name) { return nil }
        }
        return url.scheme?.lowercased() == "https" ? https : http
    }
}
