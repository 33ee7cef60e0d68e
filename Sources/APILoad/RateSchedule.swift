import APISupport
import APITargets
import APITransport
/// The open model's arrival rate over time: stages that go linearly from one rate to another
/// (`--ramp '0:100/s 10s, 100:500/s 30s'`), the last rate held after them (`--rate 500/s` is one
/// stage that holds). `time(of:)` is when the k-th request is due: arrivals are spaced evenly by
/// the rate at each moment (∫rate = k), so a run starts them on a schedule that does not depend
/// on how fast earlier requests came back.
package struct RateSchedule: Sendable, Equatable {
    package struct Stage: Sendable, Equatable {
        /// Requests a second at the stage's start and end.
        package var from: Double
        package var to: Double
        /// Seconds.
        package var duration: Double

        package init(from: Double, to: Double, duration: Double) {
            (self.from, self.to, self.duration) = (from, to, duration)
        }
    }

    package var stages: [Stage]
    /// The rate after the last stage.
    package var hold: Double

    package static let maxRate = 1_000_000.0
    package static let maxSeconds = Durations.maxSeconds

    package init(constant rate: Double) {
        stages = []
        hold = rate
    }

    package init(stages: [Stage]) {
        self.stages = stages
        hold = stages.last?.to ?? 0
    }

    /// Seconds the stages take (0 for a constant rate).
    package var rampSeconds: Double { stages.reduce(0) { $0 + $1.duration } }

    /// The rate asked for at `t` seconds.
    package func rate(at t: Double) -> Double {
        var start = 0.0
        for s in stages {
            if t < start + s.duration { return s.from + (s.to - s.from) * (t - start) / s.duration }
            start += s.duration
        }
        return hold
    }

    /// Requests due by `t` seconds (∫rate).
    package func expected(by t: Double) -> Double {
        var start = 0.0
        var n = 0.0
        for s in stages {
            let tau = min(max(t - start, 0), s.duration)
            n += s.from * tau + (s.to - s.from) * tau * tau / (2 * s.duration)
            if t < start + s.duration { return n }
            start += s.duration
        }
        return n + hold * max(t - start, 0)
    }

    /// When request `k` (0-based) is due: the `t` where k + 1 requests are due. nil when the rate
    /// falls to 0 for good before then.
    package func time(of k: Int) -> Double? {
        var need = Double(k) + 1
        var start = 0.0
        for s in stages {
            let total = (s.from + s.to) / 2 * s.duration
            if need <= total {
                let slope = (s.to - s.from) / s.duration
                if abs(slope) < 1e-12 { return start + need / s.from }
                // s.from·τ + slope·τ²/2 = need
                let disc = s.from * s.from + 2 * slope * need
                return start + (-s.from + max(disc, 0).squareRoot()) / slope
            }
            need -= total
            start += s.duration
        }
        return hold > 0 ? start + need / hold : nil
    }

    /// `500/s`, `30000/m` or a bare number (a second): requests a second, range-checked.
    package static func parseRate(_ text: String) -> Double? {
        let t = text.trimmingSpaces()
        let (number, scale): (Substring, Double) = t.hasSuffix("/s") ? (t.dropLast(2), 1)
            : t.hasSuffix("/m") ? (t.dropLast(2), 1.0 / 60) : (Substring(t), 1)
        guard let v = Double(number), v.isFinite, v >= 0 else { return nil }
        let rate = v * scale
        return rate <= maxRate ? rate : nil
    }

    /// `0:100/s 10s, 100:500/s 30s`: each stage `from:to duration` (rates as `parseRate`, the
    /// first rate's unit taken from the second when left out).
    package static func parseRamp(_ text: String) -> Result<RateSchedule, ThresholdProblem> {
        var stages: [Stage] = []
        for part in text.split(separator: ",") {
            let words = part.split(separator: " ").map(String.init)
            let example = "write stages like '0:100/s 10s, 100:500/s 30s'"
            guard words.count == 2 else { return .failure(.init("ramp stage '\(part.trimmingSpaces())' is not 'from:to duration'; \(example)")) }
            let rates = words[0].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard rates.count == 2 else { return .failure(.init("ramp stage '\(words[0])' is not 'from:to'; \(example)")) }
            let unit = rates[1].hasSuffix("/m") ? "/m" : rates[1].hasSuffix("/s") ? "/s" : ""
            let fromText = rates[0].contains("/") ? rates[0] : rates[0] + unit
            guard let from = parseRate(fromText), let to = parseRate(rates[1]) else {
                return .failure(.init("ramp stage '\(words[0])': rates are 0 to \(Int(maxRate)) a second, like 100/s; \(example)"))
            }
            guard let d = NodeReader.seconds(words[1]), d.isFinite, d > 0, d <= maxSeconds else {
                return .failure(.init("ramp stage duration '\(words[1])' must be above 0 and at most a day, like 10s or 2m"))
            }
            stages.append(Stage(from: from, to: to, duration: d))
        }
        guard !stages.isEmpty else { return .failure(.init("--ramp is empty; write stages like '0:100/s 10s, 100:500/s 30s'")) }
        guard stages.contains(where: { $0.from > 0 || $0.to > 0 }) else {
            return .failure(.init("--ramp never rises above 0 requests a second"))
        }
        return .success(RateSchedule(stages: stages))
    }
}
