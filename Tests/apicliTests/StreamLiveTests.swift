import Foundation
import TestServers
import XCTest

/// Event streams live, against Tests/Servers/sse-server.py and `apicli mock`: the idle timeout, a
/// dropped stream resumed with `Last-Event-ID`, `record` writing an events sample, and the mock's
/// stream read by a real browser's `EventSource` (headless Chromium).
final class StreamLiveTests: XCTestCase {
    var server: TestServer!
    var dir: URL!

    override func setUpWithError() throws {
        server = try TestServer("sse-server.py", ["--lifetime", "120", "--gap", "1500"])
        dir = try CLI.folder([
            "targets/s.yaml": """
                baseURL: \(server.url)
                targets:
                  resume: { path: /resume, stream: { reconnect: 2 } }
                  once: { path: /resume }
                  silent: { path: /silent, stream: { idle: 500ms } }
                  patient: { path: /silent, stream: { idle: 3s } }
                  events: { path: /events }
                  endless: { path: /endless, timeout: 60s }
                """,
        ])
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func get(_ path: String) throws -> String {
        try Curl.run([server.url + path]).body
    }

    func testAStreamSilentLongerThanIdleEndsWithExit4() throws {
        let start = Date()
        let r = try CLI.run(["call", "s.silent", "--format", "json"], cwd: dir)
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertEqual(r.stdout, #"{"event":"message","data":"first","id":""}"# + "\n")
        XCTAssertEqual(r.stderr, "apicli: s.silent: the stream was idle for 500 ms (stream: { idle: }): no event came\n")
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.4, "ended at the idle timeout, not at the server's 1.5 s gap")
        let patient = try CLI.run(["call", "s.patient", "--format", "json"], cwd: dir)
        XCTAssertEqual(patient.code, 0, patient.stderr)
        XCTAssertTrue(patient.stdout.hasSuffix(#"{"event":"message","data":"late","id":""}"# + "\n"), patient.stdout)
    }

    func testADroppedStreamIsResumedWithLastEventID() throws {
        let r = try CLI.run(["call", "s.resume", "--format", "json"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            {"event":"message","data":"one","id":"1"}
            {"event":"message","data":"two","id":"2"}
            {"event":"message","data":"n3","id":"3"}
            {"event":"end","data":"n4","id":"4"}

            """)
        XCTAssertEqual(try get("/log"), "-\n2\n", "the second request resumed after id 2")
    }

    func testWithoutReconnectADropIsANetworkError() throws {
        let r = try CLI.run(["call", "s.once", "--format", "json"], cwd: dir)
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 2, r.stdout)
        XCTAssertTrue(r.stderr.contains("closed the connection before the body was complete"), r.stderr)
        XCTAssertEqual(try get("/log"), "-\n")
    }

    /// `record --max-events N` of a stream that never ends: the first N events are recorded and the
    /// stream is closed there, long before the timeout; `call --stub` then prints those N.
    func testRecordMaxEventsBoundsAStreamThatNeverEnds() throws {
        let start = Date()
        let r = try CLI.run(["record", "s.endless", "--max-events", "3"], cwd: dir, timeout: 90)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "ended at the third event, not at the 60 s timeout")
        let file = try String(contentsOf: dir.appendingPathComponent("targets/s.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains(#"- { data: "tick 3", id: "3", delay: "#), file)
        XCTAssertFalse(file.contains("tick 4"), file)
        let stub = try CLI.run(["call", "s.endless", "--stub", "--format", "json"], cwd: dir)
        XCTAssertEqual(stub.code, 0, stub.stderr)
        XCTAssertEqual(stub.stdout, (1...3).map { #"{"event":"message","data":"tick \#($0)","id":"\#($0)"}"# + "\n" }.joined())
        XCTAssertEqual(try CLI.run(["validate"], cwd: dir).code, 0)
        // AND the count is checked
        XCTAssertEqual(try CLI.run(["record", "s.events", "--max-events", "0"], cwd: dir).code, 64)
        XCTAssertEqual(try CLI.run(["record", "s.events", "--max-events", "10001"], cwd: dir).code, 64)
    }

    /// `record` keeps the events and their pacing; `call --stub` then prints what the live call did.
    func testRecordWritesAnEventsSample() throws {
        let live = try CLI.run(["call", "s.events", "--format", "json"], cwd: dir)
        let r = try CLI.run(["record", "s.events"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let file = try String(contentsOf: dir.appendingPathComponent("targets/s.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains(#"- { event: "greeting", data: "hello\nworld", id: "1", retry: 1500, delay: "#), file)
        let lastDelay = try XCTUnwrap(file.range(of: #"data: "{\"n\": 6}", id: "3", delay: "#))
        let ms = Int(file[lastDelay.upperBound...].prefix { $0.isNumber }) ?? 0
        XCTAssertGreaterThanOrEqual(ms, 1400, "the server's 1.5 s gap before the last event is kept")
        let validate = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(validate.code, 0, validate.stderr)
        let stub = try CLI.run(["call", "s.events", "--stub", "--format", "json"], cwd: dir)
        XCTAssertEqual(stub.code, 0, stub.stderr)
        XCTAssertEqual(stub.stdout, live.stdout)
    }

    /// A real `EventSource` in headless Chromium reads the mock's stream; the page (served by the
    /// same mock) writes what it received into the DOM and its title once `done` came.
    func testABrowsersEventSourceReadsTheMocksStream() throws {
        let browser = try Chromium()
        let site = try CLI.folder([
            "targets/feed.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  ticks:
                    path: /ticks
                    sample:
                      events:
                        - { event: tick, data: one, id: "1", delay: 200ms }
                        - { data: { n: 2 }, id: "2", retry: 1500, delay: 200ms }
                        - { event: done, data: "line1\\nline2", delay: 200ms }
                  page:
                    path: /page
                    sample:
                      headers: { Content-Type: text/html }
                      body: |
                        <!doctype html><html><body><pre id="log"></pre><script>
                        const got = [];
                        const es = new EventSource("/ticks");
                        const note = e => { got.push(e.type + "|" + e.data + "|" + e.lastEventId);
                          document.getElementById("log").textContent = got.join("~"); };
                        es.onmessage = note;
                        es.addEventListener("tick", note);
                        es.addEventListener("done", e => { note(e); es.close(); document.title = "done " + got.length; });
                        </script></body></html>
                """,
        ])
        defer { try? FileManager.default.removeItem(at: site) }
        let mock = try MockProcess([], cwd: site)
        defer { mock.stop() }
        let dom = String(decoding: try browser.run(["--dump-dom", "--virtual-time-budget=10000", mock.url + "/page"]), as: UTF8.self)
        XCTAssertTrue(dom.contains("<title>done 3</title>"), dom)
        XCTAssertTrue(dom.contains(#"<pre id="log">tick|one|1~message|{"n":2}|2~done|line1"# + "\nline2|2</pre>"), dom)
        XCTAssertTrue(mock.waitForStderr("GET /ticks  feed.ticks  sample  200"), mock.stderr)
    }
}
