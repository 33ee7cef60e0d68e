import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `stream: { reconnect: N }`: an event stream that drops (a network failure) is sent again, up
/// to N times, with `Last-Event-ID` set to the last event id seen, after the server's `retry:`
/// (or a second; at most a minute). The events already printed stay; the new ones follow.
extension Sender {
    func reconnecting(_ call: PreparedCall, _ transport: any Transport, _ plugins: [any Plugin], _ transfer: Transfer,
                      reconnects: Int) async -> Sent {
        let tracker = EventTracker(transfer.stream)
        var tracked = transfer
        if transfer.stream != nil { tracked.stream = tracker }
        var request = call.request
        var attempts: [Attempt] = []
        var left = reconnects
        while true {
            let start = monotonicSeconds()
            do throws(APIError) {
                let exchange = try await Exchange.perform(request, transport: transport, plugins: plugins, transfer: tracked)
                let r = exchange.response
                attempts.append(.init(status: r.status, duration: r.duration, error: nil))
                return Sent(request: exchange.request, last: .success(r), attempts: attempts)
            } catch {
                attempts.append(.init(status: nil, duration: monotonicSeconds() - start, error: error.summary))
                guard error.kind == .network, left > 0 else {
                    return Sent(request: plugins.prepare(request), last: .failure(error), attempts: attempts)
                }
            }
            left -= 1
            let (id, retry) = tracker.resume
            let wait = min(retry.map { Double($0) / 1000 } ?? StreamSettings.defaultRetry, StreamSettings.maxRetry)
            if let id, !id.isEmpty { request.headers.set("Last-Event-ID", id) }
            if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        }
    }
}

/// Passes a stream's bytes on and reads them as events: the last event id and `retry:` a
/// reconnection resumes with.
final class EventTracker: BodySink {
    private let inner: (any BodySink)?
    private let state = Locked((parser: SSEParser(), lastEventID: String?.none))

    package init(_ inner: (any BodySink)?) { self.inner = inner }

    var resume: (id: String?, retry: Int?) { state.withLock { ($0.lastEventID, $0.parser.retry) } }

    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        state.withLock { s in
            if let last = s.parser.feed(bytes).last { s.lastEventID = last.lastEventID }
        }
        try inner?.write(bytes)
    }
}
