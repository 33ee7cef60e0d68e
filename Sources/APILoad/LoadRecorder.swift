import APISupport
import APITargets
import APITransport
import APISend
/// Where a run's requests are counted as they finish, from many tasks at once; `snapshot()`
/// gives the result so far (progress, `--abort-on-fail`, Ctrl-C).
package final class LoadRecorder: Sendable {
    private struct State {
        var result = LoadResult()
        var requests: UInt64 = 0
        var errors: UInt64 = 0
        var overall = Latencies()
        /// The timeline's recent seconds, as histograms (a request counts in the second it was due
        /// in, so a slow one lands in a past second); older ones are kept as buckets only.
        var recent: [Int: Latencies] = [:]
        var newest = 0
        /// `--metrics`: the counters made so far.
        var metrics = LoadMetrics.Cache()
        /// `--jsonl`: what finished in each second not yet taken (`takeSeconds`), and the first such second.
        var finished: [Int: LoadLiveSecond] = [:]
        var taken = 0
    }

    /// Seconds behind the newest one that keep a histogram; a request due earlier that finishes
    /// now (a timeout) gets one again until the next second begins.
    static let recentSeconds = 2

    private let state: Locked<State>
    /// Monotonic seconds at the run's start.
    package let start: Double
    /// `--metrics`, `--jsonl`: what watches the run while it goes.
    package let watch: LoadWatch?

    init(names: [String], start: Double, template: LoadResult, watch: LoadWatch? = nil) {
        var s = State()
        s.result = template
        s.result.names = names
        for name in names { s.result.targets[name] = LoadStats() }
        state = Locked(s)
        self.start = start
        self.watch = watch
    }

    /// One request of `name` that started (or was due, in the open model) at `due` monotonic
    /// seconds and finished at `end`; `lag`: how late it started against its schedule.
    func record(_ name: String, due: Double, end: Double, error: String?, bytes: Int, lag: Double? = nil) {
        record(Entry(name: name, due: due, end: end, error: error, bytes: bytes, lag: lag, status: 0))
    }

    func record(_ entry: Entry) {
        state.withLock { apply(entry, to: &$0) }
    }

    /// One finished request, as `record` takes it.
    struct Entry {
        var name: String
        var due: Double
        var end: Double
        var error: String?
        var bytes: Int
        var lag: Double?
        /// The response's status; 0 without a response.
        var status: Int
    }

    /// Several at once, under one lock: a closed-model user's last few (`Batch`).
    func record(_ entries: [Entry]) {
        guard !entries.isEmpty else { return }
        state.withLock { s in
            for entry in entries { apply(entry, to: &s) }
        }
    }

    private func apply(_ e: Entry, to s: inout State) {
        let latency = e.end - e.due
        let second = max(0, Int(e.due - start))
        s.requests += 1
        // In place (the dictionary's `default:` accessor): a copy out and back would copy the
        // histogram's counts (about 200 KiB) on every request.
        s.result.targets[e.name, default: LoadStats()].record(latency: latency, bytes: e.bytes, error: e.error)
        if e.error != nil { s.errors += 1 }
        s.overall.record(seconds: latency)
        if second < 7 * 86_400 {
            while s.result.timeline.count <= second { s.result.timeline.append(LoadSecond()) }
            s.result.timeline[second].requests += 1
            if e.error != nil { s.result.timeline[second].errors += 1 }
            s.recent[second, default: Latencies(coarse: true)].record(seconds: latency)
            if second > s.newest {
                s.newest = second
                Self.settle(&s, before: second - Self.recentSeconds)
            }
        }
        if let lag = e.lag { s.result.lag.record(seconds: max(lag, 0)) }
        if let watch {
            watch.metrics?.record(e, cache: &s.metrics)
            if watch.seconds {
                // In the second it finished in; one that comes after its second was taken (a user's
                // batch held it), in the first one not taken yet: each request in one line.
                let k = max(Int(max(e.end - start, 0)), s.taken)
                s.finished[k, default: LoadLiveSecond()].record(latency: latency, bytes: e.bytes, error: e.error)
            }
        }
    }

    /// `--jsonl`: the seconds up to `last` (all that hold something, with nil) not taken before, each
    /// with what finished in it (an empty one for a second where nothing did).
    package func takeSeconds(through last: Int?) -> [(second: Int, finished: LoadLiveSecond)] {
        state.withLock { s in
            let end = last ?? (s.finished.keys.max() ?? s.taken - 1)
            guard end >= s.taken else { return [] }
            var seconds: [(second: Int, finished: LoadLiveSecond)] = []
            for k in s.taken...end { seconds.append((k, s.finished.removeValue(forKey: k) ?? LoadLiveSecond())) }
            s.taken = end + 1
            return seconds
        }
    }

    /// A closed-model user's finished requests, handed to the recorder a few at a time: one lock
    /// for up to `size` requests, not one per request taken by every loop thread in turn. Held at
    /// most `age` seconds (and not at all after a slow request), so progress lines, thresholds
    /// and the report when the run stops (`flush` as the user ends) see them all.
    struct Batch {
        static let size = 32
        static let age = 0.05
        private var entries: [Entry] = []
        private var since = 0.0

        mutating func add(_ entry: Entry, to recorder: LoadRecorder) {
            if entries.isEmpty {
                entries.reserveCapacity(Self.size)
                since = entry.end
            }
            entries.append(entry)
            if entries.count >= Self.size || entry.end - since >= Self.age || entry.end - entry.due >= Self.age / 5 {
                flush(to: recorder)
            }
        }

        mutating func flush(to recorder: LoadRecorder) {
            recorder.record(entries)
            entries.removeAll(keepingCapacity: true)
        }
    }

    /// The recent seconds before `second` kept as their buckets only.
    private static func settle(_ s: inout State, before second: Int) {
        for k in s.recent.keys.filter({ $0 < second }) {
            if let latencies = s.recent.removeValue(forKey: k) { s.result.timeline[k].add(latencies) }
        }
    }

    /// How many seconds of the timeline hold a histogram now (at most `recentSeconds` + 1, and
    /// those a late request reopened).
    var recentHistograms: Int { state.withLock { $0.recent.count } }

    func scheduled(_ n: UInt64) { state.withLock { $0.result.scheduled = n } }

    /// The result so far, `now` being monotonic seconds.
    package func snapshot(now: Double = monotonicSeconds()) -> LoadResult {
        var r = state.withLock { s in
            var r = s.result
            for (k, latencies) in s.recent { r.timeline[k].add(latencies) }
            return r
        }
        r.elapsed = now - start
        return r
    }

    /// Counts for a progress line, without copying histograms: requests, errors, p95 so far.
    package func progress(now: Double = monotonicSeconds()) -> LoadProgress {
        state.withLock { s in
            LoadProgress(elapsed: now - start, requests: s.requests, errors: s.errors, p95: s.overall.seconds(at: 95))
        }
    }
}

/// One progress line's numbers.
package struct LoadProgress: Sendable {
    package var elapsed: Double
    package var requests: UInt64
    package var errors: UInt64
    package var p95: Double
}
