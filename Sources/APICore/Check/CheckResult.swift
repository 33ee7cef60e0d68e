/// What `apicli check` decided about one target (or, with `--stub`, one sample of a target).
public struct CheckResult: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        case passed, failed, skipped
    }

    /// Why a failed check failed: the exit code depends on it.
    public enum FailureKind: String, Sendable {
        /// The response broke an expectation (or `validate:`).
        case expectation
        /// No response: refused, DNS, TLS, reset, or a stubbed `error:`.
        case network
        case timeout
        /// The target could not be built: unresolved `{param}` or `${VAR}`, bad base URL.
        case invalid
    }

    /// One try at the request. `status` is nil when the try got no response.
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

    /// `service.target`, or `service.target[sample]` for a named sample under `--stub`.
    public var name: String
    public var service: String
    public var target: String
    public var sample: String?
    public var outcome: Outcome
    public var kind: FailureKind?
    /// Failed expectations or the error, first one first. For a sample with `expectFailure: true`
    /// that passed, the failures it was expected to have.
    public var messages: [String]
    /// A sample marked `expectFailure: true` that failed, as it should.
    public var failedAsExpected: Bool
    public var attempts: [Attempt]
    public var skipReason: String?
    /// Passed, but only on a retry: an earlier attempt failed (a 5xx or no response). Counted
    /// among the passed; `--fail-on-flaky` makes it fail the run.
    public var flaky: Bool = false

    public init(name: String, service: String, target: String, sample: String? = nil, outcome: Outcome,
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

    /// The last attempt's status and time.
    public var status: Int? { attempts.last?.status }
    public var duration: Double? { attempts.last?.duration }
}

/// Counts over a run.
public struct CheckSummary: Sendable, Equatable {
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    /// Passed on a retry (also counted in `passed`).
    public var flaky = 0
    /// The kinds of the failed checks.
    public var failureKinds: Set<CheckResult.FailureKind> = []

    public init(_ results: [CheckResult]) {
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
    public var line: String {
        "\(passed) passed, \(failed) failed" + (flaky > 0 ? ", \(flaky) flaky" : "") + (skipped > 0 ? ", \(skipped) skipped" : "")
    }
}
