import Foundation
import XCTest

/// Issue 34 item 4: a client that pipelines GETs of a large sample and never reads the answers grew
/// `apicli mock` to gigabytes in seconds, and then it answered no one else. Its answers now wait
/// for the ones before them to drain, the connection is not read meanwhile (backpressure), a
/// connection with more than 128 requests waiting is closed, and one whose answers have not drained
/// for the request timeout is closed.
final class MockBackpressureTests: XCTestCase {
    var dir: URL!
    var mock: MockProcess!

    override func setUpWithError() throws {
        dir = try CLI.folder(["targets/api.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              big: { path: /big, sample: { status: 200, headers: { Content-Type: application/octet-stream }, file: big.bin } }
              hello: { path: /hello, sample: { status: 200, json: { hello: world } } }
            """])
        try Data(repeating: 0x61, count: 1 << 20).write(to: dir.appendingPathComponent("targets/big.bin"))
        mock = try MockProcess(["-q", "--request-timeout", "3"], cwd: dir)
    }

    override func tearDownWithError() throws {
        mock?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    var port: String { String(mock.url.split(separator: ":").last!) }

    /// The mock's resident memory in MiB (/proc/PID/status VmRSS).
    var rss: Int {
        let status = (try? String(contentsOfFile: "/proc/\(mock.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }

    /// A non-reading client (Tests/Servers/hostile-client.py `kind`) in the background.
    func client(_ kind: String, _ args: [String]) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", CLI.root.appendingPathComponent("Tests/Servers/hostile-client.py").path, kind, port] + args
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        return (p, out)
    }

    /// While `client` runs: a normal GET every half second is answered within 3 s; the mock's
    /// largest RSS growth (MiB) over what it was before.
    func watch(_ client: Process, warm: String = "/big") throws -> Int {
        XCTAssertEqual(try Curl.run(["\(mock.url)\(warm)", "-o", "/dev/null"]).code, 0)  // the sample read once
        let before = rss
        var most = 0
        while client.isRunning {
            let start = Date()
            XCTAssertEqual(try Curl.run(["--max-time", "3", "\(mock.url)/hello"]).status, 200, "a normal request got no answer")
            XCTAssertLessThan(Date().timeIntervalSince(start), 3)
            most = max(most, rss - before)
            Thread.sleep(forTimeInterval: 0.5)
        }
        most = max(most, rss - before)
        return most
    }

    func testAPipeliningClientThatNeverReadsIsHeldBackAndClosed() throws {
        // GIVEN 100 GETs of a 1 MB sample pipelined (under the 128 waiting that close a connection)
        // by a client that never reads
        let (client, out) = try client("pipeline", ["/big", "7", "100"])
        // THEN the mock keeps answering others, its memory does not take the 100 MB of answers
        let grew = try watch(client)
        XCTAssertLessThan(grew, 40, "RSS grew by \(grew) MiB")
        // AND the client, whose answers do not drain, is closed after the request timeout (3 s)
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(said.trimmingCharacters(in: .whitespacesAndNewlines), "sent 100 closed yes")
        XCTAssertTrue(mock.process.isRunning)
    }

    func testAClientPipeliningWithoutEndIsClosed() throws {
        // GIVEN a client pipelining GETs of the 1 MB sample as fast as the mock takes them, never reading
        let start = Date()
        let (client, out) = try client("pipeline", ["/big", "6"])
        // THEN the mock keeps answering others and its memory stays flat
        let grew = try watch(client)
        XCTAssertLessThan(grew, 40, "RSS grew by \(grew) MiB")
        // AND the client is closed at once (more than 128 requests waiting), not by the 3 s timeout
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(said.hasSuffix("closed yes\n"), said)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.5)
        XCTAssertTrue(mock.process.isRunning)
    }

    func testWebSocketClientsThatNeverReadGetTheirMessagesAsTheyDrainAndAreClosed() throws {
        // GIVEN a sample of 6 messages of 1 MB (more than the kernel's buffers take, ~4 MB) and 2
        // WebSocket clients of it that never read: the mock wrote every message at once, and the
        // connection stayed open for good (its close waited for them to be written)
        mock.stop()
        try """
            baseURL: http://127.0.0.1:9
            targets:
              hello: { path: /hello, sample: { status: 200, json: { hello: world } } }
              messages:
                path: /messages
                sample:
                  messages:
                    - &m { text: "\(String(repeating: "m", count: 1 << 20))" }
            \(String(repeating: "        - *m\n", count: 5))
            """.write(to: dir.appendingPathComponent("targets/api.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("targets/big.bin"))
        mock = try MockProcess(["-q", "--request-timeout", "3"], cwd: dir)
        let clients = try (0..<2).map { _ in try client("wshold", ["/messages", "15"]) }
        Thread.sleep(forTimeInterval: 2)  // their upgrades (each builds the 6 MB of messages on a loop; slow in a debug build)
        // THEN the mock keeps answering others and its memory stays flat
        let grew = try watch(clients[0].0, warm: "/hello")
        XCTAssertLessThan(grew, 40, "RSS grew by \(grew) MiB")
        // AND each is closed once its messages have not drained for the request timeout (3 s)
        for (p, out) in clients {
            p.waitUntilExit()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(said, "closed yes\n")
        }
        XCTAssertTrue(mock.process.isRunning)
    }
}
