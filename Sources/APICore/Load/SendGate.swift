#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The open model's requests to one HTTP/1.1 origin that are with the transport at once: at most
/// twice the connections it keeps per host (async-http-client's limit, 8 unless raised), the rest
/// wait their turn in the open model (first come, first served).
///
/// Why: HTTP/1.1 sends one request a connection, so the others would wait in the transport's
/// queue anyway — but there each holds its task's whole send path (Caller → Sender → retries →
/// Exchange → transport → async-http-client: ~55 KB of async frames, ~70 KB a request with the
/// client's own state, measured), while at the gate it holds a few KB. A machine that stalls for
/// 50 ms at 5,000/s leaves 250 requests due at once: ~17 MB at the old cost, a peak RSS that a
/// longer run was likelier to reach (issue 22: memory flat in the run's duration). Twice the
/// connections keep every connection's next request ready. HTTP/2 (TLS without `--http1.1`),
/// h2c, sockets and WebSockets are not gated: their concurrency is not the connection count.
enum SendGate {
    /// A gate per call (nil: not gated), one per origin shared by the calls that go to it.
    static func gates(for calls: [PreparedCall]) -> [InFlightSlots?] {
        let options = ConnectionOptions.run.current
        let limit = 2 * max(options.connectionsPerHost, 1)
        var byOrigin: [String: InFlightSlots] = [:]
        return calls.map { call in
            guard let origin = origin(call.request, options) else { return nil }
            if let gate = byOrigin[origin] { return gate }
            let gate = InFlightSlots(limit: limit)
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
