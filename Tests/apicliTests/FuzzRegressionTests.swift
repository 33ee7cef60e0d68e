import Foundation
import XCTest

/// Every input the fuzzer ever crashed on (Tests/Fuzz/regressions), the shipped targets and the
/// malformed corpus, replayed through the fuzz harness's own function (`apicli-fuzz` built
/// without libFuzzer), and each regression input through `apicli validate`: a clean exit, never
/// a trap, and a diagnostic for the bad ones.
final class FuzzRegressionTests: XCTestCase {
    static let regressions = CLI.root.appendingPathComponent("Tests/Fuzz/regressions")

    func testTheHarnessReplaysEveryInputWithoutATrap() throws {
        let process = Process()
        process.executableURL = CLI.binary.deletingLastPathComponent().appendingPathComponent("apicli-fuzz")
        process.arguments = [Self.regressions.path, CLI.root.appendingPathComponent("targets").path,
                             CLI.root.appendingPathComponent("Tests/apicliTests/Malformed").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, out)
        XCTAssertEqual(process.terminationStatus, 0, out)
        // Every file of the three folders, none skipped.
        let inputs = try [Self.regressions, CLI.root.appendingPathComponent("targets"),
                          CLI.root.appendingPathComponent("Tests/apicliTests/Malformed")].reduce(0) { n, dir in
            n + (try FileManager.default.contentsOfDirectory(atPath: dir.path)).filter { !$0.hasPrefix(".") }.count
        }
        XCTAssertTrue(out.hasPrefix("apicli-fuzz: replayed "), out)
        XCTAssertEqual(Int(out.split(separator: " ")[2]) ?? 0, inputs, out)
    }

    func testEachRegressionInputIsAValidationResultNotACrash() throws {
        let inputs = try FileManager.default.contentsOfDirectory(atPath: Self.regressions.path).sorted()
        for input in inputs where !input.hasPrefix(".") {
            let dir = try CLI.folder([:])
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("fuzz.yaml")
            try FileManager.default.copyItem(at: Self.regressions.appendingPathComponent(input), to: file)
            let r = try CLI.run(["validate", file.path], timeout: 20)
            XCTAssertTrue([0, 2].contains(r.code), "\(input): exit \(r.code)\n\(r.stderr)")
            if r.code == 2 {
                XCTAssertTrue(r.stderr.contains("error: "), "\(input): \(r.stderr)")
            }
        }
    }
}
