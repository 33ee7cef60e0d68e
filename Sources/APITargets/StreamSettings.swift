import APIYAML
/// `stream: { idle: 30s, reconnect: 3, maxEventSize: 16777216 }` of a target whose answer is a `text/event-stream`.
package struct StreamSettings: Sendable, Equatable {
    /// The longest silence between bytes of the stream, in seconds; longer ends it (exit 4).
    package var idle: Double?
    /// How many times a dropped stream is sent again with `Last-Event-ID` (0: never;
    /// `reconnect: true` is `defaultReconnects`), waiting the server's `retry:` (or a second).
    package var reconnects = 0
    /// The longest event-stream line, and the largest event, in bytes (nil: `defaultMaxEvent`,
    /// or `--max-event-size`, which wins).
    package var maxEvent: Int64?

    package static let defaultReconnects = 3
    package static let maxReconnects = 100
    /// Seconds waited before reconnecting when the server sent no `retry:`.
    package static let defaultRetry = 1.0
    /// The longest wait a server's `retry:` may ask for.
    package static let maxRetry = 60.0
    /// The longest line and the largest event of an event stream, in bytes, unless raised: 8 MiB.
    package static let defaultMaxEvent: Int64 = 8 << 20
    /// What `--max-event-size` and `stream: { maxEventSize: }` accept: 1 KiB to 1 GiB.
    package static let maxEventRange: ClosedRange<Int64> = 1024...(1 << 30)

    package init(idle: Double? = nil, reconnects: Int = 0) {
        self.idle = idle
        self.reconnects = reconnects
    }
}

extension TargetFile.Keys {
    package static let stream = ["idle", "reconnect", "maxEventSize"]
}

extension ServiceDecoder {
    mutating func streamSettings(_ node: Node) -> StreamSettings? {
        guard let entries = reader.mapping(node, "stream", known: TargetFile.Keys.stream) else { return nil }
        var out = StreamSettings()
        for e in entries {
            switch MappingKey(e.key) {
            case "idle": out.idle = reader.duration(e.value, "stream idle", allowZero: false)
            case "maxEventSize":
                let range = Int(StreamSettings.maxEventRange.lowerBound)...Int(StreamSettings.maxEventRange.upperBound)
                out.maxEvent = reader.integer(e.value, "stream maxEventSize (bytes)", in: range).map(Int64.init)
            default:
                if case .scalar(let s) = e.value.content, s.isPlain, let b = NodeReader.boolean(s.value) {
                    out.reconnects = b ? StreamSettings.defaultReconnects : 0
                } else {
                    out.reconnects = reader.integer(e.value, "stream reconnect (attempts, or true)",
                                                    in: 0...StreamSettings.maxReconnects) ?? 0
                }
            }
        }
        return out
    }
}
