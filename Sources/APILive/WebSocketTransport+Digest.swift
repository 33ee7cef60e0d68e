import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `auth: { digest: }` on a WebSocket: swift-websocket's client hides the answer to a refused
/// handshake (no status, no headers), so a Digest challenge never reaches `DigestTransport`. When
/// the handshake of a request with a Digest login is refused, the same URL is asked once with a
/// plain `GET` (the handshake's headers, no upgrade) to see the server's answer: a `401` with a
/// `WWW-Authenticate: Digest` challenge is returned as the handshake's answer, which
/// `DigestTransport` answers as it does an ordinary request's, sending the handshake again with
/// `Authorization: Digest …`. A handshake that carried an answer and is still refused is a clear error.
extension WebSocketTransport {
    /// The 401 to hand back to `DigestTransport`, or the error to throw.
    static func digestRefusal(_ request: PreparedRequest, inner: any Transport) async -> Result<Response, APIError> {
        var probe = request
        probe.websocket = nil
        probe.url = WebSocketRequest.httpURL(request.url)
        probe.method = "GET"
        probe.body = nil
        let answer = try? await inner.send(probe, transfer: Transfer())
        guard let answer, answer.status == 401, hasDigestChallenge(answer) else {
            let seen = answer.map { " (a plain GET of it is answered \($0.status))" } ?? ""
            return .failure(.network(.other("\(request.hostAndPort) did not accept the WebSocket upgrade (its answer was not 101 Switching Protocols)\(seen)")))
        }
        let answered = request.headers.contains { $0.name.lowercased() == "authorization" && $0.value.lowercased().hasPrefix("digest ") }
        if answered && !isStale(answer) {
            return .failure(.network(.other("\(request.hostAndPort) refused the WebSocket handshake's Digest credentials (401 to the answered challenge): "
                                             + "check the user and password of auth: { digest: }")))
        }
        return .success(answer)
    }

    static func hasDigestChallenge(_ response: Response) -> Bool {
        response.headers.contains { $0.name.lowercased() == "www-authenticate" && $0.value.lowercased().hasPrefix("digest") }
    }

    /// `stale=true`: the nonce was old, the credentials right (`DigestTransport` answers once more).
    static func isStale(_ response: Response) -> Bool {
        response.headers.contains {
            $0.name.lowercased() == "www-authenticate" && $0.value.lowercased().replacing(" ", with: "").contains("stale=true")
        }
    }
}
