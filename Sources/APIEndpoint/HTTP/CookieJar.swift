import APISupport
import Atomics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The cookies of one run, as a browser session keeps them: `Set-Cookie` from any response (a
/// redirect's included) is sent back to the host it came from (or its `Domain=`), on matching
/// paths, `Secure` ones over https only, until `Max-Age`/`Expires`. Nothing is written to disk
/// unless `--cookie-jar` asks (`CookieJarFile`).
/// A request with `cookies: false` (a rule) neither sends nor stores any. A workspace makes one
/// (`RunSettings`); its copies and every caller made from it share it.
package final class CookieJar: Sendable {
    package struct Cookie: Equatable {
        package var name: String
        package var value: String
        /// Lower-cased; with `hostOnly`, the exact host.
        package var domain: String
        package var hostOnly: Bool
        package var path: String
        package var secure: Bool
        /// Seconds since 1970; nil for a session cookie.
        package var expires: Double?

        package init(name: String, value: String, domain: String, hostOnly: Bool, path: String, secure: Bool, expires: Double?) {
            (self.name, self.value, self.domain, self.hostOnly) = (name, value, domain, hostOnly)
            (self.path, self.secure, self.expires) = (path, secure, expires)
        }
    }

    let cookies = Locked<[Cookie]>([])
    /// Whether a cookie was ever kept: most runs keep none, and each request of theirs asks
    /// without the jar's lock (one lock for every thread of a load run, taken each request).
    private let holds = ManagedAtomic(false)

    /// Bounds, as curl keeps them (docs/security.md#limits): a server that sets a new 4 KB cookie
    /// on every response cannot grow the jar or the `Cookie` header without end. The oldest
    /// cookie goes first: of its domain past `maxPerDomain`, of the jar past `maxCookies`.
    package static let maxPerDomain = 150
    package static let maxCookies = 3000
    /// A cookie whose name and value are longer together is not kept (RFC 6265 §6.1's minimum).
    package static let maxCookieBytes = 4096
    /// The `Cookie` header sent: at most this many bytes and cookies, the newest kept.
    package static let maxHeaderBytes = 8190
    package static let maxSentCookies = 150

    package init() {}

    /// `name=value; name2=value2` for `url`, or nil when none applies.
    package func header(for url: URL, now: Double? = nil) -> String? {
        // Most runs hold no cookie: nothing of the URL is taken apart then, nor the clock read.
        guard holds.load(ordering: .acquiring), !cookies.withLock({ $0.isEmpty }) else { return nil }
        let now = now ?? Date().timeIntervalSince1970
        guard let host = url.host?.lowercased() else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let https = url.scheme?.lowercased() == "https"
        let matching = cookies.withLock { all in
            all.removeAll { ($0.expires ?? .infinity) <= now }
            return all.filter { c in
                CookieDomain.matches(host, cookieDomain: c.domain, hostOnly: c.hostOnly)
                    && (path == c.path || path.hasPrefix(c.path.hasSuffix("/") ? c.path : c.path + "/"))
                    && (https || !c.secure)
            }
        }
        guard !matching.isEmpty else { return nil }
        var kept: [Cookie] = []
        var bytes = 0
        for c in matching.reversed() where kept.count < Self.maxSentCookies {
            let size = c.name.utf8.count + 1 + c.value.utf8.count + (kept.isEmpty ? 0 : 2)
            if bytes + size > Self.maxHeaderBytes { continue }
            kept.append(c)
            bytes += size
        }
        return kept.isEmpty ? nil : kept.reversed().map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Whether `text` holds a control character (none may reach a `Cookie` header).
    package static func hasControl(_ text: some StringProtocol) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// Stores the `Set-Cookie` values of a response to `url`.
    package func store(_ setCookies: [String], from url: URL, now: Double = Date().timeIntervalSince1970) {
        guard !setCookies.isEmpty, let host = url.host?.lowercased() else { return }
        let parsed = setCookies.compactMap { Self.parse($0, host: host, path: url.path, now: now) }
        guard !parsed.isEmpty else { return }
        add(parsed)
    }

    /// The `Set-Cookie` values of one field that a library joined with commas (Foundation's
    /// `HTTPURLResponse`): a comma starts the next cookie when what follows it, up to its first
    /// `;`, is a `name=value` (a date's comma in `Expires=Wed, 21 Oct 2015 …` is followed by none).
    package static func unfold(_ folded: String) -> [String] {
        var cookies: [String] = []
        for piece in folded.split(separator: ",", omittingEmptySubsequences: false) {
            let first = piece.prefix { $0 != ";" }
            let startsCookie = first.firstIndex(of: "=").map { eq in
                let name = first[..<eq].trimmingSpaces()
                return !name.isEmpty && !name.contains(" ")
            } ?? false
            if startsCookie || cookies.isEmpty {
                cookies.append(piece.trimmingSpaces())
            } else {
                cookies[cookies.count - 1] += "," + piece
            }
        }
        return cookies.filter { !$0.isEmpty }
    }

    package static func parse(_ line: String, host: String, path: String, now: Double) -> Cookie? {
        let fields = line.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        guard let first = fields.first, let eq = first.firstIndex(of: "="), eq != first.startIndex,
              !hasControl(first), first.utf8.count - 1 <= maxCookieBytes else { return nil }
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        var cookie = Cookie(name: String(first[..<eq]), value: String(first[first.index(after: eq)...]), domain: host,
                            hostOnly: true, path: "/" + folder, secure: false, expires: nil)
        var maxAge: Double?
        for field in fields.dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            let value = parts.count > 1 ? parts[1] : ""
            switch parts.first?.lowercased() ?? "" {
            case "domain":
                // Its own host or a parent of it; never another site, an IP suffix or a public suffix.
                guard let scope = CookieDomain.scope(value, host: host) else { return nil }
                (cookie.domain, cookie.hostOnly) = scope
            case "path": if value.hasPrefix("/") { cookie.path = value }
            case "secure": cookie.secure = true
            case "max-age": maxAge = Double(value)
            case "expires": cookie.expires = HTTPDate.parse(value)
            default: break
            }
        }
        if let maxAge { cookie.expires = now + maxAge }
        return cookie
    }
}

extension CookieJar {
    /// Every unexpired cookie, in the order stored.
    package func all(now: Double) -> [Cookie] {
        cookies.withLock { all in
            all.removeAll { ($0.expires ?? .infinity) <= now }
            return all
        }
    }

    /// Stores cookies (one of the same name, domain and path replaced), within the jar's bounds:
    /// a cookie over `maxCookieBytes` is not kept, and the oldest goes past `maxPerDomain` of its
    /// domain or `maxCookies` in all.
    package func add(_ new: [Cookie]) {
        defer { holds.store(true, ordering: .releasing) }
        cookies.withLock { all in
            for cookie in new where cookie.name.utf8.count + cookie.value.utf8.count <= Self.maxCookieBytes {
                all.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                all.append(cookie)
                if all.count(where: { $0.domain == cookie.domain }) > Self.maxPerDomain,
                   let oldest = all.firstIndex(where: { $0.domain == cookie.domain }) {
                    all.remove(at: oldest)
                }
                if all.count > Self.maxCookies { all.removeFirst(all.count - Self.maxCookies) }
            }
        }
    }
}
