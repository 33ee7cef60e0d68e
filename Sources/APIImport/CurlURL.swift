import APISupport
import APIYAML
import APIDiagnostics
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A curl URL split as a target file holds it: base URL (scheme, host, port), path, and the query
/// as written (curl sends it as it is; a fragment is not sent).
struct CurlURL {
    var base: String
    var path: String
    /// The text after `?`, as written; nil without a `?`.
    var query: String?
    var host: String
    /// `user:password@` written in the URL.
    var user: String?

    init(_ text: String) throws(APIError) {
        if text.hasPrefix(ShellWords.variableStart), let end = text.firstRange(of: ShellWords.variableEnd) {
            // `"$BASE_URL/users"`: the variable is the base URL (resolved when apicli calls)
            var rest = String(text[end.upperBound...])
            if let hash = rest.firstIndex(of: "#") { rest = String(rest[..<hash]) }
            if let mark = rest.firstIndex(of: "?") {
                query = String(rest[rest.index(after: mark)...])
                rest = String(rest[..<mark])
            }
            base = String(text[..<end.upperBound])
            path = rest
            host = ""
            return
        }
        var full = text.contains("://") ? text : "http://" + text
        if let hash = full.firstIndex(of: "#") { full = String(full[..<hash]) }
        if let mark = full.firstIndex(of: "?") {
            query = String(full[full.index(after: mark)...])
            full = String(full[..<mark])
        }
        guard let c = URLComponents(string: full), let scheme = c.scheme?.lowercased(), let host = c.host, !host.isEmpty,
              scheme == "http" || scheme == "https" else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "'\(text)' is not an http or https URL"))
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        base = "\(scheme)://\(shownHost)" + (c.port.map { ":\($0)" } ?? "")
        path = c.percentEncodedPath
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

    /// A query as the request sends it: a mapping when apicli's encoding of it (keys sorted, each
    /// value percent-encoded) gives back the same bytes, else the text as written
    /// (`query: "b=2&a=1&flag"`). A value whose name `variable` knows is written as that `${VAR}`
    /// (a secret), everything else literally. `asText`: always the text (a form body as recorded).
    static func queryEntry(_ raw: String, variable: (String) -> String? = { _ in nil }, asText: Bool = false,
                           warnings: inout [String]) -> YAMLOut.Entry {
        let sent = URLBuilder.encodeQueryString(raw)
        if sent != raw, !asText {
            warnings.append("the query '\(raw)' holds characters a URL cannot carry as they are; curl sends them so, apicli as \(sent)")
        }
        var mapping: [YAMLOut.Entry]? = []
        var text: [String] = []
        var last: String?
        for item in raw.split(separator: "&", omittingEmptySubsequences: false) {
            let eq = item.firstIndex(of: "=")
            let rawKey = eq.map { item[..<$0] } ?? item[...]
            let key = rawKey.removingPercentEscapes()
            if let key, let name = variable(key), let eq {
                text.append(ImportText.literal(String(item[...eq])) + "${\(name)}")
                if URLBuilder.escapeQuery(key) != rawKey || last.map({ $0 >= key }) == true { mapping = nil }
                mapping?.append(.pair(key, .string("${\(name)}")))
                last = key
                continue
            }
            text.append(ImportText.literal(String(item)))
            guard let key, let eq, !key.isEmpty, let value = item[item.index(after: eq)...].removingPercentEscapes(),
                  URLBuilder.escapeQuery(key) == rawKey, URLBuilder.escapeQuery(value) == item[item.index(after: eq)...],
                  last.map({ $0 < key }) ?? true else {
                mapping = nil
                continue
            }
            mapping?.append(.pair(key, .string(ImportText.literal(value))))
            last = key
        }
        if let mapping, !mapping.isEmpty, !asText { return .pair("query", .map(mapping)) }
        return .pair("query", .string(text.joined(separator: "&")))
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
