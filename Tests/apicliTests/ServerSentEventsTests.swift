import Foundation
import TestServers
import XCTest

/// `call` on a text/event-stream response against Tests/Servers/sse-server.py, which misbehaves on
/// purpose (BOM, lines split across writes, CR and CRLF ends, comments, retry, id, a pause):
/// each event printed as it arrives, in the three formats.
final class ServerSentEventsTests: XCTestCase {
    var server: TestServer!
    var dir: URL!

    override func setUpWithError() throws {
        server = try TestServer("sse-server.py", ["--lifetime", "120", "--gap", "1500"])
        dir = try CLI.folder([
            "targets/sse.yaml": """
                baseURL: \(server.url)
                targets:
                  events: { path: /events }
                  plain: { path: /plain }
                """,
        ])
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    static let expectedJSON = [
        #"{"event":"greeting","data":"hello\nworld","id":"1"}"#,
        #"{"event":"message","data":"cr only","id":"1"}"#,
        #"{"event":"message","data":"crlf","id":"2"}"#,
        #"{"event":"message","data":"","id":"2"}"#,
        #"{"event":"message","data":" two spaces","id":"2"}"#,
        #"{"event":"end","data":"{\"n\": 6}","id":"3"}"#,
    ]

    func testJSONFormatPrintsEachEventFollowingTheStandard() throws {
        let r = try CLI.run(["call", "sse.events", "--format", "json"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").map(String.init), Self.expectedJSON, r.stdout)
    }

    func testEventsFormatPrintsBlocks() throws {
        let r = try CLI.run(["call", "sse.events", "--format", "events"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("event: greeting\nid: 1\ndata: hello\ndata: world\n\nevent: message\nid: 1\ndata: cr only\n\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("event: end\nid: 3\ndata: {\"n\": 6}\n\n"), r.stdout)
        XCTAssertFalse(r.stdout.contains("never dispatched"))
    }

    func testRawFormatIsTheBytesAndIsTheDefaultInAPipe() throws {
        let raw = try CLI.run(["call", "sse.events", "--format", "raw"], cwd: dir)
        let plain = try CLI.run(["call", "sse.events"], cwd: dir)
        XCTAssertEqual(raw.code, 0, raw.stderr)
        XCTAssertEqual(Array(raw.stdoutData.prefix(3)), [0xEF, 0xBB, 0xBF])
        XCTAssertTrue(raw.stdoutData.count == 203 && raw.stdout.hasSuffix("data: never dispatched\n"), raw.stdout)
        XCTAssertEqual(raw.stdoutData, plain.stdoutData)
    }

    func testOtherBodiesAreUnchanged() throws {
        let r = try CLI.run(["call", "sse.plain", "--format", "json"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "not a stream\n")
    }

    /// The events before the server's 1.5 s pause are on stdout before the pause ends.
    func testEventsArriveAsTheyAreSent() throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["call", "sse.events", "--format", "json"]
        process.currentDirectoryURL = dir
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        var text = Data()
        var firstAt: Double?
        while let chunk = try pipe.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty {
            text += chunk
            if firstAt == nil, text.last == 0x0A { firstAt = Date().timeIntervalSince(start) }
        }
        process.waitUntilExit()
        let total = Date().timeIntervalSince(start)
        let first = try XCTUnwrap(firstAt)
        XCTAssertEqual(String(decoding: text, as: UTF8.self).split(separator: "\n").count, 6)
        XCTAssertGreaterThan(total - first, 1.0, "the first event waited for the end (first \(first) s, total \(total) s)")
    }
}
