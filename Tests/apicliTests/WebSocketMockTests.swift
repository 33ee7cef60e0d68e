import Foundation
import XCTest

/// `sample: { messages: … }`: `call --stub` prints the messages with their delays, and `apicli
/// mock` serves them on a real WebSocket (RFC 6455 upgrade, text frames, close 1000), read here by
/// Python's `websockets` client (`make venv` installs it).
final class WebSocketMockTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.folder(["targets/chat.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              room:
                path: /rooms/{room}
                params: { room: lobby }
                sample:
                  messages:
                    - { text: "welcome to {room}", delay: 300ms }
                    - { json: { n: 2 }, delay: 300ms }
                samples:
                  quiet: { messages: [ { text: shh } ] }
              plain: { path: /plain, sample: { body: hi } }
            """])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func testCallStubPrintsTheMessagesAfterTheirDelays() throws {
        let start = Date()
        let r = try CLI.run(["call", "chat.room", "--stub", "-p", "room=attic"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "welcome to attic\n{\"n\":2}\n")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.6)
    }

    func testBadMessagesAreReportedWithTheirPlace() throws {
        let bad = try CLI.folder(["targets/bad.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              t:
                path: /t
                sample:
                  messages:
                    - { text: a, json: { b: 1 } }
                    - { delay: -1, text: x }
                  body: also
            """])
        defer { try? FileManager.default.removeItem(at: bad) }
        let r = try CLI.run(["validate"], cwd: bad)
        XCTAssertEqual(r.code, 2, r.stderr)
        for expected in ["targets/bad.yaml:7:11: error: a sample message takes one of text: or json:",
                         "targets/bad.yaml:8:20: error: message delay must be a non-negative duration",
                         "targets/bad.yaml:9:7: error: the sample of target 't' has more than one body: messages and body"] {
            XCTAssertTrue(r.stderr.contains(expected), "\(expected)\n\(r.stderr)")
        }
    }

    /// Python's `websockets` client connects to the mock; the messages come as text frames, paced,
    /// then a normal close; a named sample by `?apicli-sample=`; a plain route still answers HTTP.
    func testMockServesTheMessagesOnAWebSocket() throws {
        let python = CLI.root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no .venv: run make venv (websockets)") }
            throw XCTSkip("no .venv with websockets: run make venv")
        }
        let mock = try MockProcess([], cwd: dir)
        defer { mock.stop() }
        let ws = mock.url.replacingOccurrences(of: "http://", with: "ws://")
        let script = """
            import asyncio, sys, time, websockets
            async def main(url):
                start = time.monotonic()
                async with websockets.connect(url) as ws:
                    async for m in ws:
                        print(f"{time.monotonic() - start:.2f} {m}")
                print("close", ws.close_code)
            asyncio.run(main(sys.argv[1]))
            """
        func read(_ url: String) throws -> [String] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: python)
            p.arguments = ["-c", script, url]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0)
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let lines = try read(ws + "/rooms/cellar")
        XCTAssertEqual(lines.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" },
                       ["welcome to cellar", "{\"n\":2}", "1000"], "\(lines)")
        let first = Double(lines.first?.split(separator: " ").first ?? "") ?? 0
        let second = Double(lines.dropFirst().first?.split(separator: " ").first ?? "") ?? 0
        XCTAssertGreaterThanOrEqual(first, 0.25, "\(lines)")
        XCTAssertGreaterThanOrEqual(second - first, 0.25, "paced: \(lines)")
        XCTAssertEqual(try read(ws + "/rooms/x?apicli-sample=quiet").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" },
                       ["shh", "1000"])
        XCTAssertTrue(mock.waitForStderr("GET /rooms/cellar  chat.room  sample  101"), mock.stderr)
        XCTAssertEqual(try Curl.run([mock.url + "/plain"]).body, "hi")
    }
}
