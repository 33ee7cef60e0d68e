import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `call` prints a WebSocket conversation (`task: { websocket: }`, a `messages:` sample): each
/// received message as it comes, flushed. raw and events: the text on a line (a binary message
/// as base64); json: one {"type","data","at"} object a line.
enum MessageOutput {
    static func printer(_ format: EventFormat) -> @Sendable (ReceivedMessage) -> Void {
        { message in
            Terminal.write((format == .json ? message.jsonLine : message.text) + "\n")
        }
    }
}
