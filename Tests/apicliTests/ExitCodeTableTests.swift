import Foundation
import XCTest

/// The exit codes live in one table (Sources/apicli/ExitCodes.swift): `apicli exit-codes` prints it,
/// `apicli help exit-codes` shows it, and README's table is the same text.
final class ExitCodeTableTests: XCTestCase {
    func testReadmeHelpAndTheCodeShowTheOneTable() throws {
        let markdown = try CLI.run(["exit-codes", "--markdown"])
        XCTAssertEqual(markdown.code, 0)
        let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try XCTUnwrap(readme.range(of: "<!-- exit-codes:begin -->\n"))
        let end = try XCTUnwrap(readme.range(of: "<!-- exit-codes:end -->"))
        XCTAssertEqual(String(readme[begin.upperBound..<end.lowerBound]), markdown.stdout,
                       "README's exit-code table differs from `apicli exit-codes --markdown`: paste its output")
        // help exit-codes shows every code of the table; the root help points at it
        let help = try CLI.run(["help", "exit-codes"])
        XCTAssertEqual(help.code, 0)
        for line in markdown.stdout.split(separator: "\n").dropFirst(2) {
            let code = line.split(separator: "|")[0].trimmingCharacters(in: .whitespaces)
            XCTAssertTrue(("\n" + help.stdout).contains("\n\(code) "), "code \(code) in\n\(help.stdout)")
        }
        XCTAssertTrue(try CLI.run(["--help"]).stdout.contains("apicli help exit-codes"))
    }
}
