import APISupport
import APISecrets
import APITargets
import APIEndpoint
import APITransport
/// curl cannot hold a WebSocket conversation: `--curl` of a `task: { websocket: }` says so and
/// gives the opening handshake alone (http/https, the Upgrade headers), which shows whether the
/// server accepts it (101) with the target's headers and auth.
extension Curl {
    static func webSocketHandshake(_ r: PreparedRequest, redactor: Redactor, connection: ConnectionOptions) -> String {
        var handshake = r
        handshake.websocket = nil
        handshake.url = WebSocketRequest.httpURL(r.url)
        handshake.headers += [HeaderField("Connection", "Upgrade"), HeaderField("Upgrade", "websocket"),
                              HeaderField("Sec-WebSocket-Version", "13"), HeaderField("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")]
        if let ws = r.websocket, !ws.subprotocols.isEmpty {
            handshake.headers.append(HeaderField("Sec-WebSocket-Protocol", ws.subprotocols.joined(separator: ", ")))
        }
        let command = Curl.command(handshake, redactor: redactor, connection: connection)
        return "# curl cannot send or receive WebSocket messages: this is the opening handshake only (apicli call runs the conversation)\n"
            + "curl -i -N --http1.1 " + command.dropFirst("curl -L ".count)
    }
}
