/// One try at a request. `status` is nil when the try got no response.
public struct Attempt: Sendable, Equatable {
    public var status: Int?
    /// Seconds.
    public var duration: Double
    public var error: String?

    public init(status: Int?, duration: Double, error: String?) {
        self.status = status
        self.duration = duration
        self.error = error
    }
}

/// A target's request as the `Caller` sent it: the request (after the plugins), the final
/// response (or why there is none) and every attempt (retries, `until:` polls).
public struct Sent: Sendable {
    public var request: PreparedRequest
    public var last: Result<Response, APIError>
    public var attempts: [Attempt]

    public init(request: PreparedRequest, last: Result<Response, APIError>, attempts: [Attempt]) {
        self.request = request
        self.last = last
        self.attempts = attempts
    }

    /// The final response, or the error that ended the send.
    public func response() throws(APIError) -> Response { try last.get() }

}
