import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `record`'s body sink: keeps the body (up to `limit` bytes, as a body held in memory is) and,
/// when it is a `text/event-stream`, when each event completed, so the recorded sample keeps
/// the stream's pacing (`delay:` of each event).
public final class EventRecorder: BodySink {
    private struct State {
        var body = Data()
        var parser = SSEParser()
        var last = DispatchTime.now().uptimeNanoseconds
        var delays: [Double] = []
    }
    private let state = Locked(State())
    private let limit: Int64
    private let host: String

    public init(limit: Int64, host: String) { (self.limit, self.host) = (limit, host) }

    /// Called with the response's head: the pacing counts from here.
    public func head() { state.withLock { $0.last = DispatchTime.now().uptimeNanoseconds } }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        let limit = self.limit
        let fits: Bool = state.withLock { s in
            guard Int64(s.body.count) + Int64(bytes.count) <= limit else { return false }
            s.body.append(contentsOf: bytes)
            let now = DispatchTime.now().uptimeNanoseconds
            for _ in s.parser.feed(bytes) {
                s.delays.append(Double(now - s.last) / 1e9)
                s.last = now
            }
            return true
        }
        if !fits { throw .network(.bodyTooLarge(host: host, limit: limit)) }
    }

    /// `response` with the body kept here, and the seconds before each event it dispatched.
    public func finish(_ response: Response) -> (response: Response, delays: [Double]) {
        state.withLock { s in
            var out = response
            out.body = s.body
            out.streamed = false
            return (out, s.delays)
        }
    }
}
