import APISupport
import Atomics
import Prometheus

/// What watches a run while it goes: `--metrics` (live Prometheus metrics) and `--jsonl` (a line a
/// second). Without either the run has none, and its requests pay nothing for it.
package final class LoadWatch: Sendable {
    /// Requests with the transport now: a relaxed atomic, raised and lowered around each send.
    let inFlight = ManagedAtomic<Int>(0)
    package let metrics: LoadMetrics?
    /// `--jsonl`: the recorder keeps what finished in each second until `LoadRecorder.takeSeconds` takes it.
    package let seconds: Bool

    package init(metrics: LoadMetrics?, seconds: Bool) {
        self.metrics = metrics
        self.seconds = seconds
    }

    package var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    @inline(__always) func sending() { inFlight.wrappingIncrement(ordering: .relaxed) }
    @inline(__always) func sent() { inFlight.wrappingDecrement(ordering: .relaxed) }
}

/// `apicli load --metrics`: the run's counters and histograms in swift-prometheus's registry, served
/// as Prometheus' text format (`LoadMetricsServer`). Updated as the recorder counts a request, under
/// its lock: counters are atomics, a target's histogram its own uncontended lock; a counter for a new
/// (target, status) or (target, error kind) is made the first time one is seen (`Cache`), none per request.
package final class LoadMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let latency: [String: ValueHistogram]
    private let bytes: [String: Counter]
    private let lag: ValueHistogram?
    private let inFlight: Gauge

    /// Seconds: 0.5 ms to 30 s, the usual steps of an HTTP service's latencies.
    package static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
    /// Seconds: 0.1 ms to 1 s.
    package static let lagBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "apicli", subsystem: "load", metricName: metric, unitName: unit, helpText: help)
    }

    static var requests: MetricNameDescriptor { name("requests", "total", "Requests finished, by target and HTTP status (none: no response).") }
    static var errors: MetricNameDescriptor { name("errors", "total", "Requests that failed, by target and kind (4xx, 5xx, timeout, network:refused, ...).") }

    /// `names`: the run's targets; `open`: the open model (which has a start lag); `info`: the run's
    /// model, load and shard, as the labels of `apicli_load_run_info`.
    package init(names: [String], open: Bool, info: [(String, String)]) {
        var latency: [String: ValueHistogram] = [:], bytes: [String: Counter] = [:]
        for target in names {
            latency[target] = registry.makeValueHistogram(
                descriptor: Self.name("latency", "seconds", "Latency of the finished requests (open model: from the scheduled start)."),
                labels: [("target", target)], buckets: Self.latencyBuckets)
            bytes[target] = registry.makeCounter(descriptor: Self.name("received", "bytes_total", "Response body bytes received."),
                                                 labels: [("target", target)])
        }
        self.latency = latency
        self.bytes = bytes
        lag = open ? registry.makeValueHistogram(
            descriptor: Self.name("start_lag", "seconds", "Open model: how late requests started against their schedule."),
            labels: [], buckets: Self.lagBuckets) : nil
        inFlight = registry.makeGauge(descriptor: Self.name("in_flight", "requests", "Requests sent and not yet answered."), labels: [])
        registry.makeGauge(descriptor: Self.name("run", "info", "The run: its model, load and shard (always 1)."), labels: info).set(to: 1)
    }

    /// The counters made so far, by (target, status) and (target, kind): kept in the recorder's state.
    struct Cache {
        struct Key: Hashable {
            var target: String
            var status: Int
        }
        var requests: [Key: Counter] = [:]
        var errors: [String: [String: Counter]] = [:]
    }

    func record(_ e: LoadRecorder.Entry, cache: inout Cache) {
        let key = Cache.Key(target: e.name, status: e.status)
        let counter: Counter
        if let known = cache.requests[key] {
            counter = known
        } else {
            counter = registry.makeCounter(descriptor: Self.requests,
                                           labels: [("target", e.name), ("status", e.status > 0 ? String(e.status) : "none")])
            cache.requests[key] = counter
        }
        counter.increment()
        if let kind = e.error {
            if let known = cache.errors[e.name]?[kind] {
                known.increment()
            } else {
                let made = registry.makeCounter(descriptor: Self.errors, labels: [("target", e.name), ("kind", kind)])
                cache.errors[e.name, default: [:]][kind] = made
                made.increment()
            }
        }
        latency[e.name]?.record(max(e.end - e.due, 0))
        if e.bytes > 0 { bytes[e.name]?.increment(by: Int64(e.bytes)) }
        if let lag, let late = e.lag { lag.record(max(late, 0)) }
    }

    /// The text Prometheus scrapes, with the in-flight gauge read from `watch` now.
    package func exposition(_ watch: LoadWatch) -> [UInt8] {
        inFlight.set(to: Double(watch.requestsInFlight))
        return registry.emitToBuffer()
    }
}
