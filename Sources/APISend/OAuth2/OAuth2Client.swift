import APISupport
import APIJSON
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// OAuth2 tokens for `auth: { oauth2: }`: fetched once (client credentials, password or refresh
/// token grant), cached on disk (`OAuth2Cache`) and reused until they expire, refreshed with their
/// refresh token when there is one, and fetched anew once when the API answers 401. The token and
/// every secret of the client are recorded as secrets, so no output shows them.
package enum OAuth2Client {
    /// What `show` and `--dry-run` print in place of a token not fetched yet (shown as ••••).
    package static let pending = "<oauth2 token>"

    /// The request with its `Authorization` filled; `fresh` skips the cached token (after a 401).
    static func authorize(_ request: PreparedRequest, fresh: Bool, via transport: any Transport) async throws(APIError) -> PreparedRequest {
        guard let settings = request.oauth2 else { return request }
        let token = try await token(settings, fresh: fresh, timeout: request.timeout, tls: request.tls, via: transport)
        request.secrets?.record(token)
        var out = request
        out.headers.set("Authorization", "Bearer " + token)
        return out
    }

    /// A valid access token: the cached one, a refreshed one, or a new one.
    static func token(_ s: OAuth2Settings<String>, fresh: Bool, timeout: Double, tls: TLSOptions,
                      via transport: any Transport) async throws(APIError) -> String {
        let cache = OAuth2Cache(settings: s)
        let cached = cache.read()
        if !fresh, let cached, !cached.isExpired { return cached.accessToken }
        if let refresh = cached?.refreshToken ?? (s.grant == .refreshToken ? s.refreshToken : nil),
           let token = try? await request(s, grant: ["grant_type": "refresh_token", "refresh_token": refresh], timeout, tls, transport) {
            try cache.write(token)
            return token.accessToken
        }
        var form: [String: String]
        switch s.grant {
        case .clientCredentials: form = ["grant_type": "client_credentials"]
        case .password: form = ["grant_type": "password", "username": s.username ?? "", "password": s.password ?? ""]
        case .refreshToken: form = ["grant_type": "refresh_token", "refresh_token": s.refreshToken ?? ""]
        }
        let token = try await request(s, grant: form, timeout, tls, transport)
        try cache.write(token)
        return token.accessToken
    }

    /// POSTs the grant to the token URL (client credentials as HTTP Basic, RFC 6749 §2.3.1). A
    /// redirect is not followed: the form holds the client secret (and with `grant: password` the
    /// user's password), which must not be repeated to wherever a 307 points.
    private static func request(_ s: OAuth2Settings<String>, grant: [String: String], _ timeout: Double, _ tls: TLSOptions,
                                _ transport: any Transport) async throws(APIError) -> OAuth2Token {
        var form = grant
        if let scope = s.scope { form["scope"] = scope }
        if s.clientSecret == nil { form["client_id"] = s.clientId }
        let body = form.sorted { $0.key < $1.key }.map { URLBuilder.escapeQuery($0.key) + "=" + URLBuilder.escapeQuery($0.value) }
            .joined(separator: "&")
        var headers = [HeaderField("Content-Type", "application/x-www-form-urlencoded"), HeaderField("Accept", "application/json")]
        if let secret = s.clientSecret {
            headers.append(HeaderField("Authorization", "Basic " + Data("\(s.clientId):\(secret)".utf8).base64EncodedString()))
        }
        guard let url = URL(string: s.tokenURL) else { throw .dependency("oauth2 tokenURL '\(s.tokenURL)' is not a URL") }
        var request = PreparedRequest(url: url, method: "POST", headers: headers, body: .data(Data(body.utf8)), timeout: timeout)
        request.tls = tls
        request.followRedirects = false
        let response = try await transport.send(request)
        if Redirect.isRedirect(response.status) {
            throw .dependency("the oauth2 token request to \(request.hostAndPort) was redirected (status \(response.status)); "
                              + "token requests do not follow redirects: set tokenURL to where it points")
        }
        guard (200...299).contains(response.status) else {
            let reason = (JSONValue.parse(response.body).flatMap { JSONPath.error.evaluate($0) }).map { " (\($0.text()))" } ?? ""
            throw .dependency("the oauth2 token request to \(request.hostAndPort) was refused: status \(response.status)\(reason)")
        }
        guard let token = OAuth2Token(response.body, now: Date().timeIntervalSince1970) else {
            throw .dependency("the oauth2 token response from \(request.hostAndPort) has no access_token")
        }
        return token
    }
}

extension JSONPath {
    static let error = (try? JSONPath.parse("$.error").get())!
}
