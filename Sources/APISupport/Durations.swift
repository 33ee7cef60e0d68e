/// The one bound on durations from files and flags (`timeout:`, `delay:`, `until: every/within`,
/// `maxTime:`, `--timeout`): at most a day. Past it, a value like `1e20` would overflow the
/// nanosecond arithmetic of sleeps and deadlines; no real exchange waits that long.
package enum Durations {
    package static let maxSeconds: Double = 86_400

    /// Whether `seconds` may be used as a duration (`allowZero`: a `delay:` may be 0).
    package static func accepts(_ seconds: Double, allowZero: Bool) -> Bool {
        seconds.isFinite && seconds <= maxSeconds && (seconds > 0 || (allowZero && seconds == 0))
    }
}
