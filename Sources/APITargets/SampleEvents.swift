import APIYAML
import APIJSON
/// `sample: { events: [ … ] }`: a Server-Sent Events answer, one event at a time, each after
/// its `delay` (what `call --stub` prints as they come and `apicli mock` sends as a stream).
extension Sample {
    package struct Event: Sendable {
        /// `event:` (nil: the default type, `message`).
        package var event: String?
        /// `data:` text (`{params}` expand) or structured data sent as JSON; nil: no data lines.
        package var data: Value?
        /// `id:` (the `Last-Event-ID` a client resumes from).
        package var id: String?
        /// `retry:` milliseconds, the reconnection time the client should use.
        package var retry: Int?
        /// Seconds to wait before this event goes out.
        package var delay: Double
        package var mark: Mark

        package init(event: String? = nil, data: Value? = nil, id: String? = nil, retry: Int? = nil,
                    delay: Double = 0, mark: Mark) {
            (self.event, self.data, self.id, self.retry, self.delay, self.mark) = (event, data, id, retry, delay, mark)
        }

        /// The event on the wire with `data` (already expanded): `event:`, `id:`, `retry:`, a
        /// `data:` line for each line of data, and the blank line that dispatches it.
        package func wire(data text: String?) -> String {
            var out = ""
            if let event { out += "event: \(event)\n" }
            if let id { out += "id: \(id)\n" }
            if let retry { out += "retry: \(retry)\n" }
            if let text {
                for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
                    out += "data: \(line)\n"
                }
            }
            return out + "\n"
        }
    }

    /// The media type of an events sample.
    package static let eventStreamType = "text/event-stream"
    /// The most events a sample may hold: what a stub or the mock sends stays bounded.
    package static let maxEvents = 10_000
}

extension ServiceDecoder {
    /// `events: [ { event:, data:, id:, retry:, delay: } … ]`.
    mutating func sampleEvents(_ node: Node) -> [Sample.Event]? {
        guard let items = sampleItems(node, "events", example: "events: [ { event: tick, data: hello, delay: 100ms } ]") else {
            return nil
        }
        var events: [Sample.Event] = []
        for item in items {
            if let event = sampleEvent(item) { events.append(event) }
        }
        return events.count == items.count ? events : nil
    }

    private mutating func sampleEvent(_ node: Node) -> Sample.Event? {
        guard let entries = reader.mapping(node, "a sample event", known: TargetFile.Keys.sampleEvent) else { return nil }
        var event = Sample.Event(mark: node.mark)
        var ok = true
        for e in entries {
            switch MappingKey(e.key) {
            case "event":
                event.event = lineText(e.value, "event name")
                ok = ok && event.event != nil
            case "id":
                event.id = lineText(e.value, "event id")
                if let id = event.id, id.contains("\0") {
                    reader.error("event id holds a NUL character, which clients ignore", at: e.value.mark)
                    ok = false
                }
                ok = ok && event.id != nil
            case "data":
                event.data = reader.value(e.value, "event data")
                ok = ok && event.data != nil
            case "retry":
                event.retry = reader.integer(e.value, "event retry (milliseconds)", in: 0...86_400_000)
                ok = ok && event.retry != nil
            case "delay":
                event.delay = reader.duration(e.value, "event delay", allowZero: true) ?? 0
            default: break
            }
        }
        if event.data == nil && event.retry == nil && event.id == nil && ok {
            reader.error("a sample event needs data: (or id: or retry: alone)", at: node.mark,
                         hint: "write { event: tick, data: hello }")
            ok = false
        }
        return ok ? event : nil
    }

    /// The items of a sample's `events:` or `messages:`: a list of at most `Sample.maxEvents`.
    mutating func sampleItems(_ node: Node, _ key: String, example: String) -> [Node]? {
        boundedItems(node, "sample \(key)", of: key, example: example)
    }

    /// The items of `what` (a list of `kind`, at most `Sample.maxEvents`): samples' events and
    /// messages, a websocket task's `send:` and `expect:`.
    mutating func boundedItems(_ node: Node, _ what: String, of kind: String, example: String) -> [Node]? {
        guard let items = node.items else {
            reader.error("\(what) must be a list of \(kind), not \(node.kindName)", at: node.mark, hint: "write " + example)
            return nil
        }
        guard items.count <= Sample.maxEvents else {
            reader.error("\(what) holds \(items.count) \(kind); at most \(Sample.maxEvents)", at: node.mark)
            return nil
        }
        return items
    }

    /// Text that goes on one line of the stream: no CR or LF.
    private mutating func lineText(_ node: Node, _ what: String) -> String? {
        guard let t = reader.text(node, what)?.text else { return nil }
        if t.contains(where: { $0 == "\n" || $0 == "\r" }) {
            reader.error("\(what) holds a line break", at: node.mark, hint: "an SSE field is one line; put line breaks in data:")
            return nil
        }
        return t
    }
}
