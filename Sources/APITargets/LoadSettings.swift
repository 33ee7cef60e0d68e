import APISupport
/// `load:` on a target (`weight:`, `thresholds:`) or in the project file (`thresholds:` for the
/// whole run): what `apicli load` reads from the files.
package struct LoadSettings: Sendable, Equatable {
    /// How often this target is picked relative to the others (default 1).
    package var weight: Int?
    package var thresholds: [LoadThreshold] = []

    package init(weight: Int? = nil, thresholds: [LoadThreshold] = []) {
        self.weight = weight
        self.thresholds = thresholds
    }

    package static let keys = ["weight", "thresholds"]
    package static let weights: ClosedRange<Int> = 1...1000
}

/// One pass/fail rule over a load run's measurements: `p95<=200ms`, `errors<1%`, `rps>=100`,
/// for one target (`target`) or the whole run (nil).
package struct LoadThreshold: Sendable, Equatable {
    package enum Metric: String, Sendable, CaseIterable {
        case p50, p90, p95, p99, p999 = "p99.9", max, mean, errors, rps
        package var isLatency: Bool { self != .errors && self != .rps }
    }

    package enum Comparison: String, Sendable, CaseIterable {
        case below = "<", atMost = "<=", above = ">", atLeast = ">="
        package func holds(_ measured: Double, _ limit: Double) -> Bool {
            switch self {
            case .below: return measured < limit
            case .atMost: return measured <= limit
            case .above: return measured > limit
            case .atLeast: return measured >= limit
            }
        }
    }

    /// `service.target`, or nil for the whole run.
    package var target: String?
    package var metric: Metric
    package var comparison: Comparison
    /// Seconds for latencies; a fraction (0.01) for `errors` with `%`, else a count; requests a second for `rps`.
    package var limit: Double
    package var percent: Bool
    /// Where it was written: `--threshold`, or `file:line:col`.
    package var source: String

    package init(target: String?, metric: Metric, comparison: Comparison, limit: Double, percent: Bool, source: String) {
        (self.target, self.metric, self.comparison, self.limit, self.percent, self.source) =
            (target, metric, comparison, limit, percent, source)
    }

    /// The rule as written back: `httpbin.get: p95 <= 200ms`.
    package var text: String {
        (target.map { "\($0): " } ?? "") + "\(metric.rawValue) \(comparison.rawValue) \(Self.format(limit, metric, percent: percent))"
    }

    package static func format(_ value: Double, _ metric: Metric, percent: Bool) -> String {
        if metric.isLatency { return Text.fixed(value * 1000, 2) + " ms" }
        if metric == .errors && percent { return Text.fixed(value * 100, 2) + "%" }
        return Text.fixed(value, metric == .rps ? 1 : 0)
    }

    /// `[service.target:]metric OP value` (`p99<500ms`, `httpbin.get:p95<=0.2s`, `errors<1%`, `rps>=100`).
    package static func parse(_ text: String, source: String) -> Result<LoadThreshold, ThresholdProblem> {
        var rest = Substring(text.filter { $0 != " " })
        var target: String?
        if let colon = rest.lastIndex(of: ":") {
            target = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
            if target!.isEmpty { return .failure(.init("no target before ':' in '\(text)'")) }
        }
        guard let opStart = rest.firstIndex(where: { "<>".contains($0) }) else {
            return .failure(.init("'\(text)' has no comparison; write metric<value, like p99<500ms or errors<1%"))
        }
        let name = String(rest[..<opStart])
        var afterOp = rest[opStart...]
        let op: Comparison = afterOp.hasPrefix("<=") ? .atMost : afterOp.hasPrefix(">=") ? .atLeast
            : afterOp.hasPrefix("<") ? .below : .above
        afterOp = afterOp.dropFirst(op.rawValue.count)
        guard let metric = Metric(rawValue: name) else {
            return .failure(.init("unknown metric '\(name)' in '\(text)'; use one of "
                                  + Metric.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        return value(String(afterOp), metric).map { limit, percent in
            LoadThreshold(target: target, metric: metric, comparison: op, limit: limit, percent: percent, source: source)
        }
    }

    /// The file form: `p95: 200ms` is `p95 <= 200ms`, `rps: 100` is `rps >= 100`.
    package static func file(metric name: String, value text: String, target: String?, source: String)
        -> Result<LoadThreshold, ThresholdProblem> {
        guard let metric = Metric(rawValue: name) else {
            return .failure(.init("unknown threshold '\(name)'; use one of " + Metric.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        return value(text, metric).map { limit, percent in
            LoadThreshold(target: target, metric: metric, comparison: metric == .rps ? .atLeast : .atMost, limit: limit,
                          percent: percent, source: source)
        }
    }

    package static let maxLatency = 3600.0

    /// A limit, range-checked: a latency with its unit (up to an hour), errors as `1%` (0-100) or a
    /// count, rps a positive number.
    package static func value(_ text: String, _ metric: Metric) -> Result<(Double, Bool), ThresholdProblem> {
        if metric.isLatency {
            guard text.hasSuffix("s") || text.hasSuffix("m"), let s = NodeReader.seconds(text), s.isFinite,
                  s > 0, s <= maxLatency else {
                return .failure(.init("\(metric.rawValue) takes a duration with its unit above 0 and up to 1h, like 200ms or 1.5s, not '\(text)'"))
            }
            return .success((s, false))
        }
        if metric == .errors {
            if text.hasSuffix("%") {
                guard let p = Double(text.dropLast()), p.isFinite, (0...100).contains(p) else {
                    return .failure(.init("errors takes a percentage from 0% to 100% or a count, not '\(text)'"))
                }
                return .success((p / 100, true))
            }
            guard let n = Int(text), n >= 0, n <= 1_000_000_000_000 else {
                return .failure(.init("errors takes a percentage (1%) or a whole number of requests, not '\(text)'"))
            }
            return .success((Double(n), false))
        }
        guard let r = Double(text.hasSuffix("/s") ? String(text.dropLast(2)) : text), r.isFinite, r > 0, r <= 10_000_000 else {
            return .failure(.init("rps takes requests a second above 0 and up to 10000000, not '\(text)'"))
        }
        return .success((r, false))
    }
}

package struct ThresholdProblem: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
