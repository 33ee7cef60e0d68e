/// `auth:` as declared at service, rule or target level: Moya's AccessTokenPlugin and
/// CredentialsPlugin as data. Values are templates, expanded when the endpoint is resolved.
public enum Auth: Sendable, Equatable {
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
public struct AWSSettings<Field: Sendable & Equatable>: Sendable, Equatable {
    public var region: Field?
    public var service: Field
    public var accessKey: Field?
    public var secretKey: Field?
    public var sessionToken: Field?
}

/// `--aws-sigv4 aws:amz:REGION:SERVICE`, as curl spells it: sign with SigV4 for this region and
/// service, the keys from the target's `auth: { aws: }` or the `AWS_*` variables.
public struct AWSScope: Sendable, Hashable {
    public var region: String
    public var service: String

    /// nil when `text` is not `aws:amz:REGION:SERVICE` (the provider names as curl writes them,
    /// any case; region and service letters, digits, `-`, `_`, `.`).
    public static func parse(_ text: String) -> AWSScope? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0].lowercased() == "aws", parts[1].lowercased() == "amz" else { return nil }
        let name: (String) -> Bool = { !$0.isEmpty && $0.count <= 64 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) } }
        guard name(parts[2]), name(parts[3]) else { return nil }
        return AWSScope(region: parts[2], service: parts[3])
    }
}

/// `auth: { aws: }` expanded: what `SigV4Signer` signs with.
public struct AWSCredentials: Sendable, Hashable {
    public var accessKey: String
    public var secretKey: String
    public var sessionToken: String?
    public var region: String
    public var service: String

    public init(accessKey: String, secretKey: String, sessionToken: String? = nil, region: String, service: String) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
        self.region = region
        self.service = service
    }
}

/// An OAuth2 client as declared (`Template`s) or expanded (`String`s).
public struct OAuth2Settings<Field: Sendable & Equatable>: Sendable, Equatable {
    public enum Grant: String, Sendable, CaseIterable {
        case clientCredentials = "client_credentials"
        case password
        case refreshToken = "refresh_token"
    }

    public var tokenURL: Field
    public var clientId: Field
    public var clientSecret: Field?
    public var scope: Field?
    public var grant: Grant
    /// The resource owner's, for `grant: password`.
    public var username: Field?
    public var password: Field?
    /// For `grant: refresh_token`: the long-lived token to start from.
    public var refreshToken: Field?
}

/// Expanded credentials, ready for `AuthPlugin` (OAuth2's token is fetched when the request is sent).
public enum Credential: Sendable, Equatable {
    case bearer(String)
    case basic(user: String, password: String)
    case header(name: String, value: String)
    case oauth2(OAuth2Settings<String>)
    case digest(DigestLogin)
    case aws(AWSCredentials)
}

/// `auth: { digest: }` expanded: what `DigestTransport` answers a challenge with.
public struct DigestLogin: Sendable, Hashable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
