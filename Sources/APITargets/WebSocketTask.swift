import APIYAML
import APIJSON
/// `task: { websocket: { send, expect, close, subprotocols, deflate } }`: a live WebSocket
/// conversation. The target's URL is a `ws://` or `wss://` one; headers, auth and TLS options go
/// with the opening handshake as they go with an HTTP request.
package struct WebSocketTask: Sendable {
    /// One message the client sends, in order, once the connection is open.
    package enum Outgoing: Sendable {
        /// A text frame (`{params}` expand).
        case text(Template)
        /// A text frame holding the value as JSON.
        case json(Value)
        /// A binary frame with the file's bytes (absolute path).
        case binary(String, mark: Mark)
    }

    /// When the client ends the conversation (whichever comes first; the server may close before).
    package struct Close: Sendable, Equatable {
        /// After this many received messages.
        package var after: Int?
        /// After this many seconds without a message once every message is sent.
        package var wait: Double = WebSocketTask.defaultWait
        /// The close frame's status code.
        package var code: Int = 1000
        package var reason: String = ""

        package init() {}
    }

    package var send: [Outgoing] = []
    /// Each must match a received message, in order (`check` judges them).
    package var expect: [MessageMatch] = []
    package var close = Close()
    /// `Sec-WebSocket-Protocol` offered, in order of preference.
    package var subprotocols: [String] = []
    /// Offer permessage-deflate (used when the server accepts it).
    package var deflate = true
    package var mark: Mark

    package init(mark: Mark) { self.mark = mark }

    /// One second: how long the client waits for more when nothing says when to close.
    package static let defaultWait = 1.0
    /// At most this many messages are sent or received in one conversation (as in a sample).
    package static let maxMessages = Sample.maxEvents
}

/// One received message's description: every part given must hold.
package struct MessageMatch: Sendable, Equatable, CustomStringConvertible {
    /// `text: hi` equals; `text: "~hi"` contains.
    package var text: HeaderExpectation?
    /// JSONPaths on the message read as JSON.
    package var json: [JSONExpectation] = []
    /// `binary: true`: a binary message; `false`: a text one.
    package var binary: Bool?

    package init() {}

    package var description: String {
        var parts: [String] = []
        if let binary { parts.append(binary ? "binary" : "text") }
        if let text { parts.append(text.contains ? "containing \"\(text.value)\"" : "\"\(text.value)\"") }
        parts += json.map { "\($0.path.description) as expected" }
        return parts.isEmpty ? "any message" : parts.joined(separator: ", ")
    }
}

extension TargetFile.Keys {
    package static let websocket = ["send", "expect", "close", "subprotocols", "deflate"]
    package static let websocketSend = ["text", "json", "binary"]
    package static let websocketClose = ["after", "wait", "code", "reason"]
    package static let messageMatch = ["text", "json", "binary"]
}

extension ServiceDecoder {
    /// `websocket: { send: [hi, { json: { n: 1 } }, { binary: { file: a.bin } }], expect: [ { text: hi } ], close: { after: 2 } }`.
    mutating func websocket(_ node: Node) -> WebSocketTask? {
        guard let entries = reader.mapping(node, "task websocket", known: TargetFile.Keys.websocket) else { return nil }
        var out = WebSocketTask(mark: node.mark)
        var ok = true
        for e in entries {
            switch MappingKey(e.key) {
            case "send":
                guard let items = boundedItems(e.value, "websocket send", of: "messages", example: "send: [ hello, { json: { n: 1 } } ]") else { ok = false; continue }
                for item in items {
                    if let m = outgoing(item) { out.send.append(m) } else { ok = false }
                }
            case "expect":
                guard let items = boundedItems(e.value, "websocket expect", of: "messages", example: "expect: [ { text: hello }, { json: { \"$.n\": 1 } } ]") else { ok = false; continue }
                for item in items {
                    if let m = messageMatch(item) { out.expect.append(m) } else { ok = false }
                }
            case "close":
                if let c = websocketClose(e.value) { out.close = c } else { ok = false }
            case "subprotocols":
                let items = e.value.items ?? [e.value]
                for item in items {
                    guard let t = reader.text(item, "a subprotocol")?.text else { ok = false; continue }
                    if t.isEmpty || t.contains(where: { !$0.isASCII || $0 == "," || $0 == " " || $0.isNewline }) {
                        reader.error("subprotocol '\(t)' is not a token", at: item.mark, hint: "write names like chat or graphql-transport-ws")
                        ok = false
                    } else {
                        out.subprotocols.append(t)
                    }
                }
            default:
                if let b = reader.boolean(e.value, "websocket deflate") { out.deflate = b } else { ok = false }
            }
        }
        return ok ? out : nil
    }

    /// `hello`, `{ text: hello }`, `{ json: … }` or `{ binary: { file: a.bin } }`.
    private mutating func outgoing(_ node: Node) -> WebSocketTask.Outgoing? {
        if node.pairs == nil {
            return reader.text(node, "a websocket message").map { .text($0) }
        }
        guard let entries = reader.mapping(node, "a websocket message", known: TargetFile.Keys.websocketSend) else { return nil }
        guard entries.count == 1, let e = entries.first else {
            reader.error("a websocket message takes one of text:, json:, binary:", at: node.mark,
                         hint: "write { text: hello }, { json: { n: 1 } } or { binary: { file: data.bin } }")
            return nil
        }
        switch MappingKey(e.key) {
        case "text": return reader.text(e.value, "message text").map { .text($0) }
        case "json": return reader.value(e.value, "message json").map { .json($0) }
        default:
            guard let file = reader.mapping(e.value, "a binary message", known: ["file"])?.first(where: { $0.key == "file" }) else {
                reader.error("a binary message names its file", at: e.value.mark, hint: "write { binary: { file: data.bin } }")
                return nil
            }
            return fileReference(file.value, "binary message file", use: .request).map { .binary($0, mark: file.value.mark) }
        }
    }

    private mutating func messageMatch(_ node: Node) -> MessageMatch? {
        guard let entries = reader.mapping(node, "an expected message", known: TargetFile.Keys.messageMatch) else { return nil }
        var match = MessageMatch()
        for e in entries {
            switch MappingKey(e.key) {
            case "text":
                guard let t = reader.text(e.value, "message text")?.text else { return nil }
                match.text = t.hasPrefix("~") ? HeaderExpectation(name: "text", value: String(t.dropFirst()), contains: true)
                    : HeaderExpectation(name: "text", value: t, contains: false)
            case "json": match.json = jsonExpectations(e.value)
            default:
                guard let b = reader.boolean(e.value, "message binary") else { return nil }
                match.binary = b
            }
        }
        return match
    }

    private mutating func websocketClose(_ node: Node) -> WebSocketTask.Close? {
        guard let entries = reader.mapping(node, "websocket close", known: TargetFile.Keys.websocketClose) else { return nil }
        var out = WebSocketTask.Close()
        for e in entries {
            switch MappingKey(e.key) {
            case "after":
                guard let n = reader.integer(e.value, "close after (messages)", in: 1...WebSocketTask.maxMessages) else { return nil }
                out.after = n
            case "wait":
                guard let s = reader.duration(e.value, "close wait", allowZero: false) else { return nil }
                out.wait = s
            case "code":
                // 1000 and the application's 3000-4999 (RFC 6455 7.4): what a client may send.
                guard let c = reader.integer(e.value, "close code", in: 1000...4999) else { return nil }
                guard c == 1000 || c >= 3000 else {
                    reader.error("close code \(c) is reserved for the protocol", at: e.value.mark, hint: "use 1000 or an application code from 3000 to 4999")
                    return nil
                }
                out.code = c
            default:
                guard let r = reader.text(e.value, "close reason")?.text else { return nil }
                guard r.utf8.count <= 123 else {
                    reader.error("close reason is \(r.utf8.count) bytes; a close frame holds at most 123", at: e.value.mark)
                    return nil
                }
                out.reason = r
            }
        }
        return out
    }
}
