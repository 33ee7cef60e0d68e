import Foundation
import XCTest

/// Tests/Servers/delay-server.c, the bench's latency-row server (compiled here with the system's C
/// compiler): it answers `/delay?ms=N` no sooner than N ms after the request, on kept-alive
/// connections, one thread per connection, and refuses a bad `ms`. `apicli load` measures it.
final class DelayServerTests: XCTestCase {
    var process: Process?
    var url = ""
    var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.folder([:])
        let binary = dir.appendingPathComponent("delay-server")
        let source = CLI.root.appendingPathComponent("Tests/Servers/delay-server.c").path
        guard let cc = ["cc", "clang", "gcc"].first(where: { Self.onPath($0) }) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no C compiler (cc, clang or gcc) on PATH") }
            throw XCTSkip("no C compiler on PATH")
        }
        let build = try CLI.run(["-O2", "-pthread", "-o", binary.path, source], timeout: 120, executable: Self.onPathURL(cc))
        XCTAssertEqual(build.code, 0, "\(cc) Tests/Servers/delay-server.c: \(build.stderr)")
        let p = Process()
        p.executableURL = binary
        p.arguments = ["--delay-ms", "50", "--lifetime", "300"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        var line = Data()
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        url = String(decoding: line, as: UTF8.self)
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:"), "delay-server printed '\(url)'")
        try Data("""
            baseURL: \(url)
            targets:
              delay: { path: /delay }
              short: { path: /delay, task: { query: { ms: "300" } } }
              bad: { path: /delay, task: { query: { ms: "-1" } } }
              fast: { path: /fast }
            """.utf8).write(to: dir.appendingPathComponent("dl.yaml"))
    }

    override func tearDownWithError() throws {
        if let process, process.isRunning { process.terminate(); process.waitUntilExit() }
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    static func onPathURL(_ name: String) -> URL? {
        for d in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(d)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return URL(fileURLWithPath: path) }
        }
        return nil
    }

    static func onPath(_ name: String) -> Bool { onPathURL(name) != nil }

    func report(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent(name))
        let r = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(r["overall"] as? [String: Any])
    }

    func testADelayIsNeverShorterThanAsked() throws {
        // 12 requests on 2 kept-alive connections: none answered sooner than the 50 ms asked
        let json = dir.appendingPathComponent("d.json").path
        let r = try CLI.run(["load", "dl.delay", "--targets", dir.path, "--users", "2", "--requests", "12", "-q", "--json", json])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        let overall = try report("d.json")
        XCTAssertEqual(overall["requests"] as? Int, 12)
        XCTAssertEqual((overall["errors"] as? [String: Any])?.count, 0, "\(overall)")
        // the histogram's lowest bucket (microseconds; its precision is a few in a thousand)
        let lowest = try XCTUnwrap((overall["histogram"] as? [[Double]])?.first?.first)
        XCTAssertGreaterThanOrEqual(lowest, 49_500, "the server answered before its delay")
        let ms = try XCTUnwrap(overall["latencyMs"] as? [String: Double])
        XCTAssertLessThan(ms["p50"]!, 5000, "\(ms)")
        let body = try CLI.run(["call", "dl.delay", "--targets", dir.path])
        XCTAssertEqual(body.code, 0, body.stderr)
        XCTAssertTrue(body.stdout.contains("\"slept_ms\": 50"), body.stdout)
    }

    func testConnectionsSleepInParallelAndABadDelayIsRefused() throws {
        // 8 users, one 300 ms request each: a thread per connection answers all in ~300 ms; one
        // at a time the last would wait 2.4 s
        let json = dir.appendingPathComponent("p.json").path
        let r = try CLI.run(["load", "dl.short", "--targets", dir.path, "--users", "8", "--requests", "8", "-q", "--json", json])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        let ms = try XCTUnwrap(try report("p.json")["latencyMs"] as? [String: Double])
        XCTAssertGreaterThanOrEqual(ms["p50"]!, 299, "\(ms)")
        XCTAssertLessThan(ms["max"]!, 1800, "requests waited for each other: \(ms)")
        let bad = try CLI.run(["call", "dl.bad", "--targets", dir.path])
        XCTAssertTrue(bad.stdout.contains("ms must be 0 to 60000"), bad.stdout + bad.stderr)
    }
}
