import APISupport
import APITargets
/// A target with every template expanded and every default applied: what will be sent, before
/// encoding. Moya's `Endpoint`. `RequestBuilder` turns it into bytes on the wire.
package struct Endpoint: Sendable {
    /// `service.target`.
    package var name: String
    /// Base URL joined with the path; any query comes from the task.
    package var url: String
    package var method: String
    /// In precedence order, already merged: one entry per name (case-insensitive), last writer wins.
    package var headers: [HeaderField]
    package var task: RequestTask
    /// Seconds.
    package var timeout: Double
    package var validation: Validation
    /// Certificate trust for live calls; the default means the system's trust store.
    package var tls: TLSOptions = TLSOptions()
    /// A `unix://` base URL's socket path (`url` is then `http://localhost/…`).
    package var socket: String? = nil
    /// `http2: prior-knowledge` / `--http2-prior-knowledge`.
    package var http2PriorKnowledge = false
    /// Where relative paths and diagnostics point.
    package var file: String
    /// From `auth:` (service, rule or target); nil when none applies or the target says `auth: none`.
    package var credential: Credential? = nil
    /// Values that came from secret `${VAR}`s, for `Redactor`.
    package var secrets: [String] = []
    /// `httpShouldHandleCookies`; a rule's `cookies: false` turns it off.
    package var cookies: Bool = true
    /// `followRedirects:` (service, rule, target) or `--no-follow`: false returns a 3xx as it is.
    package var followRedirects: Bool = true
    /// The most body bytes held in memory (`check --max-body`).
    package var maxBody: Int64 = PreparedRequest.defaultMaxBody
    /// Which layer below the target (apicli.yaml, an environment, a rule) set what, for `apicli show`.
    package var origins: [Origin] = []
    /// `task: { download: }`, expanded: where a call saves the body (relative to the working directory).
    package var download: String? = nil
}

extension Endpoint {
    /// An endpoint of these parts and every other field's default: what a target written in code
    /// (the library's `TargetType`) is, before `RequestBuilder` builds it.
    package init(name: String, url: String, method: String, headers: [HeaderField], task: RequestTask = RequestTask(),
                 timeout: Double, validation: Validation, file: String) {
        (self.name, self.url, self.method, self.headers, self.task) = (name, url, method, headers, task)
        (self.timeout, self.validation, self.file) = (timeout, validation, file)
    }
}

/// One field of an endpoint and the layer that set it: `header X-Team  from apicli.yaml`.
package struct Origin: Sendable, Equatable, CustomStringConvertible {
    package enum Field: Sendable, Equatable {
        case baseURL
        case header(String)
        case timeout
        case validation
        case auth
        case cookies(Bool)
        /// A rule's `task:` encoding, as `encoding form`.
        case task(String)
    }

    package var field: Field
    /// `apicli.yaml`, `environment 'staging'`, `rule "upload*" (targets/api.yaml:12)`.
    package var source: String

    package init(_ field: Field, from source: String) {
        self.field = field
        self.source = source
    }

    package var description: String {
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
