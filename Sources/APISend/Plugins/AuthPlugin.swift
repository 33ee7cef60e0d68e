import APISupport
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Adds the endpoint's credentials in `prepare` (Moya's AccessTokenPlugin and CredentialsPlugin).
/// A header the command line set with the same name wins: it is not replaced.
package struct AuthPlugin: Plugin {
    package var credential: Credential

    package init(_ credential: Credential) {
        self.credential = credential
    }

    /// The header added before sending; nil for Digest, whose `Authorization` answers the
    /// server's challenge (`DigestTransport`), and for AWS, signed as it is sent (`SigV4Transport`).
    package var header: HeaderField? {
        if case .oauth2 = credential {
            // The token is fetched (or taken from the cache) when the request is sent: `OAuth2Client`.
            return HeaderField("Authorization", "Bearer " + OAuth2Client.pending)
        }
        return credential.staticHeader
    }

    package func prepare(_ request: PreparedRequest) -> PreparedRequest {
        var out = request
        if let field = header {
            if out.headers.value(of: field.name) == nil { out.headers.append(field) }
            out.authHeader = field.name
        }
        if case .oauth2(let settings) = credential { out.oauth2 = settings }
        if case .digest(let login) = credential, out.headers.value(of: "Authorization") == nil {
            out.digest = login
            out.authHeader = "Authorization"
        }
        if case .aws(let credentials) = credential, out.headers.value(of: "Authorization") == nil {
            out.aws = credentials
            out.authHeader = "Authorization"
        }
        return out
    }
}

extension Endpoint {
    /// The plugins every exchange of this endpoint needs: its auth, if any.
    package var plugins: [any Plugin] { Self.plugins(credential) }

    /// The plugins of an exchange with `credential`.
    static func plugins(_ credential: Credential?) -> [any Plugin] {
        credential.map { [AuthPlugin($0)] } ?? []
    }
}

extension PreparedCall {
    /// The endpoint's plugins (auth), from its credential alone (every call asks).
    package var plugins: [any Plugin] { Endpoint.plugins(credential) }

    /// The request as it will be sent: after the plugins' `prepare` (what `show`, `--curl` and
    /// `-v` print).
    package var prepared: PreparedRequest { plugins.prepare(request) }
}
