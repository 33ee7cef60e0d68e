import APISupport
import APISecrets
import APITargets
import APIEndpoint
import APITransport

/// `show`'s lines for a `task: { websocket: }`: what is sent, what is expected, when it closes.
enum WebSocketShow {
    static func lines(_ ws: WebSocketRequest, expect: [MessageMatch], redactor: Redactor) -> String {
        var text = "websocket\n"
        if !ws.subprotocols.isEmpty { text += "  subprotocols  \(ws.subprotocols.joined(separator: ", "))\n" }
        text += "  deflate       \(ws.deflate ? "offered" : "off")\n"
        for m in ws.send {
            switch m {
            case .text(let t): text += "  send          \(redactor.text(t))\n"
            case .binary(let file): text += "  send binary   \(file)\n"
            }
        }
        for m in expect { text += "  expect        \(m)\n" }
        var close: [String] = []
        if let after = ws.close.after { close.append("after \(after) message\(after == 1 ? "" : "s")") }
        close.append("after \(Text.duration(ws.close.wait)) without a message")
        text += "  close         \(ws.close.code), " + close.joined(separator: " or ") + "\n"
        return text
    }
}
