import Foundation
import TestServers
import XCTest

/// Large, slow and broken transfers against Tests/Servers/transfer-server.py on 127.0.0.1: peak memory
/// of 256 MiB downloads and uploads, Ctrl-C, a cut connection and a timeout mid-download (no
/// partial file, no clobbered file), and the progress bar (terminal only, not with --quiet).
final class TransferLimitsTests: XCTestCase {
    nonisolated(unsafe) static var server: TestServer?
    nonisolated(unsafe) static var url = ""
    nonisolated(unsafe) static var files: URL!
    /// Big enough that holding it in memory would show: four times the memory budget.
    static let bigSize: Int64 = 256 << 20
    /// The budget for the whole process (its own baseline is about 45 MiB).
    static let peakBudgetKiB = 64 * 1024

    var dir: URL!
    var targets: String { dir.appendingPathComponent("targets").path }

    /// One server and one sparse 256 MiB file (with marks, so it is not all zeros) for the class.
    override class func setUp() {
        files = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-big-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let big = files.appendingPathComponent("big.bin")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        if let handle = try? FileHandle(forWritingTo: big) {
            for offset in [0, 100 << 20, bigSize - 16] {
                try? handle.seek(toOffset: UInt64(offset))
                handle.write(Data("apicli mark \(offset % 10)...".utf8.prefix(16)))
            }
            try? handle.truncate(atOffset: UInt64(bigSize))
            try? handle.close()
        }
        server = try? TestServer("transfer-server.py", ["--root", files.path, "--lifetime", "600"])
        url = server?.url ?? ""
    }

    override class func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: files)
    }

    override func setUpWithError() throws {
        XCTAssertTrue(Self.url.hasPrefix("http://127.0.0.1:"), "Tests/Servers/transfer-server.py did not start")
        let big = Self.files.appendingPathComponent("big.bin").path
        dir = try CLI.folder(["targets/big.yaml": """
            baseURL: \(Self.url)
            validate: success
            timeout: 120
            targets:
              get: { path: /files/big.bin }
              put: { method: PUT, path: /sink, task: { upload: \(big) } }
              form:
                method: POST
                path: /sink
                task: { multipart: [ { name: f, file: \(big) }, { name: n, value: x } ] }
              slow: { path: "/slow/{size}", params: { size: 4000000 }, task: { query: { seconds: 2.5 } } }
              slowUpload: { method: PUT, path: /sink, task: { upload: \(big), query: { seconds: 2.5 } } }
              cut: { path: /cut/1000000 }
            """])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    /// Runs apicli under Tests/Servers/peak-rss.py; returns the result and the peak RSS in KiB.
    private func measured(_ args: [String], stdout: FileHandle? = nil) throws -> (CLI.Result, Int) {
        let rss = dir.appendingPathComponent("rss.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CLI.root.appendingPathComponent("Tests/Servers/peak-rss.py").path, rss.path,
                             CLI.binary.path] + args + ["--targets", targets]
        process.currentDirectoryURL = dir
        let out = Pipe(), err = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        if stdout != nil { try out.fileHandleForWriting.close() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let kib = Int(try String(contentsOf: rss, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return (CLI.Result(code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                           stderr: String(decoding: stderr, as: UTF8.self), stdoutData: stdout,
                           seconds: Date().timeIntervalSince(start)), kib)
    }

    private func sha256(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }

    private func sink(_ r: CLI.Result) throws -> [String: Any] {
        XCTAssertEqual(r.code, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any], r.stdout)
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".apicli-") }
    }

    // MARK: Memory

    func testABodyOf256MiBToStdoutStreamsUnder64MiB() throws {
        // WHEN the body goes to stdout (a file here, as in `apicli call big.get > file`)
        let out = dir.appendingPathComponent("stdout.bin")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        let (r, kib) = try measured(["call", "big.get"], stdout: handle)
        try handle.close()
        // THEN it streams through in flat memory, byte for byte
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertLessThan(kib, Self.peakBudgetKiB, "peak RSS \(kib) KiB for a 256 MiB body to stdout")
        print("peak RSS, 256 MiB body to stdout: \(kib) KiB in \(String(format: "%.2f", r.seconds)) s")
        XCTAssertEqual(try sha256(out.path), try sha256(Self.files.appendingPathComponent("big.bin").path))
    }

    func testDownloadOf256MiBStaysUnder64MiB() throws {
        let out = dir.appendingPathComponent("big.out")
        let (r, kib) = try measured(["call", "big.get", "-o", out.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertLessThan(kib, Self.peakBudgetKiB, "peak RSS \(kib) KiB for a 256 MiB download")
        print("peak RSS, 256 MiB download: \(kib) KiB in \(String(format: "%.2f", r.seconds)) s")
        XCTAssertEqual(try sha256(out.path), try sha256(Self.files.appendingPathComponent("big.bin").path))
        XCTAssertEqual(try leftovers(), [])
    }

    func testUploadOf256MiBStaysUnder64MiB() throws {
        let (r, kib) = try measured(["call", "big.put"])
        let echo = try sink(r)
        XCTAssertLessThan(kib, Self.peakBudgetKiB, "peak RSS \(kib) KiB for a 256 MiB upload")
        print("peak RSS, 256 MiB upload: \(kib) KiB in \(String(format: "%.2f", r.seconds)) s")
        XCTAssertEqual(echo["bytes"] as? Int, Int(Self.bigSize))
        XCTAssertEqual(echo["chunked"] as? Bool, false, "sent with a Content-Length")
        XCTAssertEqual(echo["sha256"] as? String, try sha256(Self.files.appendingPathComponent("big.bin").path))
    }

    func testMultipartUploadOf256MiBStaysUnder64MiB() throws {
        let (r, kib) = try measured(["call", "big.form"])
        let echo = try sink(r)
        XCTAssertLessThan(kib, Self.peakBudgetKiB, "peak RSS \(kib) KiB for a 256 MiB multipart upload")
        print("peak RSS, 256 MiB multipart upload: \(kib) KiB in \(String(format: "%.2f", r.seconds)) s")
        // The body is the file plus the part headers with a 39-character boundary.
        let b = String(repeating: "-", count: 39)
        let framing = "--\(b)\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n" + "\r\n"
            + "--\(b)\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\nx\r\n--\(b)--\r\n"
        XCTAssertEqual(echo["bytes"] as? Int, Int(Self.bigSize) + framing.utf8.count)
        XCTAssertEqual(echo["chunked"] as? Bool, false)
        XCTAssertTrue((echo["contentType"] as? String)?.hasPrefix("multipart/form-data; boundary=apicli-") == true)
    }

    // MARK: Failures mid-transfer

    func testInterruptMidDownloadLeavesNoPartialFileAndKeepsTheOldOne() throws {
        for (number, code, word) in [(SIGINT, Int32(130), "interrupted"), (SIGTERM, 143, "terminated")] {
            try interrupt(with: number, code: code, word: word)
        }
    }

    private func interrupt(with number: Int32, code: Int32, word: String) throws {
        // GIVEN an existing destination and a download that takes a few seconds
        let out = dir.appendingPathComponent("slow.out")
        try Data("old".utf8).write(to: out)
        let (process, err) = try CLI.started(["call", "big.slow", "-p", "size=4000000", "--targets", targets, "-o", out.path], cwd: dir)
        // WHEN bytes have started to arrive in the temporary file, the signal
        let deadline = Date().addingTimeInterval(10)
        var temporary: [String] = []
        while Date() < deadline {
            temporary = try leftovers()
            if let name = temporary.first,
               let size = try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size] as? Int,
               size > 0 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(temporary.count, 1, "the download writes to one .apicli-XXXXXX file next to the destination")
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        // THEN the documented exit code, no temporary file, the old file as it was
        XCTAssertEqual(process.terminationReason, .exit, word)
        XCTAssertEqual(process.terminationStatus, code, word)
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "\napicli: \(word)\n")
        XCTAssertEqual(try leftovers(), [], word)
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), "old", word)
    }

    func testConnectionCutMidDownloadIsANetworkErrorWithNoFile() throws {
        let out = dir.appendingPathComponent("cut.out")
        let r = try CLI.run(["call", "big.cut", "--targets", targets, "-o", out.path], cwd: dir)
        XCTAssertEqual(r.code, 3)
        let host = Self.url.replacingOccurrences(of: "http://", with: "")
        XCTAssertEqual(r.stderr, "apicli: big.cut: network error: \(host) closed the connection before the body was complete (received 500000 of 1000000 bytes)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        XCTAssertEqual(try leftovers(), [])
    }

    func testTimeoutMidDownloadLeavesNoFile() throws {
        let out = dir.appendingPathComponent("late.out")
        let r = try CLI.run(["call", "big.slow", "--timeout", "1", "--targets", targets, "-o", out.path], cwd: dir)
        XCTAssertEqual(r.code, 4)
        XCTAssertEqual(r.stderr, "apicli: big.slow: timed out after 1 s\n")
        XCTAssertLessThan(r.seconds, 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
        XCTAssertEqual(try leftovers(), [])
    }

    // MARK: Progress

    /// Runs apicli with a terminal (a pseudo-terminal from Python's pty module) as stdin, stdout
    /// and stderr; returns everything the terminal showed.
    private func onATerminal(_ args: [String]) throws -> (code: Int32, screen: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))",
                             CLI.binary.path] + args + ["--targets", targets]
        process.currentDirectoryURL = dir
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let screen = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: screen, as: UTF8.self))
    }

    func testProgressBarOnATerminalForASlowDownload() throws {
        let (code, screen) = try onATerminal(["call", "big.slow", "-o", "slow.out"])
        XCTAssertEqual(code, 0, screen)
        // Redrawn in place: bytes, total, percentage, rate, ETA; erased at the end
        XCTAssertTrue(screen.contains("\r↓ "), screen)
        XCTAssertTrue(screen.contains(" / 3.8 MiB "), screen)
        XCTAssertTrue(screen.contains("MiB/s  ETA 0:0"), screen)
        XCTAssertTrue(screen.hasSuffix("\r\u{1B}[K"), screen)
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("slow.out")).count, 4_000_000)
    }

    func testProgressBarForASlowUpload() throws {
        let (code, screen) = try onATerminal(["call", "big.slowUpload", "-o", "sink.json"])
        XCTAssertEqual(code, 0, screen)
        XCTAssertTrue(screen.contains("\r↑ "), screen)
        XCTAssertTrue(screen.contains(" / 256.0 MiB "), screen)
    }

    func testNoProgressBarWhenQuietOrWhenStderrIsNotATerminal() throws {
        let (code, screen) = try onATerminal(["call", "big.slow", "-o", "slow.out", "--quiet"])
        XCTAssertEqual(code, 0, screen)
        XCTAssertEqual(screen, "")
        let piped = try CLI.run(["call", "big.slow", "--targets", targets, "-o", "piped.out"], cwd: dir)
        XCTAssertEqual(piped.code, 0)
        XCTAssertEqual(piped.stderr, "")
    }
}
