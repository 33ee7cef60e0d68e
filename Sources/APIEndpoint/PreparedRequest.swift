import APISupport
import APISecrets
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The request as it goes on the wire, in a form every part can print: the transports, `-v`,
/// `show`. Header order is kept (URLRequest would lose it).
package struct PreparedRequest: Sendable {
    package enum Body: Sendable, Equatable {
        case data(Data)
        /// Sent from the file (absolute path), streamed.
        case file(String)
        /// `multipart/form-data`; its files are streamed.
        case multipart(MultipartBody)
    }

    package init(url: URL, method: String, headers: [HeaderField], body: Body?, timeout: Double, tls: TLSOptions = TLSOptions(),
                cookies: Bool = true, followRedirects: Bool = true, maxBody: Int64 = PreparedRequest.defaultMaxBody) {
        storage = CopyOnWrite(Fields(url: url, method: method, headers: headers, body: body, timeout: timeout, tls: tls,
                                 cookies: cookies, followRedirects: followRedirects, maxBody: maxBody))
    }

    /// The fields, shared by copies until one of them is changed (copy on write): a request goes down
    /// the send path by value (sender, exchange, plugins, transport, the hop in flight, `Sent`), and
    /// copying twenty fields (a retain each) at every step showed in load runs' profiles (docs/dev/benchmarks.md).
    /// Getters read one field in place (`CopyOnWrite.pointer`): no `_read` coroutine, whose frame
    /// was allocated on every read from another stage.
    private var storage: CopyOnWrite<Fields>

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
        var redirectScope: HostScope? = nil
        var authHeader: String? = nil
        var oauth2: OAuth2Settings<String>? = nil
        var digest: DigestLogin? = nil
        var aws: AWSCredentials? = nil
        var freshToken: Bool = false
        var secrets: Secrets? = nil
        var maxBody: Int64 = PreparedRequest.defaultMaxBody
        var maxEvent: Int64 = StreamSettings.defaultMaxEvent
    }

    package var url: URL {
        get { storage.pointer.pointee.url }
        _modify { yield &storage.value.url }
    }
    package var method: String {
        get { storage.pointer.pointee.method }
        _modify { yield &storage.value.method }
    }
    package var headers: [HeaderField] {
        get { storage.pointer.pointee.headers }
        _modify { yield &storage.value.headers }
    }
    package var body: Body? {
        get { storage.pointer.pointee.body }
        _modify { yield &storage.value.body }
    }
    package var timeout: Double {
        get { storage.pointer.pointee.timeout }
        _modify { yield &storage.value.timeout }
    }
    /// `stream: { idle: }`: the longest gap, in seconds, between a stream's events (nil: none but `timeout`).
    package var idle: Double? {
        get { storage.pointer.pointee.idle }
        _modify { yield &storage.value.idle }
    }
    /// A `unix://` base URL's socket: the request goes over it, `url` names the host for `Host:`.
    package var socket: String? {
        get { storage.pointer.pointee.socket }
        _modify { yield &storage.value.socket }
    }
    /// `http2: prior-knowledge`: an `http://` request goes as HTTP/2 from the first byte (`H2CConnector`).
    package var http2PriorKnowledge: Bool {
        get { storage.pointer.pointee.http2PriorKnowledge }
        _modify { yield &storage.value.http2PriorKnowledge }
    }
    /// `task: { websocket: }`: a WebSocket conversation over `url` (ws:// or wss://) instead of an HTTP exchange.
    package var websocket: WebSocketRequest? {
        get { storage.pointer.pointee.websocket }
        _modify { yield &storage.value.websocket }
    }
    /// Certificate trust; the default is the system's trust store.
    package var tls: TLSOptions {
        get { storage.pointer.pointee.tls }
        _modify { yield &storage.value.tls }
    }
    /// Cookies of the run's jar sent and stored (a rule's `cookies: false` turns it off).
    package var cookies: Bool {
        get { storage.pointer.pointee.cookies }
        _modify { yield &storage.value.cookies }
    }
    /// `followRedirects:` / `--no-follow`: false returns a 3xx as it is.
    package var followRedirects: Bool {
        get { storage.pointer.pointee.followRedirects }
        _modify { yield &storage.value.followRedirects }
    }
    /// The header `auth:` adds (set by `AuthPlugin`): never sent to another origin after a redirect.
    /// Where a redirect may go (`RunSettings.redirectScope`); nil: anywhere.
    package var redirectScope: HostScope? {
        get { storage.pointer.pointee.redirectScope }
        _modify { yield &storage.value.redirectScope }
    }

    package var authHeader: String? {
        get { storage.pointer.pointee.authHeader }
        _modify { yield &storage.value.authHeader }
    }
    /// `auth: { oauth2: }`: the client whose token goes in `Authorization` when it is sent.
    package var oauth2: OAuth2Settings<String>? {
        get { storage.pointer.pointee.oauth2 }
        _modify { yield &storage.value.oauth2 }
    }
    /// Whether `oauth2` is set, asked without copying the settings out (a copy of the generic
    /// settings makes the Swift runtime check `String: Equatable` at its first use in a process: a
    /// scan of every conformance in the binary, on every live call's path).
    package var hasOAuth2: Bool {
        if case .some = storage.pointer.pointee.oauth2 { true } else { false }
    }
    /// `auth: { digest: }`: the login `DigestTransport` answers a 401 challenge with.
    package var digest: DigestLogin? {
        get { storage.pointer.pointee.digest }
        _modify { yield &storage.value.digest }
    }
    /// `auth: { aws: }`: `SigV4Transport` signs the request with these as it is sent.
    package var aws: AWSCredentials? {
        get { storage.pointer.pointee.aws }
        _modify { yield &storage.value.aws }
    }
    /// With `oauth2`: skip the cached token and fetch a fresh one (the API answered 401).
    package var freshToken: Bool {
        get { storage.pointer.pointee.freshToken }
        _modify { yield &storage.value.freshToken }
    }
    /// Where values met while sending (an OAuth2 token) are recorded as secrets: the workspace's.
    package var secrets: Secrets? {
        get { storage.pointer.pointee.secrets }
        _modify { yield &storage.value.secrets }
    }
    /// The most body bytes kept in memory (`check --max-body`); a larger body fails the exchange.
    /// Bodies streamed to a file or to stdout are not held, so not limited.
    package var maxBody: Int64 {
        get { storage.pointer.pointee.maxBody }
        _modify { yield &storage.value.maxBody }
    }

    /// The longest event-stream line and the largest event (`--max-event-size`, `stream: { maxEventSize: }`):
    /// every parser of the response's events stops there (exit 3), streamed or not.
    package var maxEvent: Int64 {
        get { storage.pointer.pointee.maxEvent }
        _modify { yield &storage.value.maxEvent }
    }

    /// 64 MiB.
    package static let defaultMaxBody: Int64 = 64 << 20

    /// `host:port` as the URL names it, for messages.
    package var hostAndPort: String {
        url.host.map { h in url.port.map { "\(h):\($0)" } ?? h } ?? url.absoluteString
    }
}
