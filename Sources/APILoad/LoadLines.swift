import APISupport
import APIJSON
import APITargets

/// What finished in one second of a run: a line of `load --jsonl`.
package struct LoadLiveSecond: Sendable {
    package var requests: UInt64 = 0
    package var errors: [String: UInt64] = [:]
    package var bytes: UInt64 = 0
    /// At 1% (a coarse histogram): made once a second, not per request.
    package var latency = Latencies(coarse: true)

    package init() {}

    mutating func record(latency seconds: Double, bytes: Int, error: String?) {
        requests += 1
        self.bytes += UInt64(max(bytes, 0))
        latency.record(seconds: seconds)
        if let error { errors[error, default: 0] += 1 }
    }
}

/// `apicli load --jsonl`: one JSON object a line for each second of the run, with what finished in it.
/// Every request is in exactly one line, so the lines add up to the report's totals, and the lines of
/// shards started together (`--start-at`) add up second by second: counts by adding, latencies by
/// adding the lines' `histogram` buckets (`[[microseconds, count], …]`, as the JSON report's).
package enum LoadLines {
    /// `second`: from the run's start (0-based); `startedAt`: the start in Unix seconds; `inFlight`:
    /// requests with the transport as the line is written.
    package static func render(second: Int, _ s: LoadLiveSecond, startedAt: Double, shard: Shard?, inFlight: Int) -> String {
        let ms = { (seconds: Double) in JSONValue.number((seconds * 1e6).rounded() / 1000) }  // to the microsecond
        var members: [(String, JSONValue)] = [("second", .number(Double(second))), ("time", .number(startedAt + Double(second)))]
        if let shard {
            members.append(("shard", .object([("index", .number(Double(shard.index))), ("count", .number(Double(shard.count)))])))
        }
        members += [
            ("requests", .number(Double(s.requests))),
            ("errors", .number(Double(s.errors.values.reduce(0, +)))),
            ("errorKinds", .object(s.errors.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })),
            ("bytes", .number(Double(s.bytes))),
            ("inFlight", .number(Double(inFlight))),
            ("latencyMs", .object([("p50", ms(s.latency.seconds(at: 50))), ("p90", ms(s.latency.seconds(at: 90))),
                                   ("p95", ms(s.latency.seconds(at: 95))), ("p99", ms(s.latency.seconds(at: 99))),
                                   ("max", ms(s.latency.max)), ("mean", ms(s.latency.mean))])),
            ("histogram", LoadJSON.histogram(s.latency)),
        ]
        return JSONValue.object(members.map { ($0.0, $0.1) }).jsonText + "\n"
    }
}
