#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `task: { websocket: }` as it goes on the wire: the messages expanded, the URL's scheme
/// `ws`/`wss` (an `http`/`https` base URL is upgraded to them).
public struct WebSocketRequest: Sendable {
    public enum Message: Sendable, Equatable {
        case text(String)
        /// A binary frame from this file (absolute path), read when it is sent.
        case binary(file: String)
    }

    public var send: [Message]
    public var close: WebSocketTask.Close
    public var subprotocols: [String]
    public var deflate: Bool

    public init(send: [Message] = [], close: WebSocketTask.Close = .init(), subprotocols: [String] = [], deflate: Bool = true) {
        self.send = send
        self.close = close
        self.subprotocols = subprotocols
        self.deflate = deflate
    }

    /// From the expanded task.
    init(_ task: WebSocketTask) {
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
    public static func httpURL(_ url: URL) -> URL { url.replacingScheme(["ws": "http", "wss": "https"]) }

    /// Whether `url` names a WebSocket endpoint (ws:// or wss://).
    public static func isWebSocket(_ url: URL) -> Bool {
        let scheme = url.scheme?.lowercased()
        return scheme == "ws" || scheme == "wss"
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
