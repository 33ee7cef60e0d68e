@testable import APILoad
import XCTest

/// What watches a load run: `--metrics`' addresses and counters, `--jsonl`'s seconds.
final class LoadWatchTests: XCTestCase {
    func testMetricsAddresses() {
        let good: [(String, String, Int)] = [("127.0.0.1:9464", "127.0.0.1", 9464), (":9464", "127.0.0.1", 9464), ("9464", "127.0.0.1", 9464),
                                             (":0", "127.0.0.1", 0), ("0.0.0.0:80", "0.0.0.0", 80), ("localhost:1", "localhost", 1),
                                             ("[::1]:9464", "::1", 9464), ("[::]:0", "::", 0)]
        for (text, host, port) in good {
            let a = LoadMetricsServer.address(text)
            XCTAssertEqual(a?.host, host, text)
            XCTAssertEqual(a?.port, port, text)
        }
        for text in ["", ":", "x", "9464x", "65536", ":-1", "1.2.3:80", "1.2.3.256:80", "host:80", "[::1]9464", "[]:80", "[::1]:",
                     "::1:80", "127.0.0.1:٣", "127.0.0.1: 80"] {
            XCTAssertNil(LoadMetricsServer.address(text), text)
        }
    }

    /// Each request in the line of the second it finished in; one that comes after its second was
    /// taken (a user's batch held it) goes in the first second not taken, so the lines add up.
    func testSecondsTakeEachRequestOnce() {
        let recorder = LoadRecorder(names: ["s.a"], start: 100, template: LoadResult(), watch: LoadWatch(metrics: nil, seconds: true))
        recorder.record("s.a", due: 100.1, end: 100.2, error: nil, bytes: 3)
        recorder.record("s.a", due: 100.5, end: 102.5, error: "5xx", bytes: 0)
        let first = recorder.takeSeconds(through: 1)
        XCTAssertEqual(first.map(\.second), [0, 1])
        XCTAssertEqual(first.map(\.finished.requests), [1, 0])
        recorder.record("s.a", due: 100.9, end: 101.9, error: nil, bytes: 0)  // second 1, taken already
        let rest = recorder.takeSeconds(through: nil)
        XCTAssertEqual(rest.map(\.second), [2])
        XCTAssertEqual(rest.first?.finished.requests, 2)
        XCTAssertEqual(rest.first?.finished.errors, ["5xx": 1])
        XCTAssertEqual(recorder.takeSeconds(through: nil).count, 0)
        XCTAssertEqual(recorder.snapshot().overall.requests, 3)
    }

    /// The exposition counts what the recorder counts, by target and status.
    func testTheMetricsCountWhatTheRecorderCounts() {
        let metrics = LoadMetrics(names: ["s.a", "s.b"], open: true, info: [("model", "open")])
        let watch = LoadWatch(metrics: metrics, seconds: false)
        let recorder = LoadRecorder(names: ["s.a", "s.b"], start: 0, template: LoadResult(), watch: watch)
        for i in 0..<10 {
            recorder.record(LoadRecorder.Entry(name: i < 7 ? "s.a" : "s.b", due: 0, end: 0.003, error: i < 7 ? nil : "5xx",
                                               bytes: 10, lag: 0.0002, status: i < 7 ? 200 : 503))
        }
        recorder.record("s.a", due: 0, end: 2, error: "timeout", bytes: 0)
        watch.sending()
        let text = String(decoding: metrics.exposition(watch), as: UTF8.self)
        for line in [#"apicli_load_requests_total{target="s.a",status="200"} 7"#, #"apicli_load_requests_total{target="s.b",status="503"} 3"#,
                     #"apicli_load_requests_total{target="s.a",status="none"} 1"#, #"apicli_load_errors_total{target="s.b",kind="5xx"} 3"#,
                     #"apicli_load_errors_total{target="s.a",kind="timeout"} 1"#, #"apicli_load_latency_seconds_count{target="s.a"} 8"#,
                     #"apicli_load_latency_seconds_bucket{target="s.a",le="0.0025"} 0"#, #"apicli_load_latency_seconds_bucket{target="s.a",le="0.005"} 7"#,
                     #"apicli_load_received_bytes_total{target="s.a"} 70"#, "apicli_load_start_lag_seconds_count 10",
                     "apicli_load_in_flight_requests 1.0", #"apicli_load_run_info{model="open"} 1.0"#] {
            XCTAssertTrue(text.contains(line + "\n"), "\(line)\n\(text)")
        }
    }
}
