import Foundation
import TestServers
import XCTest

/// `apicli load --metrics` scraped by a real Prometheus server (Debian's `prometheus`, `make deps`) on
/// loopback, the endpoint read directly while a run goes, its address checked, and `--jsonl`'s lines
/// against the run's report. Each run lasts a few seconds, against Tests/Servers/load-server.py.
final class LoadMetricsTests: XCTestCase {
    var server: TestServer!
    var dir: URL!

    override func setUpWithError() throws {
        server = try TestServer("load-server.py", ["--lifetime", "120"])
        dir = try CLI.folder(["targets/svc.yaml": """
            baseURL: \(server.url)
            targets:
              fast: { path: /fast, load: { weight: 3 } }
              bad: { path: /status/503 }
              slow: { path: /delay, task: { query: { ms: "30" } } }
            """])
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func load(_ args: [String], env: [String: String] = [:], timeout: Double = 40) throws -> CLI.Result {
        try CLI.run(["load", "--targets", dir.appendingPathComponent("targets").path, "-q"] + args, env: env, timeout: timeout)
    }

    func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent(name))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static let prometheus = "/usr/bin/prometheus"

    /// Skips (or fails under APICLI_REQUIRE_LIVE=1) when Prometheus is missing.
    static func requirePrometheus() throws {
        if FileManager.default.isExecutableFile(atPath: prometheus) { return }
        if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
            XCTFail("prometheus is not installed: `make deps` installs it")
        }
        throw XCTSkip("prometheus is not installed (make deps)")
    }

    /// GET `url` with curl; its body ("" when it fails).
    func get(_ url: String) -> String {
        (try? ClientCertificateTests.sh("curl -s --noproxy '*' --max-time 5 '\(url)'", in: dir)) ?? ""
    }

    /// An instant query's value (the first series'), or nil when it has none yet.
    func query(_ port: Int, _ promql: String) -> Double? {
        let q = promql.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? promql
        let body = get("http://127.0.0.1:\(port)/api/v1/query?query=\(q)")
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
              let data = object["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
              let value = result.first?["value"] as? [Any], value.count == 2, let text = value[1] as? String else { return nil }
        return Double(text)
    }

    /// The issue's done-when: a real Prometheus scrapes `load --metrics` every second during a bounded
    /// run, and its request counter ends equal to the load report's count (`--metrics-linger` holds the
    /// endpoint open for the scrape after the run).
    func testPrometheusScrapesTheRunAndCountsWhatTheReportCounts() throws {
        try Self.requirePrometheus()
        let promPort = try NginxServer.freePort(in: dir), metricsPort = try NginxServer.freePort(in: dir)
        let config = dir.appendingPathComponent("prometheus.yml")
        try Data("""
            global: { scrape_interval: 1s, scrape_timeout: 900ms, evaluation_interval: 1s }
            scrape_configs:
              - job_name: apicli-load
                static_configs: [{ targets: ["127.0.0.1:\(metricsPort)"] }]
            """.utf8).write(to: config)
        let prom = Process()
        prom.executableURL = URL(fileURLWithPath: Self.prometheus)
        prom.arguments = ["--config.file=\(config.path)", "--storage.tsdb.path=\(dir.appendingPathComponent("tsdb").path)",
                          "--web.listen-address=127.0.0.1:\(promPort)", "--log.level=warn"]
        prom.standardOutput = FileHandle.nullDevice
        prom.standardError = FileHandle.nullDevice
        try prom.run()
        defer { prom.terminate(); prom.waitUntilExit() }
        let ready = Date().addingTimeInterval(20)
        while !get("http://127.0.0.1:\(promPort)/-/ready").contains("Ready"), Date() < ready { Thread.sleep(forTimeInterval: 0.2) }
        XCTAssertTrue(get("http://127.0.0.1:\(promPort)/-/ready").contains("Ready"), "prometheus did not start")
        // Prometheus applies its targets a few seconds after it starts: the run begins once it tried one scrape.
        let scraping = Date().addingTimeInterval(20)
        while !get("http://127.0.0.1:\(promPort)/api/v1/targets").contains("\"health\":\"down\""), Date() < scraping {
            Thread.sleep(forTimeInterval: 0.2)
        }

        // The open model at a modest rate: the machine stays free to answer the scrapes on time.
        let r = try load(["svc.fast", "svc.bad", "svc.slow", "--rate", "300/s", "--duration", "5s", "--json", dir.appendingPathComponent("r.json").path,
                          "--metrics", "127.0.0.1:\(metricsPort)", "--metrics-linger", "5s"])
        XCTAssertEqual(r.code, 0, r.stderr)
        // The linger ends at the first scrape after the run (about a second), not after its 5 s.
        XCTAssertLessThan(r.seconds, 5 + 4, r.stderr)
        let report = try json("r.json")
        let overall = try XCTUnwrap(report["overall"] as? [String: Any])
        let requests = try XCTUnwrap(overall["requests"] as? Int)
        let errors = try XCTUnwrap((overall["errors"] as? [String: Int])?["5xx"])
        XCTAssertGreaterThan(requests, 1000)

        // The target is gone after the run (Prometheus marks its series stale): the last value over the window.
        let total = "sum(max_over_time(apicli_load_requests_total[5m]))"
        let until = Date().addingTimeInterval(10)
        while query(promPort, total) != Double(requests), Date() < until { Thread.sleep(forTimeInterval: 0.3) }
        XCTAssertEqual(query(promPort, total), Double(requests), "the request counter Prometheus scraped")
        XCTAssertEqual(query(promPort, "sum(max_over_time(apicli_load_errors_total{kind=\"5xx\"}[5m]))"), Double(errors))
        XCTAssertEqual(query(promPort, "sum(max_over_time(apicli_load_requests_total{target=\"svc.bad\",status=\"503\"}[5m]))"),
                       Double(errors))
        XCTAssertEqual(query(promPort, "sum(max_over_time(apicli_load_latency_seconds_count[5m]))"), Double(requests))
        XCTAssertEqual(query(promPort, "max_over_time(apicli_load_start_lag_seconds_count[5m])"), Double(requests))
        XCTAssertEqual(query(promPort, "max_over_time(apicli_load_run_info{model=\"open\"}[5m])"), 1)
        // Scraped while it ran, not only at the end: several samples, the first of them below the total.
        let samples = try XCTUnwrap(query(promPort, "count_over_time(apicli_load_requests_total{target=\"svc.fast\",status=\"200\"}[5m])"))
        XCTAssertGreaterThanOrEqual(samples, 3)
        let first = try XCTUnwrap(query(promPort, "sum(min_over_time(apicli_load_requests_total[5m]))"))
        XCTAssertLessThan(first, Double(requests))
        // A dashboard's latency: the slow target's p50 from the histogram is about its 30 ms delay.
        let p50 = try XCTUnwrap(query(promPort, "histogram_quantile(0.5, sum by (le) (max_over_time(apicli_load_latency_seconds_bucket{target=\"svc.slow\"}[5m])))"))
        XCTAssertTrue((0.025...0.1).contains(p50), "\(p50)")
    }
}
