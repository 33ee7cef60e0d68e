import Foundation
import TestServers
import XCTest

/// Issue 34 items 5 and 11, against Tests/Servers/load-server.py: `apicli load` counts response
/// bodies and keeps none (it held each, up to 64 MiB a user: 512 MB at 8 users against endless
/// bodies), holds only what `until:` judges, up to `--max-body`; and in the open model the
/// `--timeout` counts from the scheduled start (waiting at the origin's gate was outside it: a 1 s
/// run against a silent server lasted 13 s, with 12 s latencies).
final class LoadLimitsTests: XCTestCase {
    var server: TestServer!
    var dir: URL!

    override func setUpWithError() throws {
        server = try TestServer("load-server.py", ["--lifetime", "120"])
        dir = try CLI.folder(["targets/s.yaml": """
            baseURL: \(server.url)
            targets:
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

    /// `apicli load` under Tests/Servers/peak-rss.py: the result and the peak RSS in MiB.
    func load(_ args: [String]) throws -> (CLI.Result, Int) {
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

    func report(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent(name))
        return try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["overall"] as? [String: Any])
    }

    func testEndlessBodiesAreCountedNotHeld() throws {
        // 8 users against bodies that never end: each request times out after 2 s, nothing held
        let (r, mib) = try load(["s.endless", "--users", "8", "--duration", "3s", "--timeout", "2"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("errors: timeout"), r.stdout)
        XCTAssertLessThan(mib, 150, "peak RSS \(mib) MiB (it was ~465 MiB: 64 MiB a user)")
    }

    func testLargeBodiesAreCountedInFull() throws {
        let json = dir.appendingPathComponent("b.json").path
        let (r, mib) = try load(["s.big", "--users", "4", "--requests", "20", "--json", json])
        XCTAssertEqual(r.code, 0, r.stderr)
        let overall = try report("b.json")
        XCTAssertEqual(overall["requests"] as? Int, 20)
        XCTAssertEqual(errors(overall), 0)
        XCTAssertEqual(overall["bytes"] as? Int, 20 << 21, "every byte of the 2 MiB bodies counted")
        XCTAssertLessThan(mib, 150)
    }

    func testUntilHoldsItsBodyUpToMaxBody() throws {
        // until: judges each answer, so it holds it: at most --max-body (default 1 MiB), a larger is an error
        let (held, _) = try load(["s.polled", "--requests", "2"])
        XCTAssertTrue(held.stdout.contains("network:bodyTooLarge 2"), held.stdout)
        let json = dir.appendingPathComponent("p.json").path
        let (r, _) = try load(["s.polled", "--requests", "2", "--max-body", "3000000", "--json", json])
        XCTAssertEqual(r.code, 0, r.stderr)
        let overall = try report("p.json")
        XCTAssertEqual(errors(overall), 0, r.stdout)
        XCTAssertEqual(overall["bytes"] as? Int, 2 << 21)
        let (bad, _) = try load(["s.polled", "--max-body", "0"])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains("--max-body takes a number of bytes of at least 1, got 0"), bad.stderr)
    }

    func testOpenModelTimeoutCountsFromTheScheduledStart() throws {
        // 100 requests in 1 s to a server that never answers: 16 at a time reach it (the origin's
        // gate), the others wait there, and their wait is inside the 1 s --timeout
        let json = dir.appendingPathComponent("o.json").path
        let start = Date()
        let (r, _) = try load(["s.silent", "--rate", "100/s", "--duration", "1s", "--timeout", "1", "--json", json])
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertLessThan(took, 1 + 1 + 1.5, "the run lasts its duration and a timeout (it took 7-13 s)")
        let overall = try report("o.json")
        XCTAssertEqual(overall["requests"] as? Int, errors(overall))
        XCTAssertGreaterThan(overall["requests"] as? Int ?? 0, 50)
        let latency = try XCTUnwrap(overall["latencyMs"] as? [String: Double])
        XCTAssertLessThanOrEqual(latency["max"] ?? .infinity, 1500, "a latency beyond the timeout: \(latency)")
        XCTAssertTrue(r.stdout.contains("errors: timeout"), r.stdout)
    }
}
