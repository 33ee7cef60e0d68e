import APISupport
import APIYAML
import APIJSON
import APIDiagnostics
import APISchema
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A token as the token endpoint issued it.
struct OAuth2Token: Sendable {
    var accessToken: String
    var refreshToken: String?
    /// Seconds since 1970; nil: no expiry given.
    var expiresAt: Double?

    /// A token due within 30 s counts as expired (it may expire in flight).
    var isExpired: Bool { expiresAt.map { $0 - 30 <= Date().timeIntervalSince1970 } ?? false }

    /// From a token response: `{"access_token": …, "expires_in": 3600, "refresh_token": …}`.
    package init?(_ body: Data, now: Double) {
        guard case .object(let members)? = JSONValue.parse(body),
              case .string(let access)? = members.first(where: { $0.key == "access_token" })?.value, !access.isEmpty else { return nil }
        accessToken = access
        if case .string(let r)? = members.first(where: { $0.key == "refresh_token" })?.value { refreshToken = r }
        if case .number(let seconds)? = members.first(where: { $0.key == "expires_in" })?.value { expiresAt = now + seconds }
    }

    package init(accessToken: String, refreshToken: String?, expiresAt: Double?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}

/// Tokens on disk, one file per client (`$APICLI_CACHE`, else `$XDG_CACHE_HOME/apicli`, else
/// `~/.cache/apicli`): `oauth2-<key>.json`, mode 0600, written atomically. The key is a hash of
/// the token URL, client id, grant, user and scope — never of a secret.
struct OAuth2Cache {
    let path: String

    package init(settings s: OAuth2Settings<String>) {
        let identity = [s.tokenURL, s.clientId, s.grant.rawValue, s.username ?? "", s.scope ?? ""].joined(separator: "\n")
        path = Path.join(Self.folder, "oauth2-\(Self.fnv1a(identity)).json")
    }

    static var folder: String {
        let env = ProcessEnvironment.all()
        if let dir = env["APICLI_CACHE"], !dir.isEmpty { return dir }
        if let xdg = env["XDG_CACHE_HOME"], !xdg.isEmpty { return Path.join(xdg, "apicli") }
        return Path.join(env["HOME"] ?? Path.temporaryDirectory, ".cache/apicli")
    }

    func read() -> OAuth2Token? {
        guard let data = FileManager.default.contents(atPath: path), case .object(let m)? = JSONValue.parse(data),
              case .string(let access)? = m.first(where: { $0.key == "accessToken" })?.value else { return nil }
        var refresh: String?, expires: Double?
        if case .string(let r)? = m.first(where: { $0.key == "refreshToken" })?.value { refresh = r }
        if case .number(let e)? = m.first(where: { $0.key == "expiresAt" })?.value { expires = e }
        return OAuth2Token(accessToken: access, refreshToken: refresh, expiresAt: expires)
    }

    func write(_ token: OAuth2Token) throws(APIError) {
        var members: [Value.Member] = [.init(key: "accessToken", value: .string(Template(token.accessToken, mark: Mark(line: 0, column: 0))))]
        if let r = token.refreshToken { members.append(.init(key: "refreshToken", value: .string(Template(r, mark: Mark(line: 0, column: 0))))) }
        if let e = token.expiresAt { members.append(.init(key: "expiresAt", value: .number(Text.fixed(e, 3)))) }
        _ = Path.makeDirectories(Path.parent(path), mode: 0o700)  // a failure shows as the write's
        try OutputFile.write(Data(Value.object(members).jsonText.utf8), to: path, mode: 0o600)
    }

    /// Removes every cached token; how many there were.
    static func clear() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed = 0
        for name in names where name.hasPrefix("oauth2-") && name.hasSuffix(".json") {
            if unlink(Path.join(folder, name)) == 0 { removed += 1 }
        }
        return removed
    }

    /// 64-bit FNV-1a, as 16 hex digits.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for b in text.utf8 { hash = (hash ^ UInt64(b)) &* 0x100000001b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

package enum OAuth2Tokens {
    /// `apicli auth clear`: empties the token cache; returns how many tokens were removed and where.
    package static func clear() -> (removed: Int, folder: String) {
        (OAuth2Cache.clear(), OAuth2Cache.folder)
    }
}
