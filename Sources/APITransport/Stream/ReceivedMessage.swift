import APIJSON
import APISchema
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One WebSocket message as it came: a text or binary frame's payload and when it came.
package struct ReceivedMessage: Sendable, Equatable {
    package var binary: Bool
    package var data: Data
    /// Seconds since the connection opened.
    package var at: Double

    package init(binary: Bool, data: Data, at: Double) {
        self.binary = binary
        self.data = data
        self.at = at
    }

    package init(text: String, at: Double) {
        self.init(binary: false, data: Data(text.utf8), at: at)
    }

    /// A text message's text; a binary message's bytes as base64.
    package var text: String {
        binary ? data.base64EncodedString() : String(decoding: data, as: UTF8.self)
    }

    /// One line of JSON for piping: `{"type":"text","data":"…","at":0.012}` (binary: base64 data).
    package var jsonLine: String {
        let at = (at * 1000).rounded() / 1000
        let fields: [(key: String, value: JSONValue)] = [("type", .string(binary ? "binary" : "text")), ("data", .string(text)), ("at", .number(at))]
        return JSONValue.object(fields).jsonText
    }

    /// What a whole conversation is as a body: each message's `text` on its own line.
    package static func body(_ messages: [ReceivedMessage]) -> Data {
        Data(messages.map { $0.text + "\n" }.joined().utf8)
    }
}
