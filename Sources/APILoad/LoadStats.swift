import APITransport
import Histogram

/// Latencies in microseconds, in an HDR histogram (3 significant digits, up to an hour): bounded
/// memory whatever the run's length, and lossless to add up across shards.
package struct Latencies: Sendable, Equatable {
    package private(set) var histogram: Histogram<UInt64>
    package static let highest: UInt64 = 3_600_000_000

    package init() { self.init(coarse: false) }

    /// `coarse`: two significant digits (1%) instead of three, 26 KiB instead of 188 KiB: what
    /// the timeline keeps for each second of a run, so that memory does not grow with its length.
    package init(coarse: Bool) {
        histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: Self.highest,
                                      numberOfSignificantValueDigits: coarse ? .two : .three)
    }

    package mutating func record(seconds: Double) {
        let us = seconds.isFinite ? UInt64(Swift.min(Swift.max(seconds * 1e6, 1), Double(Self.highest))) : Self.highest
        _ = histogram.record(us)
    }

    package mutating func record(microseconds value: UInt64, count: UInt64) {
        _ = histogram.record(Swift.min(Swift.max(value, 1), Self.highest), count: count)
    }

    /// Adds `other`'s counts; at another precision (a coarse one into a fine one), bucket by bucket.
    package mutating func add(_ other: Latencies) {
        if histogram.numberOfSignificantValueDigits == other.histogram.numberOfSignificantValueDigits {
            histogram.add(other.histogram)
        } else {
            for b in other.buckets { record(microseconds: b.value, count: b.count) }
        }
    }

    package var count: UInt64 { histogram.totalCount }

    /// Seconds at `percentile` (0-100); 0 when nothing was recorded.
    package func seconds(at percentile: Double) -> Double {
        count == 0 ? 0 : Double(histogram.valueAtPercentile(percentile)) / 1e6
    }

    package var max: Double { count == 0 ? 0 : Double(histogram.max) / 1e6 }
    package var mean: Double { count == 0 ? 0 : histogram.mean / 1e6 }

    /// Every recorded bucket as (microseconds, count): what the JSON report keeps, so that a
    /// histogram read back equals the one written.
    package var buckets: [(value: UInt64, count: UInt64)] {
        histogram.recordedValues().map { (histogram.medianEquivalentForValue($0.value), UInt64($0.count)) }
    }

    package static func == (a: Latencies, b: Latencies) -> Bool {
        a.count == b.count && a.buckets.elementsEqual(b.buckets) { $0.value == $1.value && $0.count == $1.count }
    }
}

/// What a load run measured for one target, or for the whole run.
package struct LoadStats: Sendable, Equatable {
    package var requests: UInt64 = 0
    /// Requests that failed, by kind: `4xx`, `5xx`, `timeout`, `network:refused`, … .
    package var errors: [String: UInt64] = [:]
    /// Response body bytes received.
    package var bytes: UInt64 = 0
    package var latency = Latencies()

    package init() {}

    package var errorCount: UInt64 { errors.values.reduce(0, +) }

    /// One request: its latency, body bytes and error kind (nil: it succeeded).
    mutating func record(latency seconds: Double, bytes: Int, error: String?) {
        requests += 1
        self.bytes += UInt64(max(bytes, 0))
        latency.record(seconds: seconds)
        if let error { errors[error, default: 0] += 1 }
    }

    package mutating func add(_ other: LoadStats) {
        requests += other.requests
        bytes += other.bytes
        for (k, v) in other.errors { errors[k, default: 0] += v }
        latency.add(other.latency)
    }
}

/// One second of the run (from its start): how many requests started in it, how many of them
/// failed, and their latencies (for the charts).
package struct LoadSecond: Sendable, Equatable {
    package var requests: UInt64 = 0
    package var errors: UInt64 = 0
    /// The latencies at 1% (a coarse `Latencies`), kept as the buckets that have counts, by
    /// value: a second of a run holds a few hundred bytes, not a whole coarse histogram (which
    /// made a long run's memory grow with its length). The recorder fills a histogram while the second
    /// is recent and keeps only this once it is over (`LoadRecorder`).
    package private(set) var buckets: [Bucket] = []

    /// (microseconds, count).
    package struct Bucket: Sendable, Equatable {
        package var value: UInt64
        package var count: UInt64
    }

    package init() {}

    /// The latencies as a histogram, built when asked (the charts, the JSON report).
    package var latency: Latencies {
        get {
            var l = Latencies(coarse: true)
            for b in buckets { l.record(microseconds: b.value, count: b.count) }
            return l
        }
        set {
            buckets = []
            add(newValue)
        }
    }

    package mutating func add(_ other: LoadSecond) {
        requests += other.requests
        errors += other.errors
        merge(other.buckets)
    }

    /// `latencies`' counts added to this second's.
    mutating func add(_ latencies: Latencies) {
        merge(latencies.buckets.map { Bucket(value: $0.value, count: $0.count) })
    }

    private mutating func merge(_ other: [Bucket]) {
        if other.isEmpty { return }
        if buckets.isEmpty {
            buckets = other
            return
        }
        var merged: [Bucket] = []
        merged.reserveCapacity(buckets.count + other.count)
        var (i, j) = (0, 0)
        while i < buckets.count || j < other.count {
            if j == other.count || (i < buckets.count && buckets[i].value < other[j].value) {
                merged.append(buckets[i])
                i += 1
            } else if i == buckets.count || other[j].value < buckets[i].value {
                merged.append(other[j])
                j += 1
            } else {
                merged.append(Bucket(value: buckets[i].value, count: buckets[i].count + other[j].count))
                i += 1
                j += 1
            }
        }
        buckets = merged
    }
}
