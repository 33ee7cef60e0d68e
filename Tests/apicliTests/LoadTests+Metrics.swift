import Foundation
import TestServers
import XCTest

/// `apicli load --metrics` scraped by a real Prometheus server (Debian's `prometheus`, `make deps`) on
/// loopback, the endpoint read directly while a run goes, its address checked, and `--jsonl`'s lines
/// against the run's report: LoadTests' server and targets, each run a few seconds.
extension LoadTests {
    static let prometheus = "/usr/bin/prometheus"

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
        try CLI.require(Self.prometheus, "prometheus")
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
        let rep = try report("r.json")
        let overall = try XCTUnwrap(rep["overall"] as? [String: Any])
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
        // A dashboard's latency: the slow target's p50 from the histogram is about its 50 ms delay.
        let p50 = try XCTUnwrap(query(promPort, "histogram_quantile(0.5, sum by (le) (max_over_time(apicli_load_latency_seconds_bucket{target=\"svc.slow\"}[5m])))"))
        XCTAssertTrue((0.025...0.1).contains(p50), "\(p50)")
    }
}

extension LoadTests {
    /// `--metrics :0` picks a free port and says which; the endpoint answers while the run goes (the
    /// counters growing, the in-flight gauge, the run's labels), 404 elsewhere; it is gone after the run.
    func testTheEndpointWhileTheRunGoes() throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["load", "--targets", dir.appendingPathComponent("targets").path, "-q", "svc.slow", "--users", "3",
                             "--duration", "3s", "--metrics", ":0"]
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("\n") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += chunk
        }
        let line = String(decoding: said, as: UTF8.self)
        let url = try XCTUnwrap(line.range(of: #"http://127\.0\.0\.1:[0-9]+/metrics"#, options: .regularExpression).map { String(line[$0]) }, line)
        XCTAssertFalse(url.hasSuffix(":0/metrics"), line)
        Thread.sleep(forTimeInterval: 1)
        let first = get(url)
        Thread.sleep(forTimeInterval: 0.6)
        let second = get(url)
        let other = get(url.replacingOccurrences(of: "/metrics", with: "/other"))
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(first.contains("# TYPE apicli_load_requests_total counter"), first)
        XCTAssertTrue(first.contains("# TYPE apicli_load_latency_seconds histogram"), first)
        XCTAssertTrue(first.contains(#"apicli_load_run_info{model="closed",load="3 users"} 1"#), first)
        XCTAssertFalse(first.contains("apicli_load_start_lag_seconds"), "the closed model has no start lag")
        // Three users each waiting 50 ms for the server: one in flight or more at the scrape.
        let inFlight = try XCTUnwrap(value(first, "apicli_load_in_flight_requests"))
        XCTAssertTrue((1...3).contains(inFlight), first)
        let a = try XCTUnwrap(value(first, #"apicli_load_requests_total{target="svc.slow",status="200"}"#), first)
        let b = try XCTUnwrap(value(second, #"apicli_load_requests_total{target="svc.slow",status="200"}"#), second)
        XCTAssertGreaterThan(b, a)
        XCTAssertTrue(other.contains("serves its metrics at /metrics"), other)
        XCTAssertEqual(get(url), "", "nothing listens after the run")
    }

    /// A sample's value in Prometheus' text format.
    func value(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.dropFirst(series.count + 1)) }
    }

    func testBadAddressesAndABusyPort() throws {
        for bad in ["9464x", "127.0.0.1:70000", "example.com:9464", "1.2.3:80", "[::1]9464", ":", "127.0.0.1:-1"] {
            let r = try load(["svc.fast", "--requests", "1", "--metrics", bad])
            XCTAssertEqual(r.code, 64, "\(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--metrics takes an address of this machine"), r.stderr)
        }
        let linger = try load(["svc.fast", "--requests", "1", "--metrics-linger", "2s"])
        XCTAssertEqual(linger.code, 64, linger.stderr)
        XCTAssertTrue(linger.stderr.contains("--metrics-linger goes with --metrics"), linger.stderr)
        // The load server's own port is taken: exit 3, before anything is sent.
        let port = try XCTUnwrap(URL(string: server.url)?.port)
        let busy = try load(["svc.fast", "--requests", "1", "--metrics", "127.0.0.1:\(port)"])
        XCTAssertEqual(busy.code, 3, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("--metrics cannot listen on 127.0.0.1:\(port): the port is in use"), busy.stderr)
        XCTAssertTrue(busy.stderr.contains(":0 for a free one"), busy.stderr)
    }

    /// `--jsonl`: a line a second with what finished in it; the lines add up to the report's totals.
    /// `-` writes them to stdout and the summary to stderr.
    func testJSONLinesAddUpToTheReport() throws {
        let r = try load(["svc.fast", "svc.bad", "--rate", "200/s", "--duration", "3s", "--json", dir.appendingPathComponent("r.json").path,
                          "--jsonl", dir.appendingPathComponent("l.jsonl").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        let overall = try XCTUnwrap(try report("r.json")["overall"] as? [String: Any])
        let text = try String(contentsOf: dir.appendingPathComponent("l.jsonl"), encoding: .utf8)
        let lines = try text.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertTrue((3...4).contains(lines.count), text)
        XCTAssertEqual(lines.map { $0["second"] as? Int }, Array(0..<lines.count))
        XCTAssertEqual(lines.map { $0["requests"] as? Int ?? 0 }.reduce(0, +), overall["requests"] as? Int)
        XCTAssertEqual(lines.map { $0["errors"] as? Int ?? 0 }.reduce(0, +), (overall["errors"] as? [String: Int])?["5xx"])
        XCTAssertEqual(lines.map { ($0["histogram"] as? [[Int]] ?? []).map { $0[1] }.reduce(0, +) }, lines.map { $0["requests"] as? Int ?? -1 })
        let full = try XCTUnwrap(lines.first)
        XCTAssertTrue((150...250).contains(full["requests"] as? Int ?? 0), "\(full)")
        for key in ["time", "errorKinds", "bytes", "inFlight", "latencyMs"] { XCTAssertNotNil(full[key], key) }
        XCTAssertNil(full["shard"])

        let out = try load(["svc.fast", "--users", "2", "--requests", "20", "--jsonl", "-", "--shard", "2/2"])
        XCTAssertEqual(out.code, 0, out.stderr)
        let streamed = out.stdout.split(separator: "\n")
        XCTAssertFalse(streamed.isEmpty)
        for line in streamed {
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            XCTAssertEqual(o["shard"] as? [String: Int], ["index": 2, "count": 2])
        }
        XCTAssertTrue(out.stderr.contains("overall"), "the summary goes to stderr: \(out.stderr)")
        let unwritable = try load(["svc.fast", "--requests", "1", "--jsonl", dir.appendingPathComponent("no/such/l.jsonl").path])
        XCTAssertEqual(unwritable.code, 5, unwritable.stderr)
    }
}
