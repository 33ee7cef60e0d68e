@testable import APISupport
@testable import APIYAML
@testable import APITargets
@testable import APILoad
@testable import APIImport
import XCTest

/// The load stage's arithmetic: the open model's schedule, weights, thresholds, and the JSON
/// report's histograms read back equal (what makes shards merge exactly).
final class LoadCoreTests: XCTestCase {
    func testAConstantRateSpacesRequestsEvenly() {
        let s = RateSchedule(constant: 100)
        XCTAssertEqual(s.time(of: 0)!, 0.01, accuracy: 1e-9)
        XCTAssertEqual(s.time(of: 99)!, 1.0, accuracy: 1e-9)
    }

    func testARampDuesRequestsByTheIntegralOfItsRate() throws {
        let s = try RateSchedule.parseRamp("0:100/s 1s, 100:100/s 1s").get()
        XCTAssertEqual(s.expected(by: 1), 50, accuracy: 1e-9)
        XCTAssertEqual(s.expected(by: 2), 150, accuracy: 1e-9)
        // the 50th request is due at the end of the rising second, the 150th at the end of the flat one
        XCTAssertEqual(s.time(of: 49)!, 1.0, accuracy: 1e-9)
        XCTAssertEqual(s.time(of: 149)!, 2.0, accuracy: 1e-9)
        XCTAssertEqual(s.time(of: 11)!, (24.0 / 100).squareRoot() * 1, accuracy: 1e-9)  // 50·t² = 12
        let down = try RateSchedule.parseRamp("100:0/s 2s").get()
        XCTAssertNil(down.time(of: 100), "the rate falls to 0 after 100 requests")
        XCTAssertEqual(RateSchedule.parseRate("6000/m"), 100)
        XCTAssertNil(RateSchedule.parseRate("-5/s"))
        XCTAssertNil(RateSchedule.parseRate("2000000/s"))
        if case .success = RateSchedule.parseRamp("0:0/s 5s") { XCTFail("a ramp that never rises") }
    }

    func testWeightsSpreadEvenly() {
        let service = Service(name: "s", file: "s.yaml", baseURL: Template("http://127.0.0.1", mark: Mark(line: 1, column: 1)),
                              headers: [], timeout: nil, validation: nil, targets: [])
        func target(_ n: String) -> Target {
            Target(name: n, service: "s", mark: Mark(line: 1, column: 1), doc: nil, path: nil, method: "GET", params: [],
                   task: RequestTask(), headers: [], timeout: nil, validation: nil, sample: nil, samples: [])
        }
        let plan = LoadPlan(items: [.init(service: service, target: target("a"), weight: 3),
                                    .init(service: service, target: target("b"), weight: 1)],
                            model: .closed(users: 5, think: 0), duration: nil, requests: 41)
        XCTAssertEqual(plan.order.sorted(), [0, 0, 0, 1])
        XCTAssertNotEqual(plan.order, [0, 0, 0, 1], "spread, not in a block")
        let shares = (1...2).map { plan.share(Shard(index: $0, count: 2, source: "")) }
        XCTAssertEqual(shares.map { $0.requests! }, [21, 20])
        XCTAssertEqual(shares.map(\.model), [.closed(users: 3, think: 0), .closed(users: 2, think: 0)])
    }

    func testThresholdsParseAndRangeCheck() throws {
        let t = try LoadThreshold.parse("svc.get:p99.9 <= 1.5s", source: "x").get()
        XCTAssertEqual(t.target, "svc.get")
        XCTAssertEqual(t.metric, .p999)
        XCTAssertEqual(t.comparison, .atMost)
        XCTAssertEqual(t.limit, 1.5)
        XCTAssertEqual(try LoadThreshold.parse("errors<1%", source: "x").get().limit, 0.01)
        XCTAssertEqual(try LoadThreshold.file(metric: "rps", value: "100", target: nil, source: "x").get().comparison, .atLeast)
        for bad in ["p95<200", "p95<0ms", "p95<2h", "errors<101%", "errors<-1", "rps>0", "p42<1s", "p95", ":p95<1s"] {
            if case .success = LoadThreshold.parse(bad, source: "x") { XCTFail("\(bad) accepted") }
        }
    }

    /// The timeline keeps a second that is over as its buckets (a few hundred bytes), not a 26
    /// KiB histogram each: a run's memory stays flat in its length (issue 22; an hour was 94 MB).
    /// What it reports is the same as the histograms it used to keep, late requests included.
    func testTheTimelineKeepsPastSecondsAsBucketsWithTheSameCounts() {
        let recorder = LoadRecorder(names: ["s.a"], start: 100, template: LoadResult())
        var expected = [Latencies](repeating: Latencies(coarse: true), count: 600)
        func record(second: Int, _ i: Int) {
            let due = 100 + Double(second) + Double(i) / 50
            let end = due + 0.000_3 * Double(1 + (i * 7 + second) % 23)
            recorder.record("s.a", due: due, end: end, error: i % 10 == 0 ? "5xx" : nil, bytes: 17)
            expected[second].record(seconds: end - due)
        }
        for second in 0..<600 {
            for i in 0..<50 { record(second: second, i) }
            XCTAssertLessThanOrEqual(recorder.recentHistograms, LoadRecorder.recentSeconds + 1, "second \(second)")
        }
        record(second: 5, 3)  // a slow request due long ago, finished now
        record(second: 5, 4)
        XCTAssertLessThanOrEqual(recorder.recentHistograms, LoadRecorder.recentSeconds + 2)
        let r = recorder.snapshot(now: 700)
        XCTAssertEqual(r.timeline.count, 600)
        for (second, s) in r.timeline.enumerated() {
            XCTAssertEqual(s.latency, expected[second], "second \(second)")
            XCTAssertEqual(s.requests, second == 5 ? 52 : 50)
            XCTAssertEqual(s.errors, 5)
            XCTAssertLessThanOrEqual(s.buckets.count, 23)
        }
        // the same bucket, so within its 1% (the top bucket's value is its middle, as read back from JSON)
        XCTAssertEqual(r.timeline[42].latency.seconds(at: 99), expected[42].seconds(at: 99), accuracy: expected[42].seconds(at: 99) / 100)
        XCTAssertEqual(r.timeline[42].latency.seconds(at: 50), expected[42].seconds(at: 50))
        // merged (report merge) and read back from JSON: the same buckets
        var twice = r
        twice.add(r)
        XCTAssertEqual(twice.timeline[7].requests, 100)
        XCTAssertEqual(twice.timeline[7].latency.count, 100)
        XCTAssertEqual(twice.timeline[7].buckets.map(\.value), r.timeline[7].buckets.map(\.value))
    }

    func testTheJSONReportKeepsHistogramsExactly() throws {
        var r = LoadResult()
        r.model = "closed"
        r.names = ["s.a"]
        var stats = LoadStats()
        for i in 1...5000 { stats.latency.record(seconds: Double(i % 997) * 0.000_37 + 0.001) }
        stats.requests = 5000
        stats.errors = ["5xx": 7]
        r.targets["s.a"] = stats
        r.elapsed = 2
        r.thresholds = [try LoadThreshold.parse("p99<1s", source: "--threshold").get()]
        let back = try LoadJSON.read(Data(LoadJSON.render(r).utf8), file: "r.json")
        XCTAssertEqual(back.targets["s.a"]!.latency, stats.latency)
        XCTAssertEqual(back.targets["s.a"]!.latency.seconds(at: 99), stats.latency.seconds(at: 99))
        XCTAssertEqual(back.targets["s.a"]!.errors, ["5xx": 7])
        XCTAssertEqual(back.thresholds, r.thresholds)
        var twice = back
        twice.add(back)
        XCTAssertEqual(twice.overall.latency.count, 10000)
        XCTAssertEqual(twice.overall.latency.seconds(at: 50), stats.latency.seconds(at: 50))
        XCTAssertThrowsError(try LoadJSON.read(Data("{\"version\":1,\"results\":[]}".utf8), file: "check.json"))
    }
}
