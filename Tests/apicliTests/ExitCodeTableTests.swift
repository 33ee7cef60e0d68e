import Foundation
import XCTest

/// The exit codes live in one table (Sources/apicli/ExitCodes.swift): `apicli exit-codes` prints it,
/// `apicli help exit-codes` shows it, and the table of docs/exit-codes.md (which README.md links to) is
/// the same text.
final class ExitCodeTableTests: XCTestCase {
    func testTheDocsHelpAndTheCodeShowTheOneTable() throws {
        let markdown = try CLI.run(["exit-codes", "--markdown"])
        XCTAssertEqual(markdown.code, 0)
        let page = try String(contentsOf: CLI.root.appendingPathComponent("docs/exit-codes.md"), encoding: .utf8)
        let begin = try XCTUnwrap(page.range(of: "<!-- exit-codes:begin -->\n"), "docs/exit-codes.md has no <!-- exit-codes:begin --> line")
        let end = try XCTUnwrap(page.range(of: "<!-- exit-codes:end -->"), "docs/exit-codes.md has no <!-- exit-codes:end --> line")
        XCTAssertEqual(String(page[begin.upperBound..<end.lowerBound]), markdown.stdout,
                       "docs/exit-codes.md's exit-code table differs from `apicli exit-codes --markdown`: paste its output")
        // README.md links to that page
        let readme = try String(contentsOf: CLI.root.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("](docs/exit-codes.md"), "README.md does not link to docs/exit-codes.md")
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
