import APISupport
/// Every failure the core reports; the executable maps each case to a documented exit code
/// (Sources/apicli/ExitCodes.swift), by way of its `kind`.
package enum APIError: Error, Sendable, Equatable {
    /// Bad target files, unknown targets, unresolved placeholders or variables (exit 2).
    case invalidInput([Diagnostic])
    /// The request did not get a (whole) response: refused, DNS, TLS, reset, … (exit 3).
    case network(NetworkFailure)
    /// No response within the timeout, in seconds (exit 4).
    case timedOut(Double)
    /// A stream (`text/event-stream`) was silent longer than its idle timeout, in seconds (exit 4).
    case idleTimeout(Double)
    /// A local file could not be written (exit 5).
    case output(String)
    /// A target this one `needs:` was not accepted, a capture found nothing, or no OAuth2 token could
    /// be had (exit 1). The message says which in its own words (`needs: …`, `the oauth2 token …`).
    case dependency(String)
    /// `until:`'s `failIf:` held: polling stopped on a terminal failure (exit 1).
    case stopped(String)

    package static func invalid(_ d: Diagnostic) -> APIError { .invalidInput([d]) }
}

/// Why something failed, as the reports and the exit codes see it: the one mapping from an
/// error (or a rejected response) to a class of failure.
package enum FailureKind: String, Sendable, CaseIterable {
    /// The response broke an expectation (or `validate:`), or `until:`'s `failIf:` held.
    case expectation
    /// No response: refused, DNS, TLS, reset, or a stubbed `error:`.
    case network
    case timeout
    /// The target could not be built: unresolved `{param}` or `${VAR}`, bad base URL.
    case invalid
    /// A target it `needs:` failed, or a capture found nothing, or no OAuth2 token.
    case dependency
    /// A local file could not be written.
    case output
}

extension APIError {
    /// The class of this failure: what picks the exit code.
    package var kind: FailureKind {
        switch self {
        case .network: return .network
        case .timedOut, .idleTimeout: return .timeout
        case .invalidInput: return .invalid
        case .output: return .output
        case .dependency: return .dependency
        case .stopped: return .expectation
        }
    }

    /// The error in one line, the same in every command and report: the first diagnostic of a
    /// target-file problem with its place (the executable prints all of them, with source lines).
    package var summary: String {
        switch self {
        case .network(let failure): return "network error: \(failure)"
        case .timedOut(let s): return "timed out after \(Text.duration(s))"
        case .idleTimeout(let s): return "the stream was idle for \(Text.duration(s)) (stream: { idle: }): no event came"
        case .output(let m), .dependency(let m), .stopped(let m): return m
        case .invalidInput(let diagnostics):
            guard let d = diagnostics.first else { return "invalid target" }
            let place = d.file.map { f in d.mark.map { "\(f):\($0.line):\($0.column): " } ?? "\(f): " } ?? ""
            return place + d.message
        }
    }
}
