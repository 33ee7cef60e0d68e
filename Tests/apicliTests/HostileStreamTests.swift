import Foundation
import TestServers
import XCTest

/// Servers that abuse a stream (issue 34): an h2c server flooding control frames, an event stream
/// whose line never ends, a WebSocket server sending frames RFC 6455 forbids. Each on 127.0.0.1;
/// apicli ends with exit 3 naming what the server did, within seconds, its memory flat.
final class HostileStreamTests: XCTestCase {
    var dir: URL!
    var servers: [TestServer] = []
    /// The peak RSS allowed to a call against a hostile server (a debug build idles at about 40 MiB).
    static let peakBudgetKiB = 96 * 1024

    override func setUpWithError() throws {
        dir = try CLI.folder(["targets/.keep": ""])
    }

    override func tearDownWithError() throws {
        for server in servers { server.stop() }
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func start(_ script: String, _ arguments: [String], python: String = "python3") throws -> TestServer {
        let server = try TestServer(script, arguments, python: python)
        servers.append(server)
        return server
    }

    /// Runs apicli in the test's folder under Tests/Servers/peak-rss.py: the result and its peak RSS in KiB.
    func measured(_ args: [String], timeout: Double = 30) throws -> (CLI.Result, Int) {
        let rss = dir.appendingPathComponent("rss-\(UUID().uuidString).txt")
        let r = try CLI.run(args, cwd: dir, timeout: timeout,
                            wrapper: ["python3", CLI.root.appendingPathComponent("Tests/Servers/peak-rss.py").path, rss.path])
        let kib = Int((try? String(contentsOf: rss, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
        return (r, kib)
    }

    // MARK: - h2c floods (item 1)

    /// NIO's HTTP/2 guards catch each flood; apicli drops the connection at once (it left it open
    /// and read on: 2.6 GB in 10 s of PINGs, 3.7 GB of empty CONTINUATIONs) and says what came.
    func testAnH2CFloodDropsTheConnection() throws {
        let ok = try start("h2-flood-server.py", ["--flood", "ok", "--lifetime", "60"])
        let control = try CLI.run(["call", ok.url + "/x", "--http2-prior-knowledge"], cwd: dir)
        XCTAssertEqual(control.code, 0, control.stderr)
        XCTAssertEqual(control.stdout, "ok", "the raw server speaks HTTP/2")
        let floods = [
            "ping": "flooded the HTTP/2 connection with PING or SETTINGS frames (more than 200 in 30 s); apicli dropped the connection",
            "settings": "flooded the HTTP/2 connection with PING or SETTINGS frames (more than 200 in 30 s); apicli dropped the connection",
            "continuation": "flooded the HTTP/2 connection with CONTINUATION frames (more than 5 in a row); apicli dropped the connection",
            "empty-data": "flooded the HTTP/2 connection with empty DATA frames (2 in a row); apicli dropped the connection",
            "rst": "reset the HTTP/2 stream (RST_STREAM CANCEL)",
        ]
        for (flood, words) in floods.sorted(by: { $0.key < $1.key }) {
            let server = try start("h2-flood-server.py", ["--flood", flood, "--seconds", "12", "--lifetime", "60"])
            let host = "127.0.0.1:\(server.port)"
            let (r, kib) = try measured(["call", server.url + "/x", "--http2-prior-knowledge", "--timeout", "10"])
            XCTAssertEqual(r.code, 3, "\(flood): \(r.stderr)")
            XCTAssertEqual(r.stderr, "apicli: \(server.url)/x: network error: \(host) \(words)\n", flood)
            XCTAssertLessThan(r.seconds, 5, flood)
            XCTAssertGreaterThan(kib, 0, flood)
            XCTAssertLessThan(kib, Self.peakBudgetKiB, "\(flood): peak RSS \(kib) KiB")
        }
    }
}
