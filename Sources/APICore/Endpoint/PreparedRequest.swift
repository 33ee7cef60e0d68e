#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The request as it goes on the wire, in a form every part can print: the transports, `-v`,
/// `show`. Header order is kept (URLRequest would lose it).
public struct PreparedRequest: Sendable {
    public enum Body: Sendable, Equatable {
        case data(Data)
        /// Sent from the file (absolute path), streamed.
        case file(String)
        /// `multipart/form-data`; its files are streamed.
        case multipart(MultipartBody)
    }

    public var url: URL
    public var method: String
    public var headers: [HeaderField]
    public var body: Body?
    public var timeout: Double
    /// `stream: { idle: }`: the longest gap, in seconds, between a stream's events (nil: none but `timeout`).
    public var idle: Double? = nil
    /// A `unix://` base URL's socket: the request goes over it, `url` names the host for `Host:`.
    public var socket: String? = nil
    /// `http2: prior-knowledge`: an `http://` request goes as HTTP/2 from the first byte (`H2CTransport`).
    public var http2PriorKnowledge = false
    /// `task: { websocket: }`: a WebSocket conversation over `url` (ws:// or wss://) instead of an HTTP exchange.
    public var websocket: WebSocketRequest? = nil
    /// Certificate trust; the default is the system's trust store.
    public var tls: TLSOptions = TLSOptions()
    /// Cookies of the run's jar sent and stored (a rule's `cookies: false` turns it off).
    public var cookies: Bool = true
    /// `followRedirects:` / `--no-follow`: false returns a 3xx as it is.
    public var followRedirects: Bool = true
    /// The header `auth:` adds (set by `AuthPlugin`): never sent to another origin after a redirect.
    public var authHeader: String? = nil
    /// `auth: { oauth2: }`: the client whose token goes in `Authorization` when it is sent.
    public var oauth2: OAuth2Settings<String>? = nil
    /// `auth: { digest: }`: the login `DigestTransport` answers a 401 challenge with.
    public var digest: DigestLogin? = nil
    /// `auth: { aws: }`: `SigV4Transport` signs the request with these as it is sent.
    public var aws: AWSCredentials? = nil
    /// With `oauth2`: skip the cached token and fetch a fresh one (the API answered 401).
    public var freshToken = false
    /// Where values met while sending (an OAuth2 token) are recorded as secrets: the workspace's.
    public var secrets: Secrets? = nil
    /// The most body bytes kept in memory (`check --max-body`); a larger body fails the exchange.
    /// Bodies streamed to a file or to stdout are not held, so not limited.
    public var maxBody: Int64 = PreparedRequest.defaultMaxBody

    /// 64 MiB.
    public static let defaultMaxBody: Int64 = 64 << 20

    /// `host:port` as the URL names it, for messages.
    public var hostAndPort: String {
        url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? url.absoluteString
    }
}
