import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import WSClient
import WSCompression

/// `task: { websocket: }` on the wire: a request with `websocket` set opens a WebSocket (the
/// headers, auth and TLS options go with the opening handshake), sends its messages in order and
/// receives until the conversation's `close:` says (a count, a quiet `wait`) or the server closes.
/// Every other request goes to `inner`. The answer is a `101` response whose `messages` hold what
/// came; each message also goes to `Transfer.message` (or `Transfer.stream`) as it comes. The
/// handshake takes its proxy and the jar's cookies from the run's settings (the workspace's) as the
/// HTTP engine's hops do (`RunSettings.hop`); it follows no redirect (the client library does not
/// hand one back).
package struct WebSocketTransport: Transport {
    let inner: any Transport
    let settings: RunSettings

    package init(_ inner: any Transport, settings: RunSettings = RunSettings()) {
        self.inner = inner
        self.settings = settings
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        try await send(request, transfer: Transfer())
    }

    nonisolated(nonsending) package func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        guard let ws = request.websocket else { return try await inner.send(request, transfer: transfer) }
        let tls: TLSConfiguration? = request.url.scheme?.lowercased() == "wss" ? try ClientPool.tlsConfiguration(request.tls) : nil
        let conversation = Conversation(ws, transfer: transfer, maxBytes: request.maxBody, host: request.hostAndPort)
        // The hop as the engine works it out for the handshake's http(s) URL: its proxy, the jar's cookies.
        var handshake = request
        handshake.url = WebSocketRequest.httpURL(request.url)
        if let jar = settings.cookieHeader(for: handshake) { handshake = RunSettings.joining(jar, to: handshake) }
        let hop = settings.hop(handshake)
        var config = WebSocketClientConfiguration(maxFrameSize: 1 << 20,
                                                  additionalHeaders: Self.handshakeHeaders(handshake, ws),
                                                  extensions: ws.deflate ? [.perMessageDeflate(maxDecompressedFrameSize: 1 << 24)] : [],
                                                  closeTimeout: .seconds(5))
        config.sniHostname = Self.serverName(request.url)
        let (url, configuration) = (request.url.absoluteString, config)
        let proxy = hop.proxy.map(Self.proxy)
        do {
            let closed = try await Deadline.race(request.timeout) { () async throws -> WebSocketCloseFrame? in
                // The library's trace goes to the conversation's witness only (what it refused, whether
                // a close came); nothing is printed.
                var trace = Logger(label: "apicli.websocket") { _ in conversation.witness.handler }
                trace.logLevel = .trace
                let logger = trace
                let handler: WebSocketDataHandler<WebSocketClient.Context> = { inbound, outbound, _ in
                    try await conversation.run(inbound, outbound)
                }
                // A frame the library refused ends the conversation at once: the library itself would
                // wait for the server's answer to its close, and a server that sends such frames may never.
                return try await withThrowingTaskGroup(of: WebSocketCloseFrame?.self) { group in
                    group.addTask {
                        if let proxy {
                            return try await WebSocketClient(url: url, configuration: configuration, tlsConfiguration: tls,
                                                             proxySettings: proxy, logger: logger, handler: handler).run()
                        }
                        return try await WebSocketClient(url: url, configuration: configuration, tlsConfiguration: tls, logger: logger,
                                                         handler: handler).run()
                    }
                    group.addTask {
                        while conversation.witness.refused == nil { try await Task.sleep(nanoseconds: 20_000_000) }
                        return nil
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? nil
                }
            }
            if let failure = conversation.failure ?? conversation.violation(closed: closed) { throw failure }
            return conversation.response(closeCode: closed.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) })
        } catch let error as APIError {
            throw conversation.failure ?? conversation.witness.refused.flatMap { _ in conversation.violation(closed: nil) } ?? error
        } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
            guard request.digest != nil else {
                throw .network(.other("\(request.hostAndPort) did not accept the WebSocket upgrade (its answer was not 101 Switching Protocols)"))
            }
            return try await Self.digestRefusal(request, inner: inner).get()
        } catch {
            if let failure = conversation.failure { throw failure }
            if "\(error)".contains("cannotUseIPAddressInSNI") {
                throw .network(.tls(host: request.hostAndPort, reason: "the WebSocket client (swift-websocket) cannot open wss:// to an IPv6 address: "
                                        + "it sends the address as the TLS server name; call it by a host name the certificate gives",
                                    detail: "\(error)"))
            }
            throw NIOConnector.describe(error, request, socket: nil)
        }
    }

    /// The TLS server name `WSClient` sends (it always sends one: the URL's host unless told):
    /// the host; for an IPv4 address, which NIOSSL refuses as a server name (RFC 6066 has none for
    /// addresses), the address with a trailing dot, which is no address to it. The certificate is
    /// still checked against the address connected to (its IP subjectAltName), as for HTTPS.
    static func serverName(_ url: URL) -> String? {
        guard let host = url.host, !host.contains(":"), !host.hasPrefix("[") else { return nil }
        return CookieDomain.isIPAddress(host) ? host + "." : host
    }

    /// The handshake's proxy (`http_proxy` for ws://, `https_proxy` for wss://, unless `no_proxy`
    /// names the host), reached with CONNECT (with Basic Proxy-Authorization when it has a login).
    static func proxy(_ server: ProxySettings.Server) -> WebSocketProxySettings {
        var connect = HTTPFields()
        if let credentials = server.credentials {
            connect[.proxyAuthorization] = "Basic " + Data(credentials.utf8).base64EncodedString()
        }
        return WebSocketProxySettings(host: server.host, port: server.port, type: .http(connectHeaders: connect))
    }

    /// The request's headers as the handshake's, but those the client sets itself, plus the subprotocols.
    static func handshakeHeaders(_ request: PreparedRequest, _ ws: WebSocketRequest) -> HTTPFields {
        let own: Set<String> = ["host", "connection", "upgrade", "sec-websocket-key", "sec-websocket-version",
                                "sec-websocket-extensions", "content-length", "content-type", "transfer-encoding"]
        var fields = HTTPFields()
        for h in request.headers where !own.contains(h.name.lowercased()) {
            if let name = HTTPField.Name(h.name) { fields.append(HTTPField(name: name, value: h.value)) }
        }
        if !ws.subprotocols.isEmpty, let name = HTTPField.Name("Sec-WebSocket-Protocol") {
            fields[name] = ws.subprotocols.joined(separator: ", ")
        }
        return fields
    }
}
