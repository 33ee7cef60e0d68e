import APIYAML
import APIJSON
/// A canned response for stubbed calls: Moya's `sampleData` plus its `EndpointSampleResponse` cases.
package struct Sample: Sendable {
    package enum Body: Sendable {
        case text(Template)
        case json(Value)
        /// Absolute path, resolved against the target file's folder.
        case file(String, mark: Mark)
    }

    package var status: Int
    package var headers: [Header]
    package var body: Body?
    /// Set: the stub fails as a network error with this message (Moya's `.networkError`).
    package var error: String?
    /// Seconds to wait before answering (Moya's `StubBehavior.delayed`).
    package var delay: Double
    package var mark: Mark
    /// `expectFailure: true`: this sample shows a failure, so `check --stub` expects it to fail the expectations.
    package var expectFailure = false
    /// `masked:`: JSONPaths whose recorded values were replaced (`record --mask`); drift skips them.
    package var masked: [String] = []
    /// `events:`: a Server-Sent Events answer (`text/event-stream`), sent one event at a time.
    package var events: [Sample.Event]?
    /// `messages:`: a WebSocket answer (`apicli mock` upgrades the connection and sends them).
    package var messages: [Sample.Message]?

    package init(status: Int = 200, headers: [Header] = [], body: Body? = nil, error: String? = nil,
                delay: Double = 0, mark: Mark) {
        self.status = status
        self.headers = headers
        self.body = body
        self.error = error
        self.delay = delay
        self.mark = mark
    }
}
