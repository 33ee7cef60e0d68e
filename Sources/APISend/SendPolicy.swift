import APISupport
import APITransport
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How often and how patiently the `Caller` sends one request: `--retries`, the backoff between
/// attempts and the longest wait. The same for `call`, `record`, `check` and the targets they need.
package struct SendPolicy: Sendable {
    /// Extra attempts after a network failure or a 5xx (never after a timeout, never for stubs).
    package var retries: Int
    /// Seconds before the first retry; doubled for each next one. A `Retry-After` wins.
    package var backoff: Double
    /// The longest wait between attempts, whatever `Retry-After` says.
    package var maxWait: Double

    /// The most `--retries` takes: enough for any real flakiness, and the backoff stays finite.
    package static let maxRetries = 100

    package init(retries: Int = 0, backoff: Double = 0.5, maxWait: Double = 30) {
        self.retries = min(max(retries, 0), Self.maxRetries)
        self.backoff = backoff
        self.maxWait = maxWait
    }

    /// The wait before retry `n` (0-based): `Retry-After` when the response gave one, else the
    /// backoff doubled per retry; never more than `maxWait`.
    func wait(before n: Int, retryAfter: Double?) -> Double {
        min(retryAfter ?? backoff * Double(1 << min(n, 30)), maxWait)
    }

    /// `Retry-After` as seconds from `now`: delta-seconds (`120`) or an HTTP-date; nil when unreadable.
    package static func retryAfter(_ value: String, now: Date) -> Double? {
        let text = value.trimmingSpaces()
        if let seconds = Double(text), seconds >= 0, seconds.isFinite { return seconds }
        guard let date = HTTPDate.parse(text) else { return nil }
        return max(0, date - now.timeIntervalSince1970)
    }
}

