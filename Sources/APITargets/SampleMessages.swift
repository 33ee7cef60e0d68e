import APIYAML
import APIJSON
/// `sample: { messages: [ … ] }`: a WebSocket conversation's server side, one message at a time,
/// each after its `delay` (what `apicli mock` sends on a WebSocket and `call --stub` prints).
extension Sample {
    package struct Message: Sendable {
        /// `text:` (`{params}` expand) or `json:` (sent as JSON text); a text frame either way.
        package var content: Value
        /// Seconds to wait before this message goes out.
        package var delay: Double
        package var mark: Mark
    }
}

extension TargetFile.Keys {
    /// One entry of a sample's `messages:`.
    package static let sampleMessage = ["text", "json", "delay"]
}

extension ServiceDecoder {
    /// `messages: [ { text: hi, delay: 100ms }, { json: { n: 1 } } ]`.
    mutating func sampleMessages(_ node: Node) -> [Sample.Message]? {
        guard let items = sampleItems(node, "messages", example: "messages: [ { text: hello, delay: 100ms }, { json: { n: 1 } } ]") else {
            return nil
        }
        var out: [Sample.Message] = []
        for item in items {
            guard let entries = reader.mapping(item, "a sample message", known: TargetFile.Keys.sampleMessage) else { continue }
            var content: Value?
            var delay = 0.0
            var keys = 0
            for e in entries {
                switch MappingKey(e.key) {
                case "text":
                    keys += 1
                    content = reader.text(e.value, "message text").map { .string($0) }
                case "json":
                    keys += 1
                    content = reader.value(e.value, "message json")
                default:
                    delay = reader.duration(e.value, "message delay", allowZero: true) ?? 0
                }
            }
            if keys != 1 {
                reader.error("a sample message takes one of text: or json:", at: item.mark, hint: "write { text: hello } or { json: { n: 1 } }")
                continue
            }
            if let content { out.append(Sample.Message(content: content, delay: delay, mark: item.mark)) }
        }
        return out.count == items.count ? out : nil
    }
}
