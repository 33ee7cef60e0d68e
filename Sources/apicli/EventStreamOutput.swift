import APISupport
import APIJSON
import APIDiagnostics
import APISchema
import APITransport
import APIVerdict
import APIImport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `call` prints a `text/event-stream` response.
enum EventFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// The bytes as they come.
    case raw
    /// `event:` / `id:` / `data:` blocks, one per event, a blank line after each.
    case events
    /// One JSON object a line: {"event", "data", "id"}.
    case json
}

/// `call`'s body sink: decided by the response head (before the body moves). A
/// `text/event-stream` body is parsed and each event printed (and flushed) as it completes;
/// any other body streams to stdout as before, or, for a terminal, is held to be shown whole.
final class EventStreamOutput: BodySink, @unchecked Sendable {
    private enum Mode { case undecided, passthrough, hold, events }
    private let lock = Mutex()
    private let format: EventFormat
    private let holdOthers: Bool
    private let maxHeld: Int64
    private let host: String
    private var mode = Mode.undecided
    private var parser: SSEParser
    private var held = Data()
    /// Events printed so far.
    private(set) var count = 0

    /// `holdOthers`: a body that is not an event stream is kept (up to `maxHeld` bytes) for
    /// `heldBody`, not written. `maxEvent`: the request's longest line and largest event.
    init(format: EventFormat, holdOthers: Bool, maxHeld: Int64, maxEvent: Int64, host: String) {
        (self.format, self.holdOthers, self.maxHeld, self.host) = (format, holdOthers, maxHeld, host)
        parser = SSEParser(maxEvent: maxEvent)
    }

    static func isEventStream(_ response: Response) -> Bool { SSEEvent.isEventStream(response.headers) }

    /// Called with the final response's head.
    func head(_ response: Response) {
        lock.withLock {
            mode = Self.isEventStream(response) ? .events : holdOthers ? .hold : .passthrough
        }
    }

    /// Whether the body was an event stream.
    var isEvents: Bool { lock.withLock { mode == .events } }

    /// The body held for a terminal (not an event stream), if any.
    var heldBody: Data? { lock.withLock { mode == .hold ? held : nil } }

    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        // What to write and what went wrong, without a Result<Data?, APIError> (its metadata's first
        // instantiation scans the conformance records, at every live call).
        var tooLarge = false
        var overflow: SSEParser.TooLarge?
        let data: Data? = lock.withLock {
            switch mode {
            case .undecided, .passthrough: return Data(bytes)
            case .hold:
                guard Int64(held.count) + Int64(bytes.count) <= maxHeld else {
                    tooLarge = true
                    return nil
                }
                held.append(contentsOf: bytes)
                return nil
            case .events:
                if format == .raw { return Data(bytes) }
                let events: [SSEEvent]
                do throws(SSEParser.TooLarge) {
                    events = try parser.feed(bytes)
                } catch {
                    overflow = error
                    return nil
                }
                count += events.count
                guard !events.isEmpty else { return nil }
                return Data(events.map(render).joined().utf8)
            }
        }
        if tooLarge { throw .network(.bodyTooLarge(host: host, limit: maxHeld)) }
        if let overflow { throw overflow.failure(host: host) }
        // Terminal.write writes the whole buffer at once: each event reaches the reader as it completes.
        if let data { Terminal.write(data) }
    }

    private func render(_ event: SSEEvent) -> String {
        switch format {
        case .raw: return ""
        case .events:
            var block = "event: \(event.type)\n"
            if !event.lastEventID.isEmpty { block += "id: \(event.lastEventID)\n" }
            for line in event.data.split(separator: "\n", omittingEmptySubsequences: false) { block += "data: \(line)\n" }
            return block + "\n"
        case .json:
            return JSONValue.object([("event", .string(event.type)), ("data", .string(event.data)),
                                     ("id", .string(event.lastEventID))]).jsonText + "\n"
        }
    }
}
