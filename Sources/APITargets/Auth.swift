/// `auth:` as declared at service, rule or target level: Moya's AccessTokenPlugin and
/// CredentialsPlugin as data. Values are templates, expanded when the endpoint is resolved.
package enum Auth: Sendable, Equatable {
    /// `auth: none`: no credentials, whatever the service or a rule says.
    case none
    /// `{ bearer: token }`: `Authorization: Bearer token`.
    case bearer(Template)
    /// `{ basic: { user: u, password: p } }`: `Authorization: Basic base64(u:p)`.
    case basic(user: Template, password: Template)
    /// `{ header: X-API-Key, value: v }`: any header.
    case header(name: String, value: Template)
    /// `{ oauth2: { tokenURL, clientId, clientSecret, scope, grant, username, password } }`.
    case oauth2(OAuth2Settings<Template>)
    /// `{ digest: { username: u, password: p } }`: HTTP Digest (RFC 7616), answering the 401 challenge.
    case digest(user: Template, password: Template)
    /// `{ aws: { region, service, accessKey?, secretKey?, sessionToken? } }`: AWS Signature Version 4;
    /// a key left out comes from the standard `AWS_*` variables.
    case aws(AWSSettings<Template>)
}

/// `auth: { aws: }` as declared (`Template`s, nil: from the `AWS_*` variables).
package struct AWSSettings<Field: Sendable & Equatable>: Sendable, Equatable {
    package var region: Field?
    package var service: Field
    package var accessKey: Field?
    package var secretKey: Field?
    package var sessionToken: Field?

    package init(region: Field? = nil, service: Field, accessKey: Field? = nil, secretKey: Field? = nil, sessionToken: Field? = nil) {
        self.region = region
        self.service = service
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }
}

/// `--aws-sigv4 aws:amz:REGION:SERVICE`, as curl spells it: sign with SigV4 for this region and
/// service, the keys from the target's `auth: { aws: }` or the `AWS_*` variables.
package struct AWSScope: Sendable, Hashable {
    package var region: String
    package var service: String

    /// nil when `text` is not `aws:amz:REGION:SERVICE` (the provider names as curl writes them,
    /// any case; region and service letters, digits, `-`, `_`, `.`).
    package static func parse(_ text: String) -> AWSScope? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0].lowercased() == "aws", parts[1].lowercased() == "amz" else { return nil }
        let name: (String) -> Bool = { !$0.isEmpty && $0.count <= 64 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } }
        guard name(parts[2]), name(parts[3]) else { return nil }
        return AWSScope(region: parts[2], service: parts[3])
    }
}

/// `auth: { aws: }` expanded: what `SigV4Signer` signs with.
package struct AWSCredentials: Sendable, Hashable {
    package var accessKey: String
    package var secretKey: String
    package var sessionToken: String?
    package var region: String
    package var service: String

    package init(accessKey: String, secretKey: String, sessionToken: String? = nil, region: String, service: String) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
        self.region = region
        self.service = service
    }
}

/// An OAuth2 client as declared (`Template`s) or expanded (`String`s).
package struct OAuth2Settings<Field: Sendable & Equatable>: Sendable, Equatable {
    package enum Grant: String, Sendable, CaseIterable {
        case clientCredentials = "client_credentials"
        case password
        case refreshToken = "refresh_token"
    }

    package var tokenURL: Field
    package var clientId: Field
    package var clientSecret: Field?
    package var scope: Field?
    package var grant: Grant
    /// The resource owner's, for `grant: password`.
    package var username: Field?
    package var password: Field?
    /// For `grant: refresh_token`: the long-lived token to start from.
    package var refreshToken: Field?

    package init(tokenURL: Field, clientId: Field, clientSecret: Field? = nil, scope: Field? = nil, grant: Grant, username: Field? = nil, password: Field? = nil, refreshToken: Field? = nil) {
        self.tokenURL = tokenURL
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.scope = scope
        self.grant = grant
        self.username = username
        self.password = password
        self.refreshToken = refreshToken
    }
}

/// Expanded credentials, ready for `AuthPlugin` (OAuth2's token is fetched when the request is sent).
package enum Credential: Sendable, Equatable {
    case bearer(String)
    case basic(user: String, password: String)
    case header(name: String, value: String)
    case oauth2(OAuth2Settings<String>)
    case digest(DigestLogin)
    case aws(AWSCredentials)
}

/// `auth: { digest: }` expanded: what `DigestTransport` answers a challenge with.
package struct DigestLogin: Sendable, Hashable {
    package var user: String
    package var password: String

    package init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
