import APITargets
/// Thresholds judged against a run's measurements.
package struct ThresholdResult: Sendable, Equatable {
    package var threshold: LoadThreshold
    /// nil when there is nothing to measure (no request of that target).
    package var measured: Double?
    package var passed: Bool

    /// `p95 <= 200.00 ms: 12.34 ms`.
    package var measuredText: String {
        measured.map { LoadThreshold.format($0, threshold.metric, percent: threshold.percent) } ?? "no requests"
    }
}

package enum LoadVerdict {
    package static func judge(_ thresholds: [LoadThreshold], _ result: LoadResult) -> [ThresholdResult] {
        thresholds.map { t in
            let stats = t.target.map { result.targets[$0] ?? LoadStats() } ?? result.overall
            let value = measure(t, stats, result)
            return ThresholdResult(threshold: t, measured: value, passed: value.map { t.comparison.holds($0, t.limit) } ?? false)
        }
    }

    static func measure(_ t: LoadThreshold, _ s: LoadStats, _ r: LoadResult) -> Double? {
        switch t.metric {
        case .rps: return r.throughput(s)
        case .errors:
            if !t.percent { return Double(s.errorCount) }
            return s.requests == 0 ? nil : Double(s.errorCount) / Double(s.requests)
        default:
            guard s.requests > 0 else { return nil }
            switch t.metric {
            case .p50: return s.latency.seconds(at: 50)
            case .p90: return s.latency.seconds(at: 90)
            case .p95: return s.latency.seconds(at: 95)
            case .p99: return s.latency.seconds(at: 99)
            case .p999: return s.latency.seconds(at: 99.9)
            case .mean: return s.latency.mean
            default: return s.latency.max
            }
        }
    }
}
