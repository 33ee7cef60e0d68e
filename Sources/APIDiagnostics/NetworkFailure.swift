/// Why an exchange got no (whole) response, as data: the transports return one of these, never a
/// sentence, and `description` is the one place that words them — so every transport says the
/// same thing for the same fault, and `check`'s JSON report carries `kind`.
package enum NetworkFailure: Sendable, Equatable, CustomStringConvertible {
    /// `host` is `name:port` as the URL names it.
    case refused(host: String)
    case dns(host: String)
    /// The handshake failed; `reason` in words, with what to do about it; `detail`: the TLS
    /// library's own error (shown with `-v` only).
    case tls(host: String, reason: String, detail: String? = nil)
    /// The connection was reset or closed before a response head.
    case reset(host: String)
    /// The body ended early; the byte counts when known.
    case truncated(host: String, expected: Int64?, received: Int64?)
    case tooManyRedirects(host: String)
    case headTooLarge(host: String)
    case malformedStatusLine(host: String)
    case malformedResponse(host: String, detail: String?)
    /// A gzip or deflate body that does not decode.
    case undecodable(host: String)
    case cancelled(host: String)
    /// More body than `maxBody` to hold in memory.
    case bodyTooLarge(host: String, limit: Int64)
    /// A compressed body that inflates beyond `ratio` times its size (a decompression bomb).
    case inflatesTooMuch(host: String, ratio: Int)
    /// The server broke its protocol or flooded the connection (an HTTP/2 flood of control frames,
    /// a WebSocket frame RFC 6455 forbids); `reason` says how, as a sentence's predicate; `detail`:
    /// the library's own error (shown with `-v` only).
    case protocolViolation(host: String, reason: String, detail: String? = nil)
    /// An event-stream line or event larger than the limit (`--max-event-size`, `stream: { maxEventSize: }`).
    case eventTooLarge(host: String, line: Bool, limit: Int64)
    /// More WebSocket messages than a conversation keeps (`WebSocketTask.maxMessages`).
    case tooManyMessages(host: String, limit: Int)
    case offline
    /// A sample's `error:` (what a stub answers instead of a response).
    case stubbed(String)
    /// A fault no case above names: the transport's own words.
    case other(String)
    /// A fault of the transport no case above names: `detail` is its own error, shown with `-v` only.
    case failed(host: String, detail: String)

    /// A short, stable name for reports: `refused`, `dns`, `tls`, ….
    package var kind: String {
        switch self {
        case .refused: return "refused"
        case .dns: return "dns"
        case .tls: return "tls"
        case .reset: return "reset"
        case .truncated: return "truncated"
        case .tooManyRedirects: return "redirects"
        case .headTooLarge: return "headTooLarge"
        case .malformedStatusLine, .malformedResponse: return "malformed"
        case .undecodable: return "undecodable"
        case .cancelled: return "cancelled"
        case .bodyTooLarge: return "bodyTooLarge"
        case .inflatesTooMuch: return "inflatesTooMuch"
        case .protocolViolation: return "protocol"
        case .eventTooLarge: return "eventTooLarge"
        case .tooManyMessages: return "tooManyMessages"
        case .offline: return "offline"
        case .stubbed: return "stubbed"
        case .other, .failed: return "other"
        }
    }

    /// The library's own words for the fault (its type names), for `-v`: nil when the
    /// description already says all there is.
    package var detail: String? {
        switch self {
        case .tls(_, _, let detail): return detail
        case .failed(_, let detail): return detail
        case .protocolViolation(_, _, let detail): return detail
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .refused(let host): return "cannot connect to \(host) (connection refused)"
        case .dns(let host): return "cannot resolve host \(host)"
        case .tls(let host, let reason, _): return "TLS handshake with \(host) failed: \(reason)"
        case .reset(let host): return "the connection to \(host) was lost"
        case .truncated(let host, let expected, let received):
            let counts = expected.map { e in " (received \(received ?? 0) of \(e) bytes)" } ?? ""
            return "\(host) closed the connection before the body was complete" + counts
        case .tooManyRedirects(let host): return "too many redirects from \(host)"
        case .headTooLarge(let host): return "the response head from \(host) is too large"
        case .malformedStatusLine(let host): return "\(host) sent a malformed status line"
        case .malformedResponse(let host, let detail): return "\(host) sent a malformed response" + (detail.map { " (\($0))" } ?? "")
        case .undecodable(let host): return "\(host) sent a compressed body that does not decode"
        case .cancelled(let host): return "the request to \(host) was cancelled"
        case .bodyTooLarge(let host, let limit):
            return "the response from \(host) is larger than \(limit) bytes (--max-body)"
        case .inflatesTooMuch(let host, let ratio):
            return "the response from \(host) inflates beyond \(ratio) times its compressed size"
        case .protocolViolation(let host, let reason, _): return "\(host) \(reason)"
        case .eventTooLarge(let host, let line, let limit):
            return (line ? "an event-stream line from \(host) is longer than" : "an event from \(host) is larger than")
                + " \(limit) bytes (--max-event-size, or stream: { maxEventSize: } in the target)"
        case .tooManyMessages(let host, let limit):
            return "\(host) sent more than \(limit) WebSocket messages, the most one conversation keeps "
                + "(close: { after: N } ends it sooner)"
        case .offline: return "not connected to a network"
        case .stubbed(let text), .other(let text): return text
        case .failed(let host, _): return "the exchange with \(host) failed (-v shows the transport's own error)"
        }
    }
}
