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

    public init(url: URL, method: String, headers: [HeaderField], body: Body?, timeout: Double, tls: TLSOptions = TLSOptions(),
                cookies: Bool = true, followRedirects: Bool = true, maxBody: Int64 = PreparedRequest.defaultMaxBody) {
        storage = Storage(Fields(url: url, method: method, headers: headers, body: body, timeout: timeout, tls: tls,
                                 cookies: cookies, followRedirects: followRedirects, maxBody: maxBody))
    }

    /// The fields, shared by copies until one of them is changed (copy on write): a request goes down
    /// the send path by value (sender, exchange, plugins, transport, the hop in flight, `Sent`), and
    /// copying twenty fields (a retain each) seven times a request was a tenth of a load run's CPU.
    private var storage: Storage

    private struct Fields: Sendable {
        var url: URL
        var method: String
        var headers: [HeaderField]
        var body: Body?
        var timeout: Double
        var idle: Double? = nil
        var socket: String? = nil
        var http2PriorKnowledge: Bool = false
        var websocket: WebSocketRequest? = nil
        var tls: TLSOptions = TLSOptions()
        var cookies: Bool = true
        var followRedirects: Bool = true
        var authHeader: String? = nil
        var oauth2: OAuth2Settings<String>? = nil
        var digest: DigestLogin? = nil
        var aws: AWSCredentials? = nil
        var freshToken: Bool = false
        var secrets: Secrets? = nil
        var maxBody: Int64 = PreparedRequest.defaultMaxBody
    }

    /// The fields behind a pointer (a class's `var` would be checked for exclusive access at run
    /// time on every read); changed only while this request holds the one reference.
    private final class Storage: @unchecked Sendable {
        let fields: UnsafeMutablePointer<Fields>

        init(_ value: Fields) {
            fields = .allocate(capacity: 1)
            fields.initialize(to: value)
        }

        deinit {
            fields.deinitialize(count: 1)
            fields.deallocate()
        }
    }

    /// The fields to change: this request's own (copied first when another request shares them).
    private mutating func unique() -> UnsafeMutablePointer<Fields> {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields.pointee) }
        return storage.fields
    }

    public var url: URL {
        _read { yield storage.fields.pointee.url }
        _modify { yield &unique().pointee.url }
    }
    public var method: String {
        _read { yield storage.fields.pointee.method }
        _modify { yield &unique().pointee.method }
    }
    public var headers: [HeaderField] {
        _read { yield storage.fields.pointee.headers }
        _modify { yield &unique().pointee.headers }
    }
    public var body: Body? {
        _read { yield storage.fields.pointee.body }
        _modify { yield &unique().pointee.body }
    }
    public var timeout: Double {
        _read { yield storage.fields.pointee.timeout }
        _modify { yield &unique().pointee.timeout }
    }
    /// `stream: { idle: }`: the longest gap, in seconds, between a stream's events (nil: none but `timeout`).
    public var idle: Double? {
        _read { yield storage.fields.pointee.idle }
        _modify { yield &unique().pointee.idle }
    }
    /// A `unix://` base URL's socket: the request goes over it, `url` names the host for `Host:`.
    public var socket: String? {
        _read { yield storage.fields.pointee.socket }
        _modify { yield &unique().pointee.socket }
    }
    /// `http2: prior-knowledge`: an `http://` request goes as HTTP/2 from the first byte (`H2CTransport`).
    public var http2PriorKnowledge: Bool {
        _read { yield storage.fields.pointee.http2PriorKnowledge }
        _modify { yield &unique().pointee.http2PriorKnowledge }
    }
    /// `task: { websocket: }`: a WebSocket conversation over `url` (ws:// or wss://) instead of an HTTP exchange.
    public var websocket: WebSocketRequest? {
        _read { yield storage.fields.pointee.websocket }
        _modify { yield &unique().pointee.websocket }
    }
    /// Certificate trust; the default is the system's trust store.
    public var tls: TLSOptions {
        _read { yield storage.fields.pointee.tls }
        _modify { yield &unique().pointee.tls }
    }
    /// Cookies of the run's jar sent and stored (a rule's `cookies: false` turns it off).
    public var cookies: Bool {
        _read { yield storage.fields.pointee.cookies }
        _modify { yield &unique().pointee.cookies }
    }
    /// `followRedirects:` / `--no-follow`: false returns a 3xx as it is.
    public var followRedirects: Bool {
        _read { yield storage.fields.pointee.followRedirects }
        _modify { yield &unique().pointee.followRedirects }
    }
    /// The header `auth:` adds (set by `AuthPlugin`): never sent to another origin after a redirect.
    public var authHeader: String? {
        _read { yield storage.fields.pointee.authHeader }
        _modify { yield &unique().pointee.authHeader }
    }
    /// `auth: { oauth2: }`: the client whose token goes in `Authorization` when it is sent.
    public var oauth2: OAuth2Settings<String>? {
        _read { yield storage.fields.pointee.oauth2 }
        _modify { yield &unique().pointee.oauth2 }
    }
    /// `auth: { digest: }`: the login `DigestTransport` answers a 401 challenge with.
    public var digest: DigestLogin? {
        _read { yield storage.fields.pointee.digest }
        _modify { yield &unique().pointee.digest }
    }
    /// `auth: { aws: }`: `SigV4Transport` signs the request with these as it is sent.
    public var aws: AWSCredentials? {
        _read { yield storage.fields.pointee.aws }
        _modify { yield &unique().pointee.aws }
    }
    /// With `oauth2`: skip the cached token and fetch a fresh one (the API answered 401).
    public var freshToken: Bool {
        _read { yield storage.fields.pointee.freshToken }
        _modify { yield &unique().pointee.freshToken }
    }
    /// Where values met while sending (an OAuth2 token) are recorded as secrets: the workspace's.
    public var secrets: Secrets? {
        _read { yield storage.fields.pointee.secrets }
        _modify { yield &unique().pointee.secrets }
    }
    /// The most body bytes kept in memory (`check --max-body`); a larger body fails the exchange.
    /// Bodies streamed to a file or to stdout are not held, so not limited.
    public var maxBody: Int64 {
        _read { yield storage.fields.pointee.maxBody }
        _modify { yield &unique().pointee.maxBody }
    }

    /// 64 MiB.
    public static let defaultMaxBody: Int64 = 64 << 20

    /// `host:port` as the URL names it, for messages.
    public var hostAndPort: String {
        url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? url.absoluteString
    }
}
