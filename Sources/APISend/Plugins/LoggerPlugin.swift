import APIDiagnostics
import APISecrets
import APITargets
import APIEndpoint
import APITransport
/// `-v` and `-vv`: the request as sent (`> …`), then the response head with the time (`< …`);
/// at `.bodies`, also the body of a response the validation rejects. It never prints: each block
/// of text goes to `sink`, which the executable points at stderr.
package struct LoggerPlugin: Plugin {
    package enum Level: Int, Sendable, Comparable {
        /// `-v`: request line, headers and body; response status, headers, time.
        case heads = 1
        /// `-vv`: also the response body when the response is rejected.
        case bodies = 2

        package static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    package var level: Level
    package var redactor: Redactor
    /// Decides which responses are errors, for `.bodies`.
    package var validation: Validation
    package var sink: @Sendable (String) -> Void

    package init(level: Level, redactor: Redactor, validation: Validation, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.redactor = redactor
        self.validation = validation
        self.sink = sink
    }

    package func willSend(_ request: PreparedRequest) {
        sink(LogFormat.request(request, redactor: redactor))
    }

    package func didReceive(_ result: Result<Response, APIError>, for request: PreparedRequest) {
        if case .failure(.network(let failure)) = result, let detail = failure.detail {
            // The transport's own error (its type names): only here, never in the one-line message.
            sink("* \(failure.kind): \(redactor.text(detail))\n")
        }
        guard case .success(let response) = result else { return }
        var text = LogFormat.responseHead(response, redactor: redactor, prefix: "< ", time: true)
        if level >= .bodies, !validation.accepts(response.status) {
            text += LogFormat.responseBody(response, redactor: redactor)
        }
        sink(text)
    }
}
