import APISupport
import APIDiagnostics
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One event of a `text/event-stream` body, as the WHATWG HTML standard dispatches it.
package struct SSEEvent: Sendable, Equatable {
    /// The event type: `message` unless an `event:` field named another.
    package var type: String
    /// The `data:` lines joined with `\n` (no trailing newline).
    package var data: String
    /// The last event ID buffer when the event was dispatched (it persists across events).
    package var lastEventID: String

    package init(type: String = "message", data: String, lastEventID: String = "") {
        (self.type, self.data, self.lastEventID) = (type, data, lastEventID)
    }
}

/// An incremental parser for `text/event-stream` bodies, following the "interpreting an event
/// stream" rules of the WHATWG HTML standard (§9.2.6): bytes in, in any chunking; events out.
/// Lines end with CRLF, LF or CR (a CR at the end of one chunk waits to see if LF begins the
/// next); one leading UTF-8 BOM is dropped; lines starting with `:` are comments; a line without
/// a colon is a field with an empty value; one space after the colon is stripped; `data` lines
/// join with LF; `id` containing NUL is ignored; `retry` counts only when all ASCII digits;
/// a blank line dispatches (nothing when the data buffer is empty); an unfinished event at the
/// end of the stream is discarded. A line, and an event's data, longer than `maxEvent` bytes
/// (`--max-event-size`, `stream: { maxEventSize: }`; default `StreamSettings.defaultMaxEvent`) is an error:
/// a server's endless line is never held whole.
package struct SSEParser: Sendable {
    /// The reconnection time in milliseconds from the last valid `retry:` field, if any.
    package private(set) var retry: Int?
    /// The longest line, and the largest event's data, in bytes.
    package let maxEvent: Int64
    private var dataBytes: Int64 = 0
    private var line: [UInt8] = []
    private var afterCR = false
    private var bomState: BOMState = .unchecked([])
    private var data = ""
    private var eventType = ""
    private var lastEventID = ""

    private enum BOMState: Sendable { case unchecked([UInt8]), done }
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    package init(maxEvent: Int64 = StreamSettings.defaultMaxEvent) { self.maxEvent = maxEvent }

    /// A line or an event's data longer than `maxEvent` (`line`: which).
    package struct TooLarge: Error, Equatable {
        package var line: Bool
        package var limit: Int64

        /// As the exchange's failure (exit 3), naming the limit and how to raise it.
        package func failure(host: String) -> APIError { .network(.eventTooLarge(host: host, line: line, limit: limit)) }
    }

    /// Feeds the next bytes of the body; returns the events they completed, in order.
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws(TooLarge) -> [SSEEvent] where Bytes.Element == UInt8 {
        var events: [SSEEvent] = []
        for byte in bytes {
            if case .unchecked(var held) = bomState {
                held.append(byte)
                if held.count < 3, Self.bom.starts(with: held) { bomState = .unchecked(held); continue }
                bomState = .done
                let rest = held == Self.bom ? [] : held
                for b in rest { try take(b, into: &events) }
                continue
            }
            try take(byte, into: &events)
        }
        return events
    }

    /// Ends the stream: a pending line is interpreted (it may set `retry` or the last event ID),
    /// and the unfinished event is discarded, as the standard says.
    package mutating func finish() {
        if case .unchecked(let held) = bomState {
            bomState = .done
            var ignored: [SSEEvent] = []
            for b in held { try? take(b, into: &ignored) }
        }
        if !line.isEmpty {
            var ignored: [SSEEvent] = []
            try? interpret(line, into: &ignored)
        }
        (line, afterCR, data, eventType, dataBytes) = ([], false, "", "", 0)
    }

    private mutating func take(_ byte: UInt8, into events: inout [SSEEvent]) throws(TooLarge) {
        if afterCR {
            afterCR = false
            if byte == 0x0A { return } // CRLF: the CR ended the line already
        }
        switch byte {
        case 0x0D:
            afterCR = true
            try interpret(line, into: &events)
            line.removeAll(keepingCapacity: true)
        case 0x0A:
            try interpret(line, into: &events)
            line.removeAll(keepingCapacity: true)
        default:
            guard Int64(line.count) < maxEvent else { throw TooLarge(line: true, limit: maxEvent) }
            line.append(byte)
        }
    }

    private mutating func interpret(_ bytes: [UInt8], into events: inout [SSEEvent]) throws(TooLarge) {
        if bytes.isEmpty { dispatch(into: &events); return }
        if bytes[0] == 0x3A { return } // comment
        let field: String
        var value: ArraySlice<UInt8>
        if let colon = bytes.firstIndex(of: 0x3A) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            value = bytes[(colon + 1)...]
            if value.first == 0x20 { value = value.dropFirst() }
        } else {
            field = String(decoding: bytes, as: UTF8.self)
            value = []
        }
        let text = String(decoding: value, as: UTF8.self)
        switch field {
        case "event": eventType = text
        case "data":
            dataBytes += Int64(value.count) + 1
            // The joined data, less its last line break, is the event's size.
            guard dataBytes - 1 <= maxEvent else { throw TooLarge(line: false, limit: maxEvent) }
            data += text + "\n"
        case "id": if !value.contains(0) { lastEventID = text }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let ms = Int(text) { retry = ms }
        default: break
        }
    }

    private mutating func dispatch(into events: inout [SSEEvent]) {
        defer { (data, eventType, dataBytes) = ("", "", 0) }
        guard !data.isEmpty else { return }
        data.removeLast() // the trailing LF
        events.append(SSEEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID))
    }
}

extension SSEEvent {
    /// Whether `headers` name a `text/event-stream` body.
    package static func isEventStream(_ headers: [HeaderField]) -> Bool {
        guard let type = headers.value(of: "Content-Type") else { return false }
        return type.split(separator: ";").first.map { String($0).trimmingWhitespace().lowercased() } == "text/event-stream"
    }

    /// Every event a whole body dispatches.
    package static func events(in body: Data) -> [SSEEvent] {
        var parser = SSEParser(maxEvent: .max)  // a held body is bounded already (--max-body): never throws
        let events = (try? parser.feed(body)) ?? []
        parser.finish()
        return events
    }
}

extension SSEEvent {
    /// The last valid `retry:` of a whole body.
    package static func retry(in body: Data) -> Int? {
        var parser = SSEParser(maxEvent: .max)
        _ = try? parser.feed(body)
        return parser.retry
    }
}
