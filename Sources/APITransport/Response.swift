import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A response as received (or as a sample declares it).
package struct Response: Sendable {
    package var status: Int
    /// Sorted by name for live responses (URLSession does not keep wire order); declared order for stubs.
    package var headers: [HeaderField]
    package var body: Data
    /// Wall time from send to the whole body, in seconds.
    package var duration: Double
    /// Set when the body was streamed into a file (a download): `body` is empty then.
    package var saved: PartialFile?
    /// The body went to `Transfer.stream` as it came: `body` is empty.
    package var streamed = false
    /// `HTTP/1.1`, `HTTP/2`: what the server spoke.
    package var httpVersion: String
    /// A WebSocket conversation (`task: { websocket: }`, a `messages:` sample): the messages received, in order.
    package var messages: [ReceivedMessage]? = nil
    /// The close code the conversation ended with (nil: none was exchanged).
    package var closeCode: Int? = nil

    package init(status: Int, headers: [HeaderField], body: Data, duration: Double, httpVersion: String = "HTTP/1.1") {
        self.status = status
        self.headers = headers
        self.body = body
        self.duration = duration
        self.httpVersion = httpVersion
    }

    /// `HTTP/1.1 404 Not Found`, `HTTP/2 200 OK`.
    package var statusLine: String {
        let reason = HTTPStatus.reason(status)
        return "\(httpVersion) \(status)" + (reason.isEmpty ? "" : " \(reason)")
    }
}

package enum HTTPStatus {
    /// The RFC 9110 reason phrase for common codes, empty for others.
    package static func reason(_ code: Int) -> String {
        switch code {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 206: return "Partial Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 418: return "I'm a teapot"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return ""
        }
    }
}
