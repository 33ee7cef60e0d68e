import APISupport
import APIJSON
import APIDiagnostics
import APISchema
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `apicli load --json`: the measurements with every histogram as its buckets
/// (`[[microseconds, count], …]`), so that `apicli report merge` adds shards up exactly.
package enum LoadJSON {
    package static let kind = "apicli-load"
    package static let version = 1

    package static func render(_ r: LoadResult) -> String {
        let judged = LoadVerdict.judge(r.thresholds, r)
        var members: [(String, JSONValue)] = [
            ("kind", .string(kind)), ("version", .number(Double(version))),
            ("model", .string(r.model)), ("load", .string(r.load)),
            ("startedAt", .number(r.startedAt)), ("elapsed", .number(r.elapsed)),
            ("scheduled", .number(Double(r.scheduled))),
            ("targets", .array(r.names.map { name in
                .object([("name", .string(name))] + stats(r.targets[name] ?? LoadStats(), r))
            })),
            ("overall", .object(stats(r.overall, r))),
            ("lag", histogram(r.lag)),
            ("timeline", .array(r.timeline.map { s in
                .object([("requests", .number(Double(s.requests))), ("errors", .number(Double(s.errors))),
                         ("histogram", histogram(s.latency))])
            })),
            ("thresholds", .array(judged.map { j in
                .object([("target", j.threshold.target.map(JSONValue.string) ?? .null),
                         ("metric", .string(j.threshold.metric.rawValue)),
                         ("comparison", .string(j.threshold.comparison.rawValue)),
                         ("limit", .number(j.threshold.limit)), ("percent", .bool(j.threshold.percent)),
                         ("source", .string(j.threshold.source)),
                         ("measured", j.measured.map(JSONValue.number) ?? .null), ("passed", .bool(j.passed))])
            })),
        ]
        if let stopped = r.stopped { members.append(("stopped", .string(stopped))) }
        if let shard = r.shard {
            members.append(("shard", .object([("index", .number(Double(shard.index))), ("count", .number(Double(shard.count)))])))
        }
        if r.merged > 0 { members.append(("merged", .number(Double(r.merged)))) }
        return JSONValue.object(members.map { ($0.0, $0.1) }).jsonText + "\n"
    }

    private static func stats(_ s: LoadStats, _ r: LoadResult) -> [(key: String, value: JSONValue)] {
        let ms = { (p: Double) in JSONValue.number(s.latency.seconds(at: p) * 1000) }
        return [("requests", .number(Double(s.requests))), ("bytes", .number(Double(s.bytes))),
                ("throughput", .number(r.throughput(s))),
                ("errors", .object(s.errors.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })),
                ("latencyMs", .object([("p50", ms(50)), ("p90", ms(90)), ("p95", ms(95)), ("p99", ms(99)),
                                       ("p99.9", ms(99.9)), ("max", .number(s.latency.max * 1000)),
                                       ("mean", .number(s.latency.mean * 1000))])),
                ("histogram", histogram(s.latency))]
    }

    package static func histogram(_ l: Latencies) -> JSONValue {
        .array(l.buckets.map { .array([.number(Double($0.value)), .number(Double($0.count))]) })
    }

    /// Whether `data` is a load report (and not a check report).
    package static func isLoadReport(_ data: Data) -> Bool {
        guard case .object(let members)? = JSONValue.parse(data) else { return false }
        return members.contains { $0.key == "kind" && $0.value == .string(kind) }
    }

    /// A load report read back; `file` names it in errors.
    package static func read(_ data: Data, file: String) throws(APIError) -> LoadResult {
        func bad(_ why: String) -> APIError {
            .invalidInput([Diagnostic(file: file, mark: nil, message: "not a load report of apicli load: \(why)",
                                      hint: "merge the files written by apicli load --json")])
        }
        guard let root = JSONValue.parse(data), case .object(let top) = root else { throw bad("not a JSON object") }
        let o = Dictionary(top.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        guard o["kind"] == .string(kind), o["version"] == .number(Double(version)) else {
            throw bad("kind \(kind) version \(version) expected")
        }
        var r = LoadResult()
        r.model = o["model"]?.stringValue ?? ""
        r.load = o["load"]?.stringValue ?? ""
        r.startedAt = try seconds(o["startedAt"] ?? .number(0), "startedAt", bad)
        guard let elapsed = o["elapsed"] else { throw bad("elapsed is missing") }
        r.elapsed = try seconds(elapsed, "elapsed", bad)
        r.scheduled = try count(o["scheduled"] ?? .number(0), "scheduled", bad)
        r.stopped = o["stopped"]?.stringValue
        guard case .array(let targets)? = o["targets"] else { throw bad("targets is missing") }
        for (i, t) in targets.enumerated() {
            guard let f = t.fields, let name = f["name"]?.stringValue else { throw bad("targets[\(i)] has no name") }
            r.names.append(name)
            r.targets[name] = try stats(f, "targets[\(i)]", bad)
        }
        r.lag = try latencies(o["lag"], "lag", bad)
        if case .array(let seconds)? = o["timeline"] {
            guard seconds.count <= maxSeconds else { throw bad("timeline has more than \(maxSeconds) seconds") }
            for (i, s) in seconds.enumerated() {
                guard let f = s.fields else { throw bad("timeline[\(i)] is not an object") }
                var second = LoadSecond()
                second.requests = try count(f["requests"], "timeline[\(i)].requests", bad)
                second.errors = try count(f["errors"], "timeline[\(i)].errors", bad)
                second.latency = try latencies(f["histogram"], "timeline[\(i)].histogram", into: Latencies(coarse: true), bad)
                r.timeline.append(second)
            }
        }
        if case .array(let list)? = o["thresholds"] {
            for item in list {
                guard let f = item.fields, let m = f["metric"]?.stringValue, let metric = LoadThreshold.Metric(rawValue: m),
                      let c = f["comparison"]?.stringValue, let comparison = LoadThreshold.Comparison(rawValue: c),
                      let limit = f["limit"]?.numberValue, limit.isFinite else { throw bad("a threshold is malformed") }
                r.thresholds.append(LoadThreshold(target: f["target"]?.stringValue, metric: metric, comparison: comparison,
                                                  limit: limit, percent: f["percent"] == .bool(true),
                                                  source: f["source"]?.stringValue ?? ""))
            }
        }
        if let s = o["shard"] {
            guard let f = s.fields else { throw bad("shard is not an object") }
            let i = try count(f["index"], "shard.index", bad), n = try count(f["count"], "shard.count", bad)
            guard let shard = Shard.parse("\(i)/\(n)", source: file) else { throw bad("shard \(i)/\(n) is not a shard (1 ≤ index ≤ count)") }
            r.shard = shard
        }
        r.merged = Int(try count(o["merged"] ?? .number(0), "merged", bad))
        guard total(r) != nil else { throw bad("its counts add up beyond \(Int(maxCount))") }
        return r
    }

    /// The most any count of a report (and all its counts added up, and those of the reports
    /// merged) may be: 2^53, the last whole number a JSON number holds exactly. Beyond it adding
    /// them up would overflow (a trap), so a forged report is refused instead.
    package static let maxCount = 9_007_199_254_740_992.0
    /// The most seconds a report may name (`elapsed`, `startedAt`): about 3,000 years.
    static let maxSeconds = 100_000_000_000

    /// Every count of `r` added up (requests, bytes, errors, each histogram's), or nil beyond `maxCount`.
    package static func total(_ r: LoadResult) -> UInt64? {
        var sum: UInt64 = 0
        let limit = UInt64(maxCount)
        func add(_ n: UInt64) -> Bool {
            let (s, over) = sum.addingReportingOverflow(n)
            sum = s
            return !over && s <= limit
        }
        for s in r.targets.values {
            guard add(s.requests), add(s.bytes), add(s.latency.count) else { return nil }
            for e in s.errors.values { guard add(e) else { return nil } }
        }
        for s in r.timeline {
            guard add(s.requests), add(s.errors), add(s.latency.count) else { return nil }
        }
        guard add(r.lag.count), add(r.scheduled), add(UInt64(max(r.merged, 0))) else { return nil }
        return sum
    }

    private static func stats(_ f: [String: JSONValue], _ field: String, _ bad: (String) -> APIError) throws(APIError) -> LoadStats {
        var s = LoadStats()
        s.requests = try count(f["requests"], field + ".requests", bad)
        s.bytes = try count(f["bytes"], field + ".bytes", bad)
        if case .object(let errors)? = f["errors"] {
            for (k, v) in errors { s.errors[k] = try count(v, field + ".errors." + k, bad) }
        }
        s.latency = try latencies(f["histogram"], field + ".histogram", bad)
        return s
    }

    private static func count(_ v: JSONValue?, _ field: String, _ bad: (String) -> APIError) throws(APIError) -> UInt64 {
        guard case .number(let n)? = v, n.isFinite, n >= 0, n <= maxCount, n == n.rounded() else {
            throw bad("\(field) is not a whole number from 0 to \(Int(maxCount))")
        }
        return UInt64(n)
    }

    private static func seconds(_ v: JSONValue, _ field: String, _ bad: (String) -> APIError) throws(APIError) -> Double {
        guard case .number(let n) = v, n.isFinite, n >= 0, n <= Double(maxSeconds) else {
            throw bad("\(field) is not a number of seconds from 0 to \(maxSeconds)")
        }
        return n
    }

    private static func latencies(_ v: JSONValue?, _ field: String, into empty: Latencies = Latencies(),
                                  _ bad: (String) -> APIError) throws(APIError) -> Latencies {
        var l = empty
        guard case .array(let pairs)? = v else { throw bad("\(field) is missing") }
        var sum: UInt64 = 0
        for (i, pair) in pairs.enumerated() {
            guard case .array(let p) = pair, p.count == 2 else { throw bad("\(field)[\(i)] is not [microseconds, count]") }
            let value = try count(p[0], "\(field)[\(i)][0]", bad)
            let n = try count(p[1], "\(field)[\(i)][1]", bad)
            guard value <= Latencies.highest else { throw bad("\(field)[\(i)]: a latency beyond an hour") }
            sum += n  // each at most 2^53, checked against it before the next: no overflow
            guard Double(sum) <= maxCount else { throw bad("\(field)'s counts add up beyond \(Int(maxCount))") }
            l.record(microseconds: value, count: n)
        }
        return l
    }
}

extension JSONValue {
    // stringValue and numberValue: Schema/SchemaRegistry.swift
    var fields: [String: JSONValue]? {
        guard case .object(let m) = self else { return nil }
        return Dictionary(m.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }
}
