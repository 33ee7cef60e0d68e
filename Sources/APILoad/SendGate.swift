import APISupport
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore

/// The open model's requests to one HTTP/1.1 origin: at most `limit` (twice the connections kept
/// per host: async-http-client's limit, 8 unless raised) are with the transport at once, each in a
/// task of its own; the others wait here as a few bytes each, first come first served, and a task
/// whose request is done sends the next one waiting.
///
/// Why: HTTP/1.1 sends one request a connection, so the others would wait in the transport's
/// queue anyway — but there each holds a task with its whole send path (Caller → Sender → retries
/// → Exchange → transport → async-http-client: ~55 KB of async frames, ~70 KB a request with the
/// client's own state, measured), and even a task waiting at a gate holds several KB. A machine
/// that stalls at 5,000/s leaves hundreds of requests due at once, up to `--max-in-flight`: tens of
/// MB of peak RSS that a longer run was likelier to reach (issue 22: memory flat in the run's
/// duration). Twice the connections keep every connection's next request ready. HTTP/2 (TLS
/// without `--http1.1`), h2c, sockets and WebSockets are not gated: their concurrency is not the
/// connection count.
final class SendGate: Sendable {
    /// A request waiting: the call's index, the time its latency counts from, its start lag.
    struct Pending: Sendable {
        var item: Int
        var from: Double
        var lag: Double
    }

    private struct State {
        var running = 0
        /// Not empty only while `running == limit`.
        var waiting = CircularBuffer<Pending>()  // first come, first served
    }
    private let state = Locked(State())
    let limit: Int

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// True: send `request` now, in a task of its own (and then `next()`); false: it waits, and
    /// a running task will send it.
    func submit(_ request: Pending) -> Bool {
        state.withLock { s in
            if s.running < limit {
                s.running += 1
                return true
            }
            s.waiting.append(request)
            return false
        }
    }

    /// For a task whose request is done: the next one waiting, or nil (the task ends).
    func next() -> Pending? {
        state.withLock { s in
            guard let p = s.waiting.popFirst() else {
                s.running -= 1
                return nil
            }
            return p
        }
    }

    var running: Int { state.withLock { $0.running } }
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// A gate per call (nil: not gated), one per origin shared by the calls that go to it.
    /// `options`: the run's (`RunSettings.connection`), whose connections per host the gate admits twice over.
    static func gates(for calls: [PreparedCall], _ options: ConnectionOptions) -> [SendGate?] {
        let limit = 2 * max(options.connectionsPerHost, 1)
        var byOrigin: [String: SendGate] = [:]
        return calls.map { call in
            guard let origin = origin(call.request, options) else { return nil }
            if let gate = byOrigin[origin] { return gate }
            let gate = SendGate(limit: limit)
            byOrigin[origin] = gate
            return gate
        }
    }

    /// `scheme://host:port` of a request that async-http-client sends over HTTP/1.1; else nil.
    static func origin(_ request: PreparedRequest, _ options: ConnectionOptions) -> String? {
        guard request.socket == nil, options.unixSocket == nil, !request.http2PriorKnowledge,
              request.websocket == nil, let scheme = request.url.scheme?.lowercased(), let host = request.url.host
        else { return nil }
        switch scheme {
        case "http": break
        case "https" where options.http1Only: break
        default: return nil
        }
        let port = request.url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host.lowercased()):\(port)"
    }
}
