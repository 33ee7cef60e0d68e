import Foundation
import XCTest
@testable import apicli

/// Where output goes when things go wrong: full disks, Ctrl-C, special destinations.
final class OutputTests: XCTestCase {
    func testFullStandardOutputExitsFiveWithAClearLine() throws {
        // GIVEN stdout on /dev/full WHEN a body is printed THEN exit 5 and the reason on stderr
        let r = try CLI.run(["call", "github.zen", "--stub"], stdout: "/dev/full")
        XCTAssertEqual(r.code, 5)
        XCTAssertEqual(r.stderr, "apicli: cannot write to standard output: No space left on device\n")
    }

    /// A special destination (here a FIFO; the same rule keeps `-o /dev/stdout` a symlink) is
    /// written in place: renaming a temporary file over it would replace it with a regular file.
    func testFIFODestinationIsWrittenInPlace() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo]
        let out = Pipe()
        reader.standardOutput = out
        try reader.run()
        let r = try CLI.run(["call", "github.zen", "--stub", "-o", fifo])
        reader.waitUntilExit()
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "Design for failure.")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO must still be a FIFO")
    }

    func testSymlinkDestinationIsWrittenThroughNotReplaced() throws {
        let dir = try CLI.folder(["real.txt": "old"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("link.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.appendingPathComponent("real.txt").path)
        let r = try CLI.run(["call", "github.zen", "--stub", "-o", link])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), dir.appendingPathComponent("real.txt").path)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("real.txt"), encoding: .utf8), "Design for failure.")
    }

    func testMissingFolderForOutputFile() throws {
        let r = try CLI.run(["call", "github.zen", "--stub", "-o", "/nonexistent/apicli/out.txt"])
        XCTAssertEqual(r.code, 5)
        XCTAssertEqual(r.stderr, "apicli: github.zen: cannot write /nonexistent/apicli/out.txt: No such file or directory\n")
    }

    func testInterruptExitsOneHundredThirtyAtOnce() throws {
        // GIVEN a call that would wait 30 s (a delayed sample)
        let dir = try CLI.folder(["slow.yaml": "baseURL: https://x.test\ntargets:\n  wait: { sample: { delay: 30, body: late } }\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["call", "slow.wait", "--stub", "--targets", dir.path, "-o", dir.appendingPathComponent("out").path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        // WHEN Ctrl-C arrives
        let start = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        // THEN exit 130 promptly, a line on stderr, no output file
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "\napicli: interrupted\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["slow.yaml"])
    }

    func testEachHandledSignalEndsAStubCallWithItsCodeAndLeavesNoFolderItMade() throws {
        // GIVEN a stub call (its handler runs on the main thread, no other thread started) waiting
        // 30 s before it writes a download into two folders it makes
        for (number, code, word) in [(SIGINT, Int32(130), "interrupted"), (SIGTERM, 143, "terminated"), (SIGHUP, 129, "hung up")] {
            let dir = try CLI.folder(["slow.yaml": "baseURL: https://x.test\ntargets:\n"
                + "  wait: { task: { download: made/deeper/file.bin }, sample: { delay: 30, body: late } }\n"])
            defer { try? FileManager.default.removeItem(at: dir) }
            let (process, err) = try CLI.started(["call", "slow.wait", "--stub", "--targets", dir.path], cwd: dir)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("made/deeper").path))?.isEmpty != false {
                Thread.sleep(forTimeInterval: 0.05)
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("made/deeper").path).count, 1, word)
            // WHEN the signal arrives
            kill(process.processIdentifier, number)
            process.waitUntilExit()
            // THEN its exit code and line, the temporary file and both folders gone
            XCTAssertEqual(process.terminationReason, .exit, word)
            XCTAssertEqual(process.terminationStatus, code, word)
            XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "\napicli: \(word)\n")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["slow.yaml"], word)
        }
    }

    func testSignalExitStatusesAreTheDocumentedOnes() {
        // SignalExit exits with 128 + the signal's number; docs/exit-codes.md names these three.
        XCTAssertEqual(ExitStatus.interrupted.rawValue, 128 + SIGINT)
        XCTAssertEqual(ExitStatus.terminated.rawValue, 128 + SIGTERM)
        XCTAssertEqual(ExitStatus.hungUp.rawValue, 128 + SIGHUP)
    }

    func testClosedPipeExitsQuietly() throws {
        // `apicli list | head -1`: the pipe closes early; no error, exit 0
        let dir = try CLI.folder(["many.yaml": "baseURL: https://x.test\ntargets:\n"
            + (0..<20000).map { "  t\($0): { path: /\($0) }\n" }.joined()])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "'\(CLI.binary.path)' list --targets '\(dir.path)' | head -1 >/dev/null; echo ${PIPESTATUS[0]}"]
        let out = Pipe()
        process.standardOutput = out
        let err = Pipe()
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "0\n")
        XCTAssertEqual(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
    }
}
