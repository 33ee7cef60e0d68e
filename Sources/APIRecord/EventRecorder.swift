import APISupport
import APIDiagnostics
import APITargets
import APITransport
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `record`'s body sink: keeps the body (up to `limit` bytes, as a body held in memory is) and,
/// when it is a `text/event-stream`, when each event completed, so the recorded sample keeps
/// the stream's pacing (`delay:` of each event). With `maxEvents` (`record --max-events`), an
/// event stream is closed after that many events: the body ends with the last of them.
package final class EventRecorder: BodySink {
    private struct State {
        var body = Data()
        var parser: SSEParser
        var last = DispatchTime.now().uptimeNanoseconds
        var delays: [Double] = []
        /// The response's head, when it is an event stream that `maxEvents` bounds.
        var bounded: Response?
        /// `maxEvents` came: the head the recorded response is made of.
        var full: Response?
    }
    private let state: Locked<State>
    private let limit: Int64
    private let host: String
    private let maxEvents: Int?

    /// `maxEvent`: the request's longest event-stream line and largest event.
    package init(limit: Int64, host: String, maxEvents: Int? = nil, maxEvent: Int64 = StreamSettings.defaultMaxEvent) {
        (self.limit, self.host, self.maxEvents) = (limit, host, maxEvents)
        state = Locked(State(parser: SSEParser(maxEvent: maxEvent)))
    }

    /// Called with the response's head: the pacing counts from here.
    package func head(_ response: Response) {
        let stream = response.headers.value(of: "Content-Type")?.lowercased().hasPrefix(Sample.eventStreamType) ?? false
        state.withLock {
            $0.last = DispatchTime.now().uptimeNanoseconds
            $0.bounded = stream && maxEvents != nil ? response : nil
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        let (limit, maxEvents) = (self.limit, self.maxEvents)
        var overflow: SSEParser.TooLarge?
        let (fits, full): (Bool, Bool) = state.withLock { s in
            guard s.full == nil else { return (true, true) }
            guard Int64(s.body.count) + Int64(bytes.count) <= limit else { return (false, false) }
            let now = DispatchTime.now().uptimeNanoseconds
            // A line at a time when bounded, so the body ends right after the last event kept.
            var start = 0
            while start < bytes.count {
                var end = bytes.count
                if s.bounded != nil, let line = bytes[start...].firstIndex(where: { $0 == 10 || $0 == 13 }) { end = line + 1 }
                let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                s.body.append(contentsOf: piece)
                let events: [SSEEvent]
                do throws(SSEParser.TooLarge) {
                    events = try s.parser.feed(piece)
                } catch {
                    overflow = error
                    return (true, false)
                }
                for _ in events {
                    s.delays.append(Double(now - s.last) / 1e9)
                    s.last = now
                }
                if let head = s.bounded, let maxEvents, s.delays.count >= maxEvents {
                    s.full = head
                    return (true, true)
                }
                start = end
            }
            return (true, false)
        }
        if !fits { throw .network(.bodyTooLarge(host: host, limit: limit)) }
        if let overflow { throw overflow.failure(host: host) }
        // Enough: ends the exchange (the caller sees `isFull` and records what came).
        if full { throw .stopped("\(host): the event stream was closed after \(maxEvents ?? 0) events (--max-events)") }
    }

    /// Whether `maxEvents` events came: the exchange was ended here, on purpose.
    package var isFull: Bool { state.withLock { $0.full != nil } }

    /// `response` (or, when `maxEvents` ended the stream, the head it came with) with the body kept
    /// here, and the seconds before each event it dispatched.
    package func finish(_ response: Response?) throws(APIError) -> (response: Response, delays: [Double]) {
        let kept = state.withLock { $0 }
        guard var out = kept.full ?? response else { throw .stopped("\(host): no response was recorded") }
        out.body = kept.body
        out.streamed = false
        return (out, kept.delays)
    }
}
