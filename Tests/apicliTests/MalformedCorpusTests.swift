import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Every file under Malformed/ is a broken target file. Each must end in exit 2, with the first
/// stderr line exactly as recorded in Malformed/expected.tsv (`file:line:col: error: …`), in
/// bounded time, and never as a crash.
final class MalformedCorpusTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")

    /// name → expected first line, with `{dir}` standing for the folder the file is loaded from.
    func expectations() throws -> [(String, String)] {
        let text = try String(contentsOf: Self.corpus.appendingPathComponent("expected.tsv"), encoding: .utf8)
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    func testEveryMalformedFileEndsInExitTwoWithItsExactFirstLine() throws {
        let expected = try expectations()
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".yaml") }
        // GIVEN a corpus of at least 40 files, each with a recorded first line
        XCTAssertGreaterThanOrEqual(files.count, 40)
        XCTAssertEqual(Set(files), Set(expected.map(\.0)), "expected.tsv and the corpus disagree")
        for (name, line) in expected {
            let dir = try CLI.folder([:])
            defer { try? FileManager.default.removeItem(at: dir) }
            try FileManager.default.copyItem(at: Self.corpus.appendingPathComponent(name), to: dir.appendingPathComponent(name))
            // WHEN the folder is loaded
            let r = try CLI.run(["list", "--targets", dir.path], timeout: 20)
            // THEN exit 2, nothing on stdout, and the exact diagnostic
            XCTAssertEqual(r.code, 2, name)
            XCTAssertEqual(r.stdout, "", name)
            let first = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            XCTAssertEqual(first, "\(dir.path)/" + line.replacingOccurrences(of: "{dir}", with: dir.path), name)
        }
    }

    func testAllProblemsOfAFileAreCounted() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Self.corpus.appendingPathComponent("many-errors.yaml"),
                                         to: dir.appendingPathComponent("many-errors.yaml"))
        let r = try CLI.run(["list", "--targets", dir.path])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.hasSuffix("\n4 errors\n"), r.stderr)
    }

    /// A 50 MB file (850,000 targets) broken on its last line: one error, bounded time and memory.
    func testFiftyMegabyteFileEndsInOneClearError() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("big.yaml")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        var chunk = "baseURL: https://api.test\ntargets:\n"
        var written = 0, i = 0
        while written < 50 << 20 {
            chunk += "  t\(i): { path: /items/\(i), doc: target number \(i) }\n"
            i += 1
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                written += chunk.utf8.count
                chunk = ""
            }
        }
        chunk += "  broken: { path: /x\n"
        handle.write(Data(chunk.utf8))
        try handle.close()
        let lines = i + 3

        // Past the default cap (16 MiB) it is refused before it is read
        let capped = try CLI.run(["list", "--targets", dir.path], timeout: 120)
        XCTAssertEqual(capped.code, 2)
        XCTAssertTrue(capped.stderr.hasPrefix("\(url.path): error: the target file is "), capped.stderr)
        // With the cap raised, it is read to its one error, in bounded memory
        // (a debug build on a loaded 2-core machine took over 120 s for the 50 MB: the bound is for a hang)
        let r = try CLI.run(["list", "--targets", dir.path], env: ["APICLI_MAX_TARGET_FILE_SIZE": "100000000"], timeout: 400)
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr.split(separator: "\n").first.map(String.init),
                       "\(url.path):\(lines + 1):1: error: did not find expected ',' or '}'")
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        XCTAssertLessThan(usage.ru_maxrss, 1 << 20, "peak RSS of a child in KiB")  // under 1 GiB
    }
}
