#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Following a redirect as `curl -L` and browsers do, with one rule more than URLSession: no
/// credential crosses to another origin. A pure function of the response and the request, so the
/// transport's loop stays small and every case is testable without a network.
public enum Redirect {
    public static let statuses: Set<Int> = [301, 302, 303, 307, 308]
    /// The most redirects one exchange follows (curl's default is 50, URLSession's 16, browsers' 20).
    public static let limit = 10

    /// The request for the next hop, or nil when the response is not a redirect to follow.
    /// 303 (and 301/302 after a POST) becomes a GET without a body; 307 and 308 repeat the request.
    /// To another scheme, host or port, `Authorization`, `Proxy-Authorization`, `Cookie` and the
    /// configured auth header (`auth: { header: X-API-Key }`) are dropped.
    public static func next(status: Int, location: String?, after request: PreparedRequest) -> PreparedRequest? {
        guard request.followRedirects, statuses.contains(status), let location, !location.isEmpty,
              let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        var next = request
        next.url = url
        if (status == 303 && request.method != "HEAD") || ((status == 301 || status == 302) && request.method == "POST") {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
        }
        if !sameOrigin(request.url, url) {
            var drop = Redactor.credentialHeaders
            if let auth = request.authHeader { drop.insert(auth.lowercased()) }
            next.headers.removeAll { drop.contains($0.name.lowercased()) }
        }
        return next
    }

    /// Same scheme, host and port (the default port of the scheme when none is written).
    public static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
    }

    static func defaultPort(_ url: URL) -> Int { url.scheme?.lowercased() == "https" ? 443 : 80 }
}
