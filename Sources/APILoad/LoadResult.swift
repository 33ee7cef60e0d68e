import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APISend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// What a load run measured: per target and over the whole run, second by second, and for the
/// open model how late requests started against their schedule.
package struct LoadResult: Sendable, Equatable {
    /// `service.target` in the order the run selected them.
    package var names: [String] = []
    package var targets: [String: LoadStats] = [:]
    package var timeline: [LoadSecond] = []
    /// Open model: each request's start minus its scheduled start.
    package var lag = Latencies()
    /// Seconds from the (common) start to the last response.
    package var elapsed: Double = 0
    /// `closed`, or `open`.
    package var model: String = ""
    /// In words: `4 users, think 100 ms` or `500/s`, `ramp 0:100/s 10s, …`.
    package var load: String = ""
    /// Open model: requests the schedule asked for in the run (those it started plus those it could not).
    package var scheduled: UInt64 = 0
    /// Stopped by Ctrl-C (or `--abort-on-fail`) before its end.
    package var stopped: String? = nil
    package var thresholds: [LoadThreshold] = []
    /// Which shard this is, or how many shards were merged.
    package var shard: Shard? = nil
    package var merged: Int = 0
    /// Unix seconds of the start (`--start-at`, or when it began).
    package var startedAt: Double = 0

    package init() {}

    package var overall: LoadStats {
        var all = LoadStats()
        for name in names { if let s = targets[name] { all.add(s) } }
        return all
    }

    /// Requests a second over the run.
    package func throughput(_ stats: LoadStats) -> Double { elapsed > 0 ? Double(stats.requests) / elapsed : 0 }

    /// Adds another shard's measurements (the same targets and thresholds).
    package mutating func add(_ other: LoadResult) {
        for name in other.names where !names.contains(name) { names.append(name) }
        for (name, s) in other.targets { targets[name, default: LoadStats()].add(s) }
        if timeline.count < other.timeline.count {
            timeline += Array(repeating: LoadSecond(), count: other.timeline.count - timeline.count)
        }
        for (i, s) in other.timeline.enumerated() { timeline[i].add(s) }
        lag.add(other.lag)
        elapsed = max(elapsed, other.elapsed)
        scheduled += other.scheduled
        stopped = stopped ?? other.stopped
        startedAt = startedAt == 0 ? other.startedAt : min(startedAt, other.startedAt)
    }

    /// Requests that started more than `LoadResult.lateAfter` behind their schedule.
    package var late: UInt64 {
        let limit = UInt64(Self.lateAfter * 1e6)
        return lag.histogram.recordedValues().filter { $0.value > limit }.reduce(0) { $0 + UInt64($1.count) }
    }

    /// How late a start may be before the run counts as behind its schedule.
    package static let lateAfter = 0.010
}

/// The outcome of one request, as a load run counts it: nil when it succeeded (a response below
/// 400), else its error kind.
package enum LoadOutcome {
    package static func errorKind(_ sent: Sent) -> String? {
        switch sent.last {
        case .success(let r):
            if refusedRedirect(r, sent.request) { return "redirect:refused" }
            return r.status >= 400 ? "\(r.status / 100)xx" : nil
        case .failure(let e): return errorKind(e)
        }
    }

    /// A redirect the run's guard did not follow (`RunSettings.redirectScope`): the 3xx is not the
    /// answer the run asked for, it is a refusal to go to a host out of scope.
    static func refusedRedirect(_ response: Response, _ request: PreparedRequest) -> Bool {
        // The status first (compared, not hashed): a run's every answer comes here, and few are redirects.
        guard Redirect.isRedirect(response.status), let scope = request.redirectScope, request.followRedirects,
              let location = response.headers.value(of: "Location"),
              let url = URL(string: location, relativeTo: request.url)?.absoluteURL else { return false }
        return !scope.allows(url, socket: request.socket)
    }

    package static func errorKind(_ error: APIError) -> String {
        switch error {
        case .timedOut: return "timeout"
        case .network(let f): return "network:" + f.kind
        default: return error.kind.rawValue
        }
    }
}
