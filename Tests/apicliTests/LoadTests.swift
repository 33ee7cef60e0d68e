import Foundation
import TestServers
import XCTest

/// `apicli load` against Tests/Servers/load-server.py on loopback: both models, thresholds and their exit
/// codes, a login per virtual user, a ramp, no coordinated omission, shards merged, Ctrl-C, bad
/// input, the host guard, and the HTML report drawn by Chromium. Each run lasts a second or two.
final class LoadTests: XCTestCase {
    var server: TestServer!
    var dir: URL!

    override func setUpWithError() throws {
        server = try TestServer("load-server.py", ["--lifetime", "120"])
        dir = try CLI.folder(["targets/svc.yaml": """
            baseURL: \(server.url)
            targets:
              stats: { path: /stats }
              fast: { path: /fast, load: { weight: 3 } }
              slow: { path: /delay, task: { query: { ms: "50" } } }
              bad: { path: /status/503 }
              login: { path: /login, method: POST, capture: { token: { json: "$.token", secret: true } } }
              me: { path: /me, needs: [login], headers: { X-Token: "{token}" }, load: { thresholds: { errors: "0%" } } }
              endless: { path: /endless }
              big: { path: /big, task: { query: { mb: "2" } } }
              polled: { path: /big, task: { query: { mb: "2" } }, until: { expect: { status: 200 }, within: 5s } }
              silent: { path: /silent }
            """])
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func load(_ args: [String], env: [String: String] = [:], timeout: Double = 30) throws -> CLI.Result {
        try CLI.run(["load", "--targets", dir.appendingPathComponent("targets").path, "-q"] + args, env: env, timeout: timeout)
    }

    func report(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent(name))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func overall(_ r: [String: Any]) -> [String: Any] { r["overall"] as? [String: Any] ?? [:] }

    func stats() throws -> [String: Any] {
        let r = try CLI.run(["call", "--targets", dir.appendingPathComponent("targets").path, "svc.stats"])
        XCTAssertEqual(r.code, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
    }

    func testClosedModelWeightsAndAPassingThreshold() throws {
        let json = dir.appendingPathComponent("c.json").path
        let r = try load(["svc.fast", "svc.slow", "--users", "4", "--requests", "40", "--threshold", "p99<5s", "--json", json])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("threshold passed: p99 < 5000.00 ms"), r.stdout)
        let rep = try report("c.json")
        XCTAssertEqual(overall(rep)["requests"] as? Int, 40)
        let targets = try XCTUnwrap(rep["targets"] as? [[String: Any]])
        XCTAssertEqual(targets.map { $0["requests"] as? Int }, [30, 10])  // weights 3:1
        XCTAssertEqual(try stats()["requests"] as? Int, 40)
        // /delay?ms=50: the slow target's p50 is the server's delay, not less
        let slow = try XCTUnwrap(targets[1]["latencyMs"] as? [String: Double])
        XCTAssertGreaterThanOrEqual(slow["p50"]!, 49)
        XCTAssertLessThan(slow["p50"]!, 200)
    }

    func testAFailingThresholdExits1AndErrorsAreCountedByKind() throws {
        let xml = dir.appendingPathComponent("t.xml").path
        let r = try load(["svc.fast", "svc.bad", "--users", "2", "--requests", "20", "--threshold", "errors<1%",
                          "--threshold", "svc.fast:p95<30s", "--weight", "svc.bad=1", "--junit", xml])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("threshold FAILED: errors < 1.00% (measured 25.00%)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("threshold passed: svc.fast: p95 < 30000.00 ms"), r.stdout)
        XCTAssertTrue(r.stdout.contains("errors: 5xx 5"), r.stdout)
        let junit = try String(contentsOfFile: xml, encoding: .utf8)
        XCTAssertTrue(junit.contains("tests=\"2\" failures=\"1\""), junit)
    }

    func testOpenModelKeepsItsScheduleAndMeasuresFromIt() throws {
        let json = dir.appendingPathComponent("o.json").path
        let r = try load(["svc.fast", "--rate", "100/s", "--duration", "2s", "--json", json])
        XCTAssertEqual(r.code, 0, r.stderr)
        // "on schedule" unless the machine is busy (a start 10 ms late says BEHIND): the lag is reported either way
        XCTAssertTrue(r.stdout.contains(" started; start lag p50 "), r.stdout)
        let n = try XCTUnwrap(overall(try report("o.json"))["requests"] as? Int)
        XCTAssertTrue((195...200).contains(n), "\(n) requests at 100/s for 2 s")
        // One slot, 50 ms per request, 20 due in half a second: starts fall behind, and latency
        // counts from the scheduled start (the last one waited about half a second).
        let late = try load(["svc.slow", "--rate", "40/s", "--duration", "0.5s", "--max-in-flight", "1", "--json", json])
        XCTAssertEqual(late.code, 0, late.stderr)
        XCTAssertTrue(late.stdout.contains("BEHIND SCHEDULE"), late.stdout)
        let ms = try XCTUnwrap(overall(try report("o.json"))["latencyMs"] as? [String: Double])
        XCTAssertGreaterThan(ms["max"]!, 300, "latency from the scheduled start, not from when a slot freed")
    }

    func testEachVirtualUserLogsInOnce() throws {
        let r = try load(["svc.me", "--users", "3", "--requests", "60"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)  // the file's threshold errors: 0% holds
        XCTAssertTrue(r.stdout.contains("threshold passed: svc.me: errors <= 0.00%"), r.stdout)
        let s = try stats()
        XCTAssertEqual(s["logins"] as? Int, 3)
        let byToken = try XCTUnwrap(s["me_by_token"] as? [String: Int])
        XCTAssertEqual(byToken.count, 3)
        XCTAssertEqual(byToken.values.reduce(0, +), 60)
        XCTAssertFalse(r.stdout.contains("tok-"), "a secret capture never reaches the output")
    }

    func testARampRisesStageByStage() throws {
        let json = dir.appendingPathComponent("r.json").path
        let r = try load(["svc.fast", "--ramp", "0:100/s 1s, 100:100/s 1s", "--json", json])
        XCTAssertEqual(r.code, 0, r.stderr)
        let rep = try report("r.json")
        let n = try XCTUnwrap(overall(rep)["requests"] as? Int)
        XCTAssertTrue((145...150).contains(n), "\(n): 50 in the rising second, 100 in the flat one")
        let seconds = try XCTUnwrap(rep["timeline"] as? [[String: Any]]).map { $0["requests"] as? Int ?? 0 }
        XCTAssertTrue((45...55).contains(seconds[0]) && (95...101).contains(seconds[1]), "\(seconds)")
    }

    /// The Kubernetes Indexed Job of docs/load.md: each pod runs `--shard auto` with JOB_COMPLETION_INDEX and
    /// APICLI_SHARD_COUNT and a common --start-at; the merged report equals one unsharded run (requests,
    /// errors by kind, bytes, per target), and the shards' `--jsonl` lines add up to it too.
    func testShardsMergedEqualOneRun() throws {
        let shards = 3
        let args = ["svc.fast", "svc.bad", "--weight", "svc.bad=1", "--users", "6", "--requests", "61", "--threshold", "errors<50%"]
        let single = try load(args + ["--json", dir.appendingPathComponent("one.json").path])
        XCTAssertEqual(single.code, 0, single.stderr)
        let start = String(Int(Date().timeIntervalSince1970) + 2)
        let results = Locked2<[Int: CLI.Result]>([:])
        let folder: URL = dir
        DispatchQueue.concurrentPerform(iterations: shards) { i in
            let r = try? CLI.run(["load", "--targets", folder.appendingPathComponent("targets").path, "-q"] + args
                                 + ["--shard", "auto", "--start-at", start, "--json", folder.appendingPathComponent("shard-\(i).json").path,
                                    "--jsonl", folder.appendingPathComponent("shard-\(i).jsonl").path],
                                 env: ["JOB_COMPLETION_INDEX": String(i), "APICLI_SHARD_COUNT": String(shards)])
            results.set(i, r)
        }
        for i in 0..<shards {
            XCTAssertEqual(results.get(i)?.code, 0, results.get(i)?.stderr ?? "")
            XCTAssertTrue(results.get(i)?.stderr.contains("shard \(i + 1)/\(shards) (Kubernetes Indexed Job") == true, results.get(i)?.stderr ?? "")
        }
        let merged = try CLI.run(["report", "merge"] + (0..<shards).map { dir.appendingPathComponent("shard-\($0).json").path }
                                 + ["--json", dir.appendingPathComponent("m.json").path])
        XCTAssertEqual(merged.code, 0, merged.stdout + merged.stderr)
        let one = try report("one.json"), all = try report("m.json")
        XCTAssertEqual(all["merged"] as? Int, shards)
        for key in ["requests", "errors", "bytes"] {
            XCTAssertEqual(String(describing: overall(one)[key]!), String(describing: overall(all)[key]!), key)
        }
        let perTarget = { (r: [String: Any]) in
            (r["targets"] as? [[String: Any]] ?? []).map { "\($0["name"]!) \($0["requests"]!) \($0["errors"]!)" }
        }
        XCTAssertEqual(perTarget(one), perTarget(all))
        let bad = try XCTUnwrap((all["targets"] as? [[String: Any]])?.first { $0["name"] as? String == "svc.bad" })
        XCTAssertEqual((bad["errors"] as? [String: Int])?["5xx"], bad["requests"] as? Int)
        let histogramCount = { (r: [String: Any]) in ((r["overall"] as? [String: Any])?["histogram"] as? [[Int]] ?? []).map { $0[1] }.reduce(0, +) }
        XCTAssertEqual(histogramCount(all), 61)
        // Every shard's lines carry its index; together they count what the merged report counts.
        var lined = 0
        for i in 0..<shards {
            for line in try String(contentsOf: dir.appendingPathComponent("shard-\(i).jsonl"), encoding: .utf8).split(separator: "\n") {
                let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                XCTAssertEqual(o["shard"] as? [String: Int], ["index": i + 1, "count": shards])
                lined += o["requests"] as? Int ?? 0
            }
        }
        XCTAssertEqual(lined, 61)
        let missing = try CLI.run(["report", "merge", dir.appendingPathComponent("shard-0.json").path, dir.appendingPathComponent("shard-1.json").path])
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.stderr.contains("shard 3 of 3 is missing"), missing.stderr)
    }

    func testCtrlCPrintsTheReportSoFarAndExits130() throws {
        let process = Process()
        process.executableURL = CLI.binary
        let json = dir.appendingPathComponent("i.json")
        process.arguments = ["load", "--targets", dir.appendingPathComponent("targets").path, "-q", "svc.fast",
                             "--rate", "50/s", "--duration", "30s", "--json", json.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        Thread.sleep(forTimeInterval: 1.2)
        kill(process.processIdentifier, SIGINT)
        let elapsed = Date().timeIntervalSince(started)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("stopped: interrupted (Ctrl-C)"), text)
        let n = try XCTUnwrap(overall(try report("i.json"))["requests"] as? Int)
        // The report so far: some requests, never more than 50/s allow in the time it ran (a loaded
        // machine starts the process late, so there is no lower bound but one request).
        XCTAssertTrue(n >= 1 && Double(n) <= elapsed * 50 + 5, "\(n) requests in \(elapsed) s at 50/s")
    }

    func testBadNumbersAndAForeignHost() throws {
        for (args, needle) in [(["--users", "0"], "--users takes 1 to"), (["--threshold", "p95<200"], "with its unit"),
                               (["--rate", "10/s", "--users", "2"], "pick one"), (["--ramp", "0:10/s"], "from:to duration"),
                               (["--weight", "svc.fast=0"], "--weight takes"), (["--duration", "0s"], "--duration takes")] {
            let r = try load(["svc.fast"] + args)
            XCTAssertEqual(r.code, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(needle), "\(args): \(r.stderr)")
        }
        let bad = try CLI.folder(["targets/x.yaml": "baseURL: \(server.url)\ntargets:\n  a: { path: /fast, load: { weight: 0, thresholds: { p95: fast } } }\n"])
        defer { try? FileManager.default.removeItem(at: bad) }
        let r = try CLI.run(["load", "--targets", bad.appendingPathComponent("targets").path, "--requests", "1"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("x.yaml:3:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("load weight must be a whole number from 1 to 1000"), r.stderr)
        XCTAssertTrue(r.stderr.contains("p95 takes a duration"), r.stderr)
        // example.invalid never resolves: nothing is sent either way
        let foreign = try load(["svc.fast", "--requests", "1", "--base-url", "http://example.invalid"])
        XCTAssertEqual(foreign.code, 64, foreign.stderr)
        XCTAssertTrue(foreign.stderr.contains("pass --yes"), foreign.stderr)
    }

    /// Issue 34 items 8 and 9: a name beginning with "127." is not loopback, and the guard judges
    /// where --connect-to sends the connections.
    func testTheGuardRefusesLookAlikesAndRoutedConnections() throws {
        let lookAlike = try load(["svc.fast", "--requests", "1", "--base-url", "http://127.attacker.invalid"])
        XCTAssertEqual(lookAlike.code, 64, lookAlike.stderr)
        XCTAssertTrue(lookAlike.stderr.contains("load would go to 127.attacker.invalid"), lookAlike.stderr)
        let port = URL(string: server.url)!.port!
        let routed = try load(["svc.fast", "--requests", "1", "--connect-to", "127.0.0.1:\(port):example.invalid:\(port)"])
        XCTAssertEqual(routed.code, 64, routed.stderr)
        XCTAssertTrue(routed.stderr.contains("load would go to example.invalid"), routed.stderr)
        XCTAssertEqual(try stats()["requests"] as? Int, 0)
    }

    /// Issue 34 item 10: a loopback server's redirect to a host the guard would refuse is not
    /// followed: each is counted as a refused redirect; one to loopback is followed.
    func testARedirectOutOfTheGuardIsRefusedAndCounted() throws {
        let port = URL(string: server.url)!.port!
        let json = dir.appendingPathComponent("r.json").path
        let out = try CLI.folder(["targets/svc.yaml": """
            baseURL: \(server.url)
            targets:
              away: { path: /redirect, task: { query: { to: "http://example.invalid:\(port)/fast" } } }
              home: { path: /redirect, task: { query: { to: "http://localhost:\(port)/fast" } } }
            """])
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try CLI.run(["load", "--targets", out.appendingPathComponent("targets").path, "-q", "svc.away", "svc.home",
                             "--requests", "10", "--json", json])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("errors: redirect:refused 5"), r.stdout)
        let paths = try XCTUnwrap(try stats()["paths"] as? [String: Int])
        XCTAssertEqual(paths["/redirect"], 10)
        XCTAssertEqual(paths["/fast"], 5, "only the loopback redirects were followed")
    }

    /// A finished exchange's deadline lets go of it: a timer pending until the timeout (60 s) held
    /// each exchange's task and continuation, about 9 KiB a request, so peak memory grew with the
    /// number of requests (Transport/DeadlineClock). Peak RSS of 6,000 requests against 600.
    func testMemoryDoesNotGrowWithTheNumberOfRequests() throws {
        func peakMiB(_ requests: Int) throws -> Double {
            // python's getrusage(RUSAGE_CHILDREN) of its one child: apicli's peak RSS in KiB
            let r = try CLI.run(["load", "--targets", dir.appendingPathComponent("targets").path, "-q", "svc.fast",
                                 "--users", "8", "--requests", "\(requests)"], timeout: 120, wrapper: [
                "python3", "-c", "import resource, subprocess, sys; rc = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL); "
                    + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(rc)"])
            XCTAssertEqual(r.code, 0, r.stderr)
            return try XCTUnwrap(Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), r.stdout) / 1024
        }
        let few = try peakMiB(600), many = try peakMiB(6_000)
        // 5,400 more requests held for 60 s were about 50 MiB more; flat now (the timeline adds 26 KiB a second)
        XCTAssertLessThan(many - few, 12, "peak RSS \(few) MiB for 600 requests, \(many) MiB for 6,000")
    }

    func testTheHTMLReportDrawsItsChartsInChromium() throws {
        let browser = try Chromium()
        let html = dir.appendingPathComponent("load.html")
        let r = try load(["svc.fast", "svc.bad", "--rate", "60/s", "--duration", "2s", "--report-html", html.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        let page = try String(contentsOf: html, encoding: .utf8)
        XCTAssertFalse(page.contains("<script"), "no script")
        XCTAssertTrue(page.contains("id=\"percentiles\""))
        // the charts' colours: throughput bars (green), error bars and p99 (red), p95 (orange), p50 (blue)
        let colours = ["2ca02c", "d62728", "ff7f0e", "1f77b4"]
        let bands = try browser.bands(html, fragment: "", colours: colours, size: "900,1000")
        for c in colours { XCTAssertGreaterThan(bands[c] ?? 0, 0, "colour \(c) drawn: \(bands)") }
        let empty = dir.appendingPathComponent("empty.html")
        try Data("<html><body><h1>apicli load</h1></body></html>".utf8).write(to: empty)
        let none = try browser.bands(empty, fragment: "", colours: colours, size: "900,1000")
        XCTAssertEqual(none.values.reduce(0, +), 0, "the check sees nothing where nothing is drawn")
    }

    // Issue 34 items 5 and 11: load counts response bodies and keeps none (it held each, up to
    // 64 MiB a user: 512 MB at 8 users against endless bodies), holds only what `until:` judges, up
    // to `--max-body`; and in the open model the `--timeout` counts from the scheduled start (waiting
    // at the origin's gate was outside it: a 1 s run against a silent server lasted 7-13 s).

    /// `apicli load` under Tests/Servers/peak-rss.py: the result and the peak RSS in MiB.
    func measured(_ args: [String]) throws -> (CLI.Result, Int) {
        let rss = dir.appendingPathComponent("rss.txt")
        let r = try CLI.run(["load", "--targets", dir.appendingPathComponent("targets").path, "-q"] + args, timeout: 60,
                            wrapper: ["python3", CLI.root.appendingPathComponent("Tests/Servers/peak-rss.py").path, rss.path])
        let kib = Int(try String(contentsOf: rss, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return (r, kib / 1024)
    }

    /// Errors of every kind in a report's `overall`.
    func errors(_ overall: [String: Any]) -> Int {
        (overall["errors"] as? [String: Int] ?? [:]).values.reduce(0, +)
    }

    func testEndlessBodiesAreCountedNotHeld() throws {
        // 8 users against bodies that never end: each request times out after 2 s, nothing held
        let (r, mib) = try measured(["svc.endless", "--users", "8", "--duration", "3s", "--timeout", "2"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("errors: timeout"), r.stdout)
        XCTAssertLessThan(mib, 150, "peak RSS \(mib) MiB (it was ~465 MiB: 64 MiB a user)")
    }

    func testLargeBodiesAreCountedInFull() throws {
        let json = dir.appendingPathComponent("b.json").path
        let (r, mib) = try measured(["svc.big", "--users", "4", "--requests", "20", "--json", json])
        XCTAssertEqual(r.code, 0, r.stderr)
        let all = self.overall(try report("b.json"))
        XCTAssertEqual(all["requests"] as? Int, 20)
        XCTAssertEqual(errors(all), 0)
        XCTAssertEqual(all["bytes"] as? Int, 20 << 21, "every byte of the 2 MiB bodies counted")
        XCTAssertLessThan(mib, 150)
    }

    func testUntilHoldsItsBodyUpToMaxBody() throws {
        // until: judges each answer, so it holds it: at most --max-body (default 1 MiB), a larger is an error
        let (held, _) = try measured(["svc.polled", "--requests", "2"])
        XCTAssertTrue(held.stdout.contains("network:bodyTooLarge 2"), held.stdout)
        let json = dir.appendingPathComponent("p.json").path
        let (r, _) = try measured(["svc.polled", "--requests", "2", "--max-body", "3000000", "--json", json])
        XCTAssertEqual(r.code, 0, r.stderr)
        let all = self.overall(try report("p.json"))
        XCTAssertEqual(errors(all), 0, r.stdout)
        XCTAssertEqual(all["bytes"] as? Int, 2 << 21)
        let (bad, _) = try measured(["svc.polled", "--max-body", "0"])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains("--max-body takes a number of bytes of at least 1, got 0"), bad.stderr)
    }

    func testOpenModelTimeoutCountsFromTheScheduledStart() throws {
        // 100 requests in 1 s to a server that never answers: 16 at a time reach it (the origin's
        // gate), the others wait there, and their wait is inside the 1 s --timeout
        let json = dir.appendingPathComponent("o.json").path
        let start = Date()
        let (r, _) = try measured(["svc.silent", "--rate", "100/s", "--duration", "1s", "--timeout", "1", "--json", json])
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertLessThan(took, 1 + 1 + 1.5, "the run lasts its duration and a timeout (it took 7-13 s)")
        let all = self.overall(try report("o.json"))
        XCTAssertEqual(all["requests"] as? Int, errors(all))
        XCTAssertGreaterThan(all["requests"] as? Int ?? 0, 50)
        let latency = try XCTUnwrap(all["latencyMs"] as? [String: Double])
        XCTAssertLessThanOrEqual(latency["max"] ?? .infinity, 1500, "a latency beyond the timeout: \(latency)")
        XCTAssertTrue(r.stdout.contains("errors: timeout"), r.stdout)
    }
}

/// A dictionary shared by the threads of `concurrentPerform`.
final class Locked2<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set<K: Hashable, V>(_ key: K, _ v: V?) where Value == [K: V] { lock.lock(); value[key] = v; lock.unlock() }
    func get<K: Hashable, V>(_ key: K) -> V? where Value == [K: V] { lock.lock(); defer { lock.unlock() }; return value[key] }
}
