import APIYAML
/// `expect: { events: … }`: what a `text/event-stream` answer must hold, judged on the events
/// the stream dispatched (`check` and `check --stub`).
package struct EventsExpectation: Sendable, Equatable {
    /// `count: 3` or `count: { ">=": 2 }`: the number of events.
    package var count: [JSONExpectation.Comparison] = []
    /// `has: [ … ]`: each must match at least one event.
    package var has: [EventMatch] = []
    /// `last: { "$.done": true }`: JSONPaths on the last event's data (read as JSON).
    package var last: [JSONExpectation] = []
    /// `until: { event: done }`: reading stops at the first event that matches (live, the
    /// stream is closed then); the events after it are not judged. No match is a failure.
    package var until: EventMatch?
    package var mark: Mark

    package init(mark: Mark) { self.mark = mark }
}

/// One event's description: every part given must hold.
package struct EventMatch: Sendable, Equatable, CustomStringConvertible {
    /// The event type (`message` when the stream named none).
    package var event: String?
    /// `data: text` equals; `data: "~text"` contains.
    package var data: HeaderExpectation?
    package var id: String?
    /// JSONPaths on the event's data read as JSON.
    package var json: [JSONExpectation] = []

    package init() {}

    package var description: String {
        var parts: [String] = []
        if let event { parts.append("event \(event)") }
        if let id { parts.append("id \(id)") }
        if let data { parts.append("data " + (data.contains ? "containing \"\(data.value)\"" : "\"\(data.value)\"")) }
        parts += json.map { "\($0.path.description) as expected" }
        return parts.isEmpty ? "any event" : parts.joined(separator: ", ")
    }
}

extension TargetFile.Keys {
    package static let eventsExpectation = ["count", "has", "last", "until"]
    package static let eventMatch = ["event", "data", "id", "json"]
}

extension ServiceDecoder {
    mutating func eventsExpectation(_ node: Node) -> EventsExpectation? {
        guard let entries = reader.mapping(node, "expect events", known: TargetFile.Keys.eventsExpectation) else { return nil }
        var out = EventsExpectation(mark: node.mark)
        for e in entries {
            switch MappingKey(e.key) {
            case "count":
                out.count = comparisons(e.value, path: "the event count") ?? []
            case "has":
                let items = e.value.items ?? [e.value]
                out.has = items.compactMap { eventMatch($0, "an event of has:") }
            case "last":
                out.last = jsonExpectations(e.value)
            default:
                out.until = eventMatch(e.value, "until:")
            }
        }
        return out
    }

    private mutating func eventMatch(_ node: Node, _ what: String) -> EventMatch? {
        guard let entries = reader.mapping(node, what, known: TargetFile.Keys.eventMatch) else { return nil }
        var match = EventMatch()
        for e in entries {
            switch MappingKey(e.key) {
            case "event": match.event = reader.text(e.value, "event name")?.text
            case "id": match.id = reader.text(e.value, "event id")?.text
            case "data":
                guard let t = reader.text(e.value, "event data")?.text else { continue }
                match.data = t.hasPrefix("~") ? HeaderExpectation(name: "data", value: String(t.dropFirst()), contains: true)
                    : HeaderExpectation(name: "data", value: t, contains: false)
            default: match.json = jsonExpectations(e.value)
            }
        }
        return match
    }
}
