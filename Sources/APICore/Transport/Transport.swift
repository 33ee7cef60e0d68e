import Foundation

/// Sends a prepared request and returns the response. Live and stubbed calls go through the same
/// protocol, so everything after it (validation, output, exit codes) behaves the same.
public protocol Transport: Sendable {
    func send(_ request: PreparedRequest) async throws(APIError) -> Response
    /// Sends with the body received into `transfer.destination` (when set) and progress reported
    /// as bytes move. Default: `send(_:)`, then the body written to the destination.
    func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response
}

extension Transport {
    public func send(_ request: PreparedRequest, transfer: Transfer) async throws(APIError) -> Response {
        var response = try await send(request)
        if let destination = transfer.destination {
            try destination.write(response.body)
            response.body = Data()
            response.saved = destination
        }
        return response
    }
}

/// How one exchange moves its bytes: where the response body goes and who hears about progress.
public struct Transfer: Sendable {
    /// Set: the body is streamed into this file (a download); the response's `body` stays empty.
    public var destination: PartialFile?
    /// Called as bytes go out and come in, from any thread.
    public var progress: @Sendable (TransferProgress) -> Void

    public init(destination: PartialFile? = nil, progress: @escaping @Sendable (TransferProgress) -> Void = { _ in }) {
        self.destination = destination
        self.progress = progress
    }
}

/// Bytes moved so far in one direction.
public struct TransferProgress: Sendable, Equatable {
    public enum Direction: Sendable, Equatable {
        /// The request body.
        case upload
        /// The response body.
        case download
    }

    public var direction: Direction
    public var bytes: Int64
    /// When known: the request body's length, the response's Content-Length.
    public var total: Int64?

    public init(_ direction: Direction, bytes: Int64, total: Int64?) {
        self.direction = direction
        self.bytes = bytes
        self.total = total
    }
}

/// A response as received (or as a sample declares it).
public struct Response: Sendable {
    public var status: Int
    /// Sorted by name for live responses (URLSession does not keep wire order); declared order for stubs.
    public var headers: [HeaderField]
    public var body: Data
    /// Wall time from send to the whole body, in seconds.
    public var duration: Double
    /// Set when the body was streamed into a file (a download): `body` is empty then.
    public var saved: PartialFile?

    public init(status: Int, headers: [HeaderField], body: Data, duration: Double) {
        self.status = status
        self.headers = headers
        self.body = body
        self.duration = duration
    }

    /// `HTTP/1.1 404 Not Found`.
    public var statusLine: String {
        let reason = HTTPStatus.reason(status)
        return "HTTP/1.1 \(status)" + (reason.isEmpty ? "" : " \(reason)")
    }
}

public enum HTTPStatus {
    /// The RFC 9110 reason phrase for common codes, empty for others.
    public static func reason(_ code: Int) -> String {
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
