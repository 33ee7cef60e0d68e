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
/// (or a second; at most a minute). The events already printed stay; the new ones follow. The
/// request's `timeout` bounds the whole: every attempt and wait falls inside it (each attempt gets
/// what is left), and when the next attempt could not start before it, the call has timed out.
/// A stream past a limit (`--max-body`, `--max-event-size`) or breaking the protocol is not a
/// drop: sending it again would meet the same.
extension Sender {
    func reconnecting(_ call: PreparedCall, _ transport: any Transport, _ plugins: [any Plugin], _ transfer: Transfer,
                      reconnects: Int) async -> Sent {
        let tracker = EventTracker(transfer.stream, maxEvent: call.request.maxEvent, host: call.request.hostAndPort)
        var tracked = transfer
        if transfer.stream != nil { tracked.stream = tracker }
        var request = call.request
        let timeout = call.request.timeout
        let deadline = monotonicSeconds() + timeout
        var attempts: [Attempt] = []
        var left = reconnects
        while true {
            let start = monotonicSeconds()
            request.timeout = deadline - start
            do throws(APIError) {
                let exchange = try await Exchange.perform(request, transport: transport, plugins: plugins, transfer: tracked)
                let r = exchange.response
                attempts.append(.init(status: r.status, duration: r.duration, error: nil))
                return Sent(request: exchange.request, last: .success(r), attempts: attempts)
            } catch {
                let failure: APIError = if case .timedOut = error { .timedOut(timeout) } else { error }
                attempts.append(.init(status: nil, duration: monotonicSeconds() - start, error: failure.summary))
                guard Self.isDrop(failure), left > 0 else {
                    return Sent(request: plugins.prepare(request), last: .failure(failure), attempts: attempts)
                }
            }
            left -= 1
            let (id, retry) = tracker.resume
            let wait = min(retry.map { Double($0) / 1000 } ?? StreamSettings.defaultRetry, StreamSettings.maxRetry)
            if let id, !id.isEmpty { request.headers.set("Last-Event-ID", id) }
            let remaining = deadline - monotonicSeconds()
            if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(max(0, min(wait, remaining)) * 1e9)) }
            guard wait < remaining else {
                return Sent(request: plugins.prepare(request), last: .failure(.timedOut(timeout)), attempts: attempts)
            }
        }
    }

    /// A failure that a reconnection may mend: the connection went, not a limit or a broken protocol.
    static func isDrop(_ error: APIError) -> Bool {
        guard case .network(let failure) = error else { return false }
        switch failure {
        case .bodyTooLarge, .eventTooLarge, .protocolViolation, .inflatesTooMuch: return false
        default: return true
        }
    }
}

/// Passes a stream's bytes on and reads them as events: the last event id and `retry:` a
/// reconnection resumes with.
final class EventTracker: BodySink {
    private let inner: (any BodySink)?
    private let host: String
    private let state: Locked<(parser: SSEParser, lastEventID: String?)>

    package init(_ inner: (any BodySink)?, maxEvent: Int64, host: String) {
        (self.inner, self.host) = (inner, host)
        state = Locked((parser: SSEParser(maxEvent: maxEvent), lastEventID: String?.none))
    }

    var resume: (id: String?, retry: Int?) { state.withLock { ($0.lastEventID, $0.parser.retry) } }

    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        let overflow = state.withLock { s -> SSEParser.TooLarge? in
            do throws(SSEParser.TooLarge) {
                if let last = try s.parser.feed(bytes).last { s.lastEventID = last.lastEventID }
                return nil
            } catch {
                return error
            }
        }
        if let overflow { throw overflow.failure(host: host) }
        try inner?.write(bytes)
    }
}
