import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `auth: { digest: }` as a transport decorator: a request that carries a `DigestLogin` is sent,
/// and a 401 with a `WWW-Authenticate: Digest` challenge is answered (RFC 7616) — once, or once
/// more when the server says the nonce was `stale`. The challenge is kept for the process, per
/// origin and login, so later requests answer it at once with the next `nc` (no extra round
/// trip); a 401 to such a request starts over with the new challenge. A held 401 never reaches
/// the `Transfer`. Requests without a login pass through.
package struct DigestTransport: Transport {
    package let base: any Transport

    package init(_ base: any Transport) {
        self.base = base
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard let login = request.digest else { return try await base.send(request, transfer: transfer) }
        let key = DigestNonces.Key(origin: Self.origin(request.url), login: login)
        var challenge = DigestNonces.shared.current(key)
        var fromCache = challenge != nil
        var retries = 0
        while true {
            var attempt = request
            if let challenge {
                attempt.headers.removeAll { $0.name.lowercased() == "authorization" }
                attempt.headers.append(HeaderField("Authorization", authorization(challenge, login, key, request)))
            }
            // Answered again: the first challenge, a cached nonce refused, or a nonce gone stale.
            // A fresh answer refused without `stale` is final (wrong username or password).
            let sent = challenge
            let cached = fromCache
            let canRetry = retries < 2
            let retry = { @Sendable (response: Response) -> DigestChallenge? in
                guard canRetry, let fresh = Self.challenges(of: response)?.first else { return nil }
                return sent == nil || cached || fresh.stale ? fresh : nil
            }
            let response = try await base.send(attempt, transfer: transfer.holding { retry($0) != nil })
            guard let fresh = retry(response) else { return response }
            try transfer.destination?.reset()
            DigestNonces.shared.store(fresh, for: key)
            challenge = fresh
            fromCache = false
            retries += 1
        }
    }

    /// The Digest challenges of a 401, if it has any apicli can answer.
    static func challenges(of response: Response) -> [DigestChallenge]? {
        guard response.status == 401 else { return nil }
        let values = response.headers.filter { $0.name.lowercased() == "www-authenticate" }.map(\.value)
        let found = DigestChallenge.parse(values)
        return found.isEmpty ? nil : found
    }

    private func authorization(_ challenge: DigestChallenge, _ login: DigestLogin, _ key: DigestNonces.Key,
                               _ request: PreparedRequest) -> String {
        let nc = DigestNonces.shared.next(key)
        var uri = request.url.path(percentEncoded: true)
        if uri.isEmpty { uri = "/" }
        if let query = request.url.query(percentEncoded: true) { uri += "?" + query }
        var random = SystemRandomNumberGenerator()
        let cnonce = (0..<2).map { _ in String(random.next() as UInt64, radix: 16) }.joined()
        return challenge.authorization(login, method: request.method, uri: uri, nc: nc, cnonce: cnonce)
    }

    static func origin(_ url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port.map(String.init) ?? "")"
    }
}

/// The challenge last met per origin and login, and how many times its nonce was used.
final class DigestNonces: Sendable {
    struct Key: Hashable, Sendable {
        var origin: String
        var login: DigestLogin
    }

    static let shared = DigestNonces()
    private let state = Locked([Key: (challenge: DigestChallenge, count: Int)]())

    func current(_ key: Key) -> DigestChallenge? {
        state.withLock { $0[key]?.challenge }
    }

    func store(_ challenge: DigestChallenge, for key: Key) {
        state.withLock { $0[key] = (challenge, 0) }
    }

    /// The next `nc` for the key's nonce (1 for a fresh one).
    func next(_ key: Key) -> Int {
        state.withLock { all in
            guard var entry = all[key] else { return 1 }
            entry.count += 1
            all[key] = entry
            return entry.count
        }
    }
}
