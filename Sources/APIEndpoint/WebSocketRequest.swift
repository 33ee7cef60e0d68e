import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `task: { websocket: }` as it goes on the wire: the messages expanded, the URL's scheme
/// `ws`/`wss` (an `http`/`https` base URL is upgraded to them).
package struct WebSocketRequest: Sendable {
    package enum Message: Sendable, Equatable {
        case text(String)
        /// A binary frame from this file (absolute path), read when it is sent.
        case binary(file: String)
    }

    package var send: [Message]
    package var close: WebSocketTask.Close
    package var subprotocols: [String]
    package var deflate: Bool

    package init(send: [Message] = [], close: WebSocketTask.Close = .init(), subprotocols: [String] = [], deflate: Bool = true) {
        self.send = send
        self.close = close
        self.subprotocols = subprotocols
        self.deflate = deflate
    }

    /// From the expanded task.
    package init(_ task: WebSocketTask) {
        send = task.send.map { m in
            switch m {
            case .text(let t): return .text(t.text)
            case .json(let v): return .text(v.jsonText)
            case .binary(let path, _): return .binary(file: path)
            }
        }
        close = task.close
        subprotocols = task.subprotocols
        deflate = task.deflate
    }

    /// `url` with the WebSocket scheme: http → ws, https → wss (ws and wss stay).
    static func webSocketURL(_ url: URL) -> URL { url.replacingScheme(["http": "ws", "https": "wss"]) }

    /// `url` with the HTTP scheme of its opening handshake: ws → http, wss → https.
    package static func httpURL(_ url: URL) -> URL { url.replacingScheme(["ws": "http", "wss": "https"]) }

    /// Whether `url` names a WebSocket endpoint (ws:// or wss://).
    package static func isWebSocket(_ url: URL) -> Bool {
        guard let scheme = url.scheme else { return false }
        return scheme.equalsIgnoringCase("ws") || scheme.equalsIgnoringCase("wss")
    }
}

extension URL {
    /// This URL with its scheme swapped by `map` (lower-cased); other schemes stay.
    fileprivate func replacingScheme(_ map: [String: String]) -> URL {
        guard var c = URLComponents(url: self, resolvingAgainstBaseURL: false), let to = c.scheme.flatMap({ map[$0.lowercased()] }) else {
            return self
        }
        c.scheme = to
        return c.url ?? self
    }
}
