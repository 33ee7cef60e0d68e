import Foundation
import XCTest

/// `apicli call` against a server that misbehaves on purpose (scripts/faultserver.py, loopback
/// only): each fault ends in the documented exit code, one clear line, within the timeout, and
/// no output file.
final class FaultTests: XCTestCase {
    nonisolated(unsafe) static var server: Process?
    nonisolated(unsafe) static var port = 0
    var dir: URL!

    override class func setUp() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CLI.root.appendingPathComponent("scripts/faultserver.py").path, "--lifetime", "300"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
            let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
            port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            server = process
        } catch {
            port = 0
        }
    }

    override class func tearDown() {
        server?.terminate()
        server?.waitUntilExit()
    }

    override func setUpWithError() throws {
        XCTAssertNotEqual(Self.port, 0, "the fault server did not start")
        dir = try CLI.folder(["fault.yaml": """
            baseURL: http://127.0.0.1:\(Self.port)
            timeout: 2
            validate: success
            targets:
              ok: { path: /ok }
              resetHeaders: { path: /reset-headers }
              shortBody: { path: /short-body }
              stallHeaders: { path: /stall-headers }
              stallBody: { path: /stall-body }
              badStatus: { path: /bad-status }
              redirectLoop: { path: /redirect-loop }
              hugeHeader: { path: /huge-header }
              badGzip: { path: /bad-gzip }
            """])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    /// Calls `fault.NAME -o FILE`; checks exit code, the exact stderr line, time, and that no file was left.
    func expect(_ name: String, code: Int32, line: String, file: StaticString = #filePath, at: UInt = #line) throws {
        let output = dir.appendingPathComponent("out-\(name)")
        let r = try CLI.run(["call", "fault.\(name)", "--targets", dir.path, "-o", output.path], timeout: 20)
        XCTAssertEqual(r.code, code, r.stderr, file: file, line: at)
        XCTAssertEqual(r.stderr, line.replacingOccurrences(of: "HOST", with: "127.0.0.1:\(Self.port)") + "\n", file: file, line: at)
        XCTAssertLessThan(r.seconds, 10, file: file, line: at)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "a failed call left \(output.path)", file: file, line: at)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "fault.yaml" }
        XCTAssertEqual(leftovers, [], "temporary files left behind", file: file, line: at)
    }

    func testControlCaseWritesTheFile() throws {
        let output = dir.appendingPathComponent("ok.txt")
        let r = try CLI.run(["call", "fault.ok", "--targets", dir.path, "-o", output.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "ok")
    }

    func testRefused() throws {
        let r = try CLI.run(["call", "fault.ok", "--targets", dir.path, "--base-url", "http://127.0.0.1:9"])
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: fault.ok: network error: cannot connect to 127.0.0.1:9 (connection refused)\n")
    }

    func testResetMidHeaders() throws {
        try expect("resetHeaders", code: 3, line: "apicli: fault.resetHeaders: network error: the connection to HOST was lost")
    }

    func testClosedMidBody() throws {
        try expect("shortBody", code: 3, line: "apicli: fault.shortBody: network error: HOST closed the connection before the body was complete (transfer closed with 990 bytes remaining to read)")
    }

    func testStallBeforeTheHeadTimesOut() throws {
        try expect("stallHeaders", code: 4, line: "apicli: fault.stallHeaders: timed out after 2 s")
    }

    func testStallDuringTheBodyTimesOut() throws {
        try expect("stallBody", code: 4, line: "apicli: fault.stallBody: timed out after 2 s")
    }

    func testMalformedStatusLine() throws {
        try expect("badStatus", code: 3, line: "apicli: fault.badStatus: network error: HOST sent a malformed status line")
    }

    func testRedirectLoop() throws {
        try expect("redirectLoop", code: 3, line: "apicli: fault.redirectLoop: network error: too many redirects from HOST")
    }

    func testHundredMegabyteHeader() throws {
        try expect("hugeHeader", code: 3, line: "apicli: fault.hugeHeader: network error: the response head from HOST is too large")
    }

    func testGzipThatDoesNotInflate() throws {
        try expect("badGzip", code: 3, line: "apicli: fault.badGzip: network error: HOST sent a compressed body that does not decode (Error while processing content unencoding: incorrect header check)")
    }
}
