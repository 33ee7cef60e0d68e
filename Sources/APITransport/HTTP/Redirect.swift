import APISupport
import APISecrets
import APIEndpoint
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Following a redirect as `curl -L` and browsers do, with one rule more than URLSession: no
/// credential crosses to another origin. A pure function of the response and the request, so the
/// transport's loop stays small and every case is testable without a network.
package enum Redirect {
    /// Whether `status` is a redirect this follows: 301, 302, 303, 307, 308 (asked of every
    /// response: compared, not hashed).
    @inline(__always)
    package static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
    /// The most redirects one exchange follows (curl's default is 50, URLSession's 16, browsers' 20).
    package static let limit = 10

    /// The request for the next hop, or nil when the response is not a redirect to follow.
    /// 303 (and 301/302 after a POST) becomes a GET without a body; 307 and 308 repeat the request.
    /// To another scheme, host or port, `Authorization`, `Proxy-Authorization`, `Cookie`, the
    /// configured auth header (`auth: { header: X-API-Key }`) and every header holding a secret
    /// (`request.secrets`: what apicli masks in its output) are dropped, and a 307 or 308 whose
    /// body holds a secret is not followed (the 3xx is the answer): no secret goes to an origin
    /// it was not meant for. Nor is a hop out of the request's `redirectScope` (`apicli load`'s guard).
    package static func next(status: Int, location: String?, after request: PreparedRequest) -> PreparedRequest? {
        guard request.followRedirects, isRedirect(status), let location, !location.isEmpty,
              let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.port.map({ URLBuilder.ports.contains($0) }) ?? true,
              request.redirectScope?.allows(url, socket: request.socket) ?? true else { return nil }
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
            let secrets = request.secrets?.values ?? []
            next.headers.removeAll { field in
                drop.contains(field.name.lowercased()) || secrets.contains { secret in
                    secret.count >= Redactor.shortestSecret ? field.value.contains(secret) : field.value == secret
                }
            }
            if let body = next.body, holdsSecret(body, secrets) { return nil }
        }
        return next
    }

    /// Whether a body to repeat holds one of `secrets` (in memory: data, multipart text parts).
    static func holdsSecret(_ body: PreparedRequest.Body, _ secrets: [String]) -> Bool {
        let secrets = secrets.filter { $0.count >= Redactor.shortestSecret }
        guard !secrets.isEmpty else { return false }
        func holds(_ data: Data) -> Bool {
            let bytes = [UInt8](data)
            return secrets.contains { secret in
                let needle = Array(secret.utf8)
                guard !needle.isEmpty, needle.count <= bytes.count else { return false }
                return (0...(bytes.count - needle.count)).contains { i in bytes[i..<(i + needle.count)].elementsEqual(needle) }
            }
        }
        switch body {
        case .data(let data): return holds(data)
        case .file: return false
        case .multipart(let multipart):
            return multipart.parts.contains { part in
                if case .text(let text) = part.content { return holds(Data(text.utf8)) }
                return false
            }
        }
    }

    /// Whether the engine follows a response with this head to `request` (then a connector drops
    /// its body and does not report its head). Most answers are no redirect: no look for a Location then.
    package static func follows(status: Int, location: @autoclosure () -> String?, after request: PreparedRequest) -> Bool {
        isRedirect(status) && next(status: status, location: location(), after: request) != nil
    }

    /// Same scheme, host and port (the default port of the scheme when none is written).
    package static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(a)) == (b.port ?? defaultPort(b))
    }

    static func defaultPort(_ url: URL) -> Int { url.scheme?.lowercased() == "https" ? 443 : 80 }
}
