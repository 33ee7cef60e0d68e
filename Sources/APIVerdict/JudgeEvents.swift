import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `expect: { events: … }` judged on the events a `text/event-stream` body dispatched.
extension Judge {
    static func events(_ e: EventsExpectation, _ response: Response) -> [String] {
        guard SSEEvent.isEventStream(response.headers) else {
            let type = response.headers.value(of: "Content-Type") ?? "none"
            return ["expect events: the answer is not an event stream (Content-Type: \(type))"]
        }
        var events = SSEEvent.events(in: response.body)
        var out: [String] = []
        if let until = e.until {
            if let stop = events.firstIndex(where: { failures(until, $0).isEmpty }) {
                events = Array(events.prefix(through: stop))
            } else {
                out.append("no event matched until: (\(until)) among \(events.count) event\(events.count == 1 ? "" : "s")")
            }
        }
        for c in e.count {
            if let failure = compare(c, .number(Double(events.count)), path: "the event count") { out.append(failure) }
        }
        for match in e.has where !events.contains(where: { failures(match, $0).isEmpty }) {
            let near = events.count == 1 ? "the one event" : "none of \(events.count) events"
            out.append("\(near) matched (\(match))")
        }
        if !e.last.isEmpty {
            if let last = events.last {
                out += json(e.last, Data(last.data.utf8)).map { "last event: " + $0 }
            } else {
                out.append("last event: there was no event")
            }
        }
        return out
    }

    /// What of `match` does not hold for `event`.
    static func failures(_ match: EventMatch, _ event: SSEEvent) -> [String] {
        var out: [String] = []
        if let name = match.event, event.type != name { out.append("event is \(event.type)") }
        if let id = match.id, event.lastEventID != id { out.append("id is \(event.lastEventID)") }
        if let data = match.data, !(data.contains ? event.data.contains(data.value) : event.data == data.value) {
            out.append("data differs")
        }
        if !match.json.isEmpty { out += json(match.json, Data(event.data.utf8)) }
        return out
    }
}
