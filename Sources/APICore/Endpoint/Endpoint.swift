/// A target with every template expanded and every default applied: what will be sent, before
/// encoding. Moya's `Endpoint`. `RequestBuilder` turns it into bytes on the wire.
public struct Endpoint: Sendable {
    /// `service.target`.
    public var name: String
    /// Base URL joined with the path; any query comes from the task.
    public var url: String
    public var method: String
    /// In precedence order, already merged: one entry per name (case-insensitive), last writer wins.
    public var headers: [HeaderField]
    public var task: RequestTask
    /// Seconds.
    public var timeout: Double
    public var validation: Validation
    /// Certificate trust for live calls; the default means the system's trust store.
    public var tls: TLSOptions = TLSOptions()
    /// A `unix://` base URL's socket path (`url` is then `http://localhost/…`).
    public var socket: String? = nil
    /// `http2: prior-knowledge` / `--http2-prior-knowledge`.
    public var http2PriorKnowledge = false
    /// Where relative paths and diagnostics point.
    public var file: String
    /// From `auth:` (service, rule or target); nil when none applies or the target says `auth: none`.
    public var credential: Credential? = nil
    /// Values that came from secret `${VAR}`s, for `Redactor`.
    public var secrets: [String] = []
    /// `httpShouldHandleCookies`; a rule's `cookies: false` turns it off.
    public var cookies: Bool = true
    /// `followRedirects:` (service, rule, target) or `--no-follow`: false returns a 3xx as it is.
    public var followRedirects: Bool = true
    /// The most body bytes held in memory (`check --max-body`).
    public var maxBody: Int64 = PreparedRequest.defaultMaxBody
    /// Which layer below the target (apicli.yaml, an environment, a rule) set what, for `apicli show`.
    public var origins: [Origin] = []
    /// `task: { download: }`, expanded: where a call saves the body (relative to the working directory).
    public var download: String? = nil

}

/// One field of an endpoint and the layer that set it: `header X-Team  from apicli.yaml`.
public struct Origin: Sendable, Equatable, CustomStringConvertible {
    public enum Field: Sendable, Equatable {
        case baseURL
        case header(String)
        case timeout
        case validation
        case auth
        case cookies(Bool)
        /// A rule's `task:` encoding, as `encoding form`.
        case task(String)
    }

    public var field: Field
    /// `apicli.yaml`, `environment 'staging'`, `rule "upload*" (targets/api.yaml:12)`.
    public var source: String

    public init(_ field: Field, from source: String) {
        self.field = field
        self.source = source
    }

    public var description: String {
        let name: String
        switch field {
        case .baseURL: name = "baseURL"
        case .header(let header): name = "header \(header)"
        case .timeout: name = "timeout"
        case .validation: name = "validate"
        case .auth: name = "auth"
        case .cookies(let on): name = "cookies \(on ? "on" : "off")"
        case .task(let what): name = "task \(what)"
        }
        return "\(name)  from \(source)"
    }
}
