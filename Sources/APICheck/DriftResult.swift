import APIVerdict
extension CheckResult {
    /// Adds drift differences: in `fail` mode they fail a check that passed (kind `expectation`),
    /// as `drift: …` messages; in `warn` mode they are only listed in `drift`.
    package mutating func apply(drift differences: [String], mode: Drift.Mode) {
        drift = differences
        guard mode == .fail, !differences.isEmpty, !failedAsExpected else { return }
        if outcome == .passed { (outcome, kind) = (.failed, .expectation) }
        messages += differences.map { "drift: \($0)" }
    }
}

extension TextReport {
    /// `--drift=warn`'s differences under a check's line (in `fail` mode they are its failures).
    package static func driftLines(_ r: CheckResult) -> String {
        (r.drift ?? []).filter { !r.messages.contains("drift: " + $0) }.map { "      drift: \($0)\n" }.joined()
    }
}
