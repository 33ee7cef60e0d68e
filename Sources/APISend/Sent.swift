import APIDiagnostics
import APIEndpoint
import APITransport
/// One try at a request. `status` is nil when the try got no response.
package struct Attempt: Sendable, Equatable {
    package var status: Int?
    /// Seconds.
    package var duration: Double
    package var error: String?

    package init(status: Int?, duration: Double, error: String?) {
        self.status = status
        self.duration = duration
        self.error = error
    }
}

/// A target's request as the `Caller` sent it: the request (after the plugins), the final
/// response (or why there is none) and every attempt (retries, `until:` polls).
package struct Sent: Sendable {
    package var request: PreparedRequest
    package var last: Result<Response, APIError>
    package var attempts: [Attempt]

    package init(request: PreparedRequest, last: Result<Response, APIError>, attempts: [Attempt]) {
        self.request = request
        self.last = last
        self.attempts = attempts
    }

    /// The final response, or the error that ended the send.
    package func response() throws(APIError) -> Response { try last.get() }

}
