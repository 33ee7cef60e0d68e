import APISupport
import APIDiagnostics
import APISecrets
import APITargets
import APIEndpoint
import APIVerdict
import APISend
/// What `apicli check` decided about one target (or, with `--stub`, one sample of a target).
package struct CheckResult: Sendable, Equatable {
    package enum Outcome: String, Sendable {
        case passed, failed, skipped
    }

    /// Why a failed check failed: the exit code depends on it (`APIError.kind`).
    package typealias FailureKind = APIDiagnostics.FailureKind
    /// One try at the request.
    package typealias Attempt = APISend.Attempt

    /// The request a check sent (or, with `--stub`, would have sent): what the JSON report shows.
    package struct Request: Sendable, Equatable {
        package var method: String
        package var url: String
        /// After the plugins' `prepare` (auth included).
        package var headers: [HeaderField]
        /// Seconds.
        package var timeout: Double

        package init(_ request: PreparedRequest) {
            method = request.method
            url = request.url.absoluteString
            headers = request.headers
            timeout = request.timeout
        }
    }

    /// `service.target`, or `service.target[sample]` for a named sample under `--stub`.
    package var name: String
    package var service: String
    package var target: String
    package var sample: String?
    package var outcome: Outcome
    package var kind: FailureKind?
    /// Failed expectations or the error, first one first. For a sample with `expectFailure: true`
    /// that passed, the failures it was expected to have.
    package var messages: [String]
    /// A sample marked `expectFailure: true` that failed, as it should.
    package var failedAsExpected: Bool
    package var attempts: [Attempt]
    package var skipReason: String?
    /// Nil for a skipped check or a target that could not be built.
    package var request: Request?
    /// A network failure's kind (`refused`, `dns`, `tls`, …; `NetworkFailure.kind`) when `kind` is `.network`.
    package var networkFailure: String?
    /// `check --drift`: how the live response's shape differs from the sample's (`Drift`); nil
    /// when it was not compared (no `--drift`, no sample, or no response).
    package var drift: [String]? = nil
    /// Passed, but only on a retry: an earlier attempt failed (a 5xx or no response). Counted
    /// among the passed; `--fail-on-flaky` makes it fail the run.
    package var flaky: Bool = false

    package init(name: String, service: String, target: String, sample: String? = nil, outcome: Outcome,
                kind: FailureKind? = nil, messages: [String] = [], failedAsExpected: Bool = false,
                attempts: [Attempt] = [], skipReason: String? = nil) {
        self.name = name
        self.service = service
        self.target = target
        self.sample = sample
        self.outcome = outcome
        self.kind = kind
        self.messages = messages
        self.failedAsExpected = failedAsExpected
        self.attempts = attempts
        self.skipReason = skipReason
    }

    /// The result with every secret in its messages hidden, for reports.
    package func redacted(by redactor: Redactor) -> CheckResult {
        // Each list is made again only where the redactor changes something (a result per check,
        // thousands a run: most have no message, no attempt error and no header to hide).
        var out = self
        if !messages.isEmpty { out.messages = messages.map(redactor.text) }
        out.skipReason = skipReason.map(redactor.text)
        if let request {
            out.request!.url = redactor.url(request.url)
            for i in request.headers.indices {
                let shown = redactor.header(request.headers[i])
                if shown != request.headers[i] { out.request!.headers[i] = shown }
            }
        }
        for i in attempts.indices {
            if let error = attempts[i].error { out.attempts[i].error = redactor.text(error) }
        }
        return out
    }

    /// The last attempt's status and time.
    package var status: Int? { attempts.last?.status }
    package var duration: Double? { attempts.last?.duration }
}

/// Counts over a run.
package struct CheckSummary: Sendable, Equatable {
    package var passed = 0
    package var failed = 0
    package var skipped = 0
    /// Passed on a retry (also counted in `passed`).
    package var flaky = 0
    /// The kinds of the failed checks.
    package var failureKinds: Set<CheckResult.FailureKind> = []

    package init(_ results: [CheckResult]) {
        for r in results {
            switch r.outcome {
            case .passed:
                passed += 1
                if r.flaky { flaky += 1 }
            case .failed:
                failed += 1
                if let k = r.kind { failureKinds.insert(k) }
            case .skipped: skipped += 1
            }
        }
    }

    /// `N passed, N failed`, then `, N flaky` and `, N skipped` when any were.
    package var line: String {
        "\(passed) passed, \(failed) failed" + (flaky > 0 ? ", \(flaky) flaky" : "") + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
