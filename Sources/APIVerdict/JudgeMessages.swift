import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `task: { websocket: { expect: } }` judged on the messages a conversation received: each
/// expected message must match a received one, in order (others may come between).
extension Judge {
    static func messages(_ expected: [MessageMatch], _ response: Response) -> [String] {
        guard let messages = response.messages else {
            return ["expect messages: the answer is not a WebSocket conversation (status \(response.status))"]
        }
        return unmet(expected, messages).map { [$0] } ?? []
    }

    /// Whether every expected message came, in order: what ends a conversation early.
    package static func met(_ expected: [MessageMatch], _ messages: [ReceivedMessage]) -> Bool {
        unmet(expected, messages) == nil
    }

    /// The first expected message that did not come (in order), in words; nil when all did.
    static func unmet(_ expected: [MessageMatch], _ messages: [ReceivedMessage]) -> String? {
        var next = 0
        for (i, match) in expected.enumerated() {
            guard let found = messages[next...].firstIndex(where: { failures(match, $0).isEmpty }) else {
                let got = messages.count == 1 ? "1 message" : "\(messages.count) messages"
                let after = i == 0 ? "" : " after message \(next)"
                let last = messages.last.map { ", the last: \(Self.quoted($0))" } ?? ""
                return "expected message \(i + 1) (\(match)) was not received\(after); got \(got)\(last)"
            }
            next = found + 1
        }
        return nil
    }

    /// What of `match` does not hold for `message`.
    static func failures(_ match: MessageMatch, _ message: ReceivedMessage) -> [String] {
        var out: [String] = []
        if let binary = match.binary, binary != message.binary { out.append(message.binary ? "binary" : "text") }
        if let text = match.text {
            let t = message.text
            if !(text.contains ? t.contains(text.value) : t == text.value) { out.append("text differs") }
        }
        if !match.json.isEmpty { out += json(match.json, message.data) }
        return out
    }

    /// A message for a report line: at most 80 characters, quoted.
    private static func quoted(_ m: ReceivedMessage) -> String {
        let t = m.binary ? "binary, \(m.data.count) bytes" : m.text
        return "\"" + (t.count > 80 ? String(t.prefix(77)) + "…" : t) + "\""
    }
}
