#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A curl URL split as a target file holds it: base URL (scheme, host, port), path, query pairs.
struct CurlURL {
    var base: String
    var path: String
    var query: [(String, String)]
    var host: String
    /// `user:password@` written in the URL.
    var user: String?

    init(_ text: String) throws(APIError) {
        let full = text.contains("://") ? text : "http://" + text
        guard let c = URLComponents(string: full), let scheme = c.scheme?.lowercased(), let host = c.host, !host.isEmpty,
              scheme == "http" || scheme == "https" else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "'\(text)' is not an http or https URL"))
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        base = "\(scheme)://\(shownHost)" + (c.port.map { ":\($0)" } ?? "")
        path = c.percentEncodedPath
        query = c.percentEncodedQuery.map(Self.pairs) ?? []
        self.host = host
        if let u = c.user { user = u + (c.password.map { ":" + $0 } ?? "") }
    }

    /// `a=1&b=x%20y` → [("a", "1"), ("b", "x y")]; `+` is a space, as forms write it.
    static func pairs(_ query: String) -> [(String, String)] {
        query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                let spaced = String(s).replacing("+", with: " ")
                return spaced.removingPercentEscapes() ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// A service name from the host: `api.github.com` → `github`; an address or localhost → `local`.
    var serviceName: String {
        let labels = host.lowercased().split(separator: ".").map(String.init)
        if host == "localhost" || labels.allSatisfy({ Int($0) != nil }) || host.contains(":") { return "local" }
        let skipped: Set<String> = ["www", "api", "app"]
        let meaningful = labels.dropLast().filter { !skipped.contains($0) }
        return ImportNames.service(meaningful.first ?? labels.first ?? "api") ?? "api"
    }
}
