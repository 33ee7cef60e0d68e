import APIDiagnostics
import APITargets
import APITransport
/// What `check` (live or `--stub`) and `validate` conclude from one exchange: passed or failed,
/// why, and of which kind. A pure function of the result and what the target expects.
package struct Verdict: Sendable, Equatable {
    package var passed: Bool
    /// Why it failed (nil when it passed): the exit code of `check` depends on it.
    package var kind: FailureKind?
    /// The failed expectations or the error; for a sample with `expectFailure: true` that failed
    /// as it should, the failures it was expected to have.
    package var messages: [String]
    /// A sample with `expectFailure: true` that failed, as it should.
    package var failedAsExpected: Bool

    /// Judges `result` by `expect:` (else `validation`). With `expectFailure`, failing is passing.
    package static func judge(_ result: Result<Response, APIError>, expect: Expectations?, validation: Validation,
                             expectFailure: Bool = false) -> Verdict {
        switch result {
        case .success(let response):
            return judge(failures: Judge.failures(expect, validation: validation, response: response), expectFailure: expectFailure)
        case .failure(let error):
            return judge([error.summary], error.kind, expectFailure: expectFailure)
        }
    }

    /// The verdict on an answer (not an error) that failed `failures` (`Judge.failures`).
    package static func judge(failures: [String], expectFailure: Bool) -> Verdict {
        judge(failures, failures.isEmpty ? nil : .expectation, expectFailure: expectFailure)
    }

    private static func judge(_ failures: [String], _ kind: FailureKind?, expectFailure: Bool) -> Verdict {
        guard expectFailure else {
            return Verdict(passed: failures.isEmpty, kind: kind, messages: failures, failedAsExpected: false)
        }
        if failures.isEmpty {
            return Verdict(passed: false, kind: .expectation,
                           messages: ["expectFailure: true, but the sample passed its expectations"], failedAsExpected: false)
        }
        return Verdict(passed: true, kind: nil, messages: failures, failedAsExpected: true)
    }
}
