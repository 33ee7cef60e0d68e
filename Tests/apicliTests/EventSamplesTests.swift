import Foundation
import XCTest

/// `sample: { events: … }`: validated with file:line:col, printed by `call --stub` with their
/// delays, judged by `check --stub` with `expect: { events: … }`, and served by `apicli mock` as a
/// real chunked `text/event-stream` (read here by `curl -N`, event by event).
final class EventSamplesTests: XCTestCase {
    var dir: URL!

    static let feed = """
        baseURL: http://127.0.0.1:9
        targets:
          ticks:
            path: /ticks/{room}
            params: { room: lobby }
            sample:
              headers: { Access-Control-Allow-Origin: "*" }
              events:
                - { event: tick, data: "hello {room}", id: "1", delay: 400ms }
                - { data: { n: 2 }, id: "2", retry: 1500, delay: 400ms }
                - { event: done, data: "line1\\nline2", delay: 400ms }
            expect:
              events:
                count: 3
                has: [ { event: tick, data: "~hello" }, { json: { "$.n": 2 } } ]
                until: { event: done }
          counted:
            path: /counted
            sample:
              events: [ { data: { n: 1 } }, { data: { n: 7 } } ]
            expect:
              events: { count: { ">=": 3 }, has: [ { event: missing } ], last: { "$.n": 8 } }
        """

    override func setUpWithError() throws {
        dir = try CLI.folder(["targets/feed.yaml": Self.feed])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func testCallStubPrintsEachEventAfterItsDelay() throws {
        let start = Date()
        let r = try CLI.run(["call", "feed.ticks", "--stub", "--format", "json", "-p", "room=attic"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            {"event":"tick","data":"hello attic","id":"1"}
            {"event":"message","data":"{\\"n\\":2}","id":"2"}
            {"event":"done","data":"line1\\nline2","id":"2"}

            """)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1.2, "the three delays were waited")
    }

    func testCheckStubJudgesTheEvents() throws {
        let pass = try CLI.run(["check", "--stub", "feed.ticks"], cwd: dir)
        XCTAssertEqual(pass.code, 0, pass.stdout + pass.stderr)
        let fail = try CLI.run(["check", "--stub", "feed.counted"], cwd: dir)
        XCTAssertEqual(fail.code, 1, fail.stdout + fail.stderr)
        XCTAssertTrue(fail.stdout.contains("the event count is 2, expected >= 3"), fail.stdout)
        XCTAssertTrue(fail.stdout.contains("none of 2 events matched (event missing)"), fail.stdout)
        XCTAssertTrue(fail.stdout.contains("last event: $.n is 7, expected 8"), fail.stdout)
    }

    func testBadEventsAreReportedWithTheirPlace() throws {
        let bad = try CLI.folder(["targets/bad.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              t:
                path: /t
                sample:
                  events:
                    - { event: "a\\nb", data: x }
                    - { retry: -1 }
                    - { delay: 1 }
                    - { data: x, colour: red }
                    - nope
            """])
        defer { try? FileManager.default.removeItem(at: bad) }
        let r = try CLI.run(["validate"], cwd: bad)
        XCTAssertEqual(r.code, 2, r.stderr)
        for expected in ["targets/bad.yaml:7:20: error: event name holds a line break",
                         "targets/bad.yaml:8:20: error: event retry (milliseconds) must be a whole number from 0 to 86400000, not '-1'",
                         "targets/bad.yaml:9:11: error: a sample event needs data: (or id: or retry: alone)",
                         "targets/bad.yaml:10:22: error: unknown key 'colour'",
                         "targets/bad.yaml:11:11: error: a sample event must be a mapping, not a scalar"] {
            XCTAssertTrue(r.stderr.contains(expected), "\(expected)\n\(r.stderr)")
        }
    }

    /// `curl -N` reads the mock's stream: chunked, text/event-stream, each event when its delay is over.
    func testMockStreamsTheEventsToCurl() throws {
        let mock = try MockProcess([], cwd: dir)
        defer { mock.stop() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["curl", "-sN", "-i", "--max-time", "10", mock.url + "/ticks/cellar"]
        var env = ProcessInfo.processInfo.environment
        env["NO_PROXY"] = "127.0.0.1"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        let start = Date()
        try p.run()
        var text = Data()
        var firstEventAt: Double?
        while let chunk = try out.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty {
            text += chunk
            if firstEventAt == nil, String(decoding: text, as: UTF8.self).contains("data: hello cellar\n\n") {
                firstEventAt = Date().timeIntervalSince(start)
            }
        }
        p.waitUntilExit()
        let total = Date().timeIntervalSince(start)
        let response = String(decoding: text, as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertTrue(response.lowercased().contains("content-type: text/event-stream"), response)
        XCTAssertTrue(response.lowercased().contains("transfer-encoding: chunked"), response)
        XCTAssertTrue(response.hasSuffix("""
            event: tick
            id: 1
            data: hello cellar

            id: 2
            retry: 1500
            data: {"n":2}

            event: done
            data: line1
            data: line2


            """), response)
        let first = try XCTUnwrap(firstEventAt)
        XCTAssertGreaterThanOrEqual(first, 0.35)
        XCTAssertLessThan(first, total - 0.6, "the first event came before the stream ended (\(first) of \(total) s)")
        XCTAssertTrue(mock.waitForStderr("GET /ticks/cellar  feed.ticks  sample  200"), mock.stderr)
    }
}
