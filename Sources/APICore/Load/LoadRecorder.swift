/// Where a run's requests are counted as they finish, from many tasks at once; `snapshot()`
/// gives the result so far (progress, `--abort-on-fail`, Ctrl-C).
public final class LoadRecorder: Sendable {
    private struct State {
        var result = LoadResult()
        var requests: UInt64 = 0
        var errors: UInt64 = 0
        var overall = Latencies()
    }

    private let state: Locked<State>
    /// Monotonic seconds at the run's start.
    let start: Double

    init(names: [String], start: Double, template: LoadResult) {
        var s = State()
        s.result = template
        s.result.names = names
        for name in names { s.result.targets[name] = LoadStats() }
        state = Locked(s)
        self.start = start
    }

    /// One request of `name` that started (or was due, in the open model) at `due` monotonic
    /// seconds and finished at `end`; `lag`: how late it started against its schedule.
    func record(_ name: String, due: Double, end: Double, error: String?, bytes: Int, lag: Double? = nil) {
        let latency = end - due
        let second = max(0, Int(due - start))
        state.withLock { s in
            s.requests += 1
            // In place (the dictionary's `default:` accessor): a copy out and back would copy the
            // histogram's counts (about 200 KiB) on every request.
            s.result.targets[name, default: LoadStats()].record(latency: latency, bytes: bytes, error: error)
            if error != nil { s.errors += 1 }
            s.overall.record(seconds: latency)
            if second < 7 * 86_400 {
                while s.result.timeline.count <= second { s.result.timeline.append(LoadSecond()) }
                s.result.timeline[second].requests += 1
                if error != nil { s.result.timeline[second].errors += 1 }
                s.result.timeline[second].latency.record(seconds: latency)
            }
            if let lag { s.result.lag.record(seconds: max(lag, 0)) }
        }
    }

    func scheduled(_ n: UInt64) { state.withLock { $0.result.scheduled = n } }

    /// The result so far, `now` being monotonic seconds.
    public func snapshot(now: Double = monotonicSeconds()) -> LoadResult {
        var r = state.withLock { $0.result }
        r.elapsed = now - start
        return r
    }

    /// Counts for a progress line, without copying histograms: requests, errors, p95 so far.
    public func progress(now: Double = monotonicSeconds()) -> LoadProgress {
        state.withLock { s in
            LoadProgress(elapsed: now - start, requests: s.requests, errors: s.errors, p95: s.overall.seconds(at: 95))
        }
    }
}

/// One progress line's numbers.
public struct LoadProgress: Sendable {
    public var elapsed: Double
    public var requests: UInt64
    public var errors: UInt64
    public var p95: Double
}
