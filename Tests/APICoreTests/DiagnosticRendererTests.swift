import Foundation
import XCTest
@testable import APIDiagnostics
@testable import APITargets

/// `DiagnosticRenderer`: `file:line:col: error: message`, the source line, a caret under the
/// column, notes with their own excerpts, and the hint last.
final class DiagnosticRendererTests: XCTestCase {

    private func render(_ d: Diagnostic) -> String {
        var renderer = DiagnosticRenderer()
        return renderer.render(d)
    }

    /// The one diagnostic loading fixture `relative` produces.
    private func loadDiagnostic(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> Diagnostic {
        let path = Fixtures.path(relative)
        let error = try XCTUnwrap(expectAPIError({ () throws(APIError) in try TargetFile.load(path) }, file: file, line: line),
                                  file: file, line: line)
        let found = diagnostics(of: error, file: file, line: line)
        XCTAssertEqual(found.count, 1, "\(found)", file: file, line: line)
        return try XCTUnwrap(found.first, file: file, line: line)
    }

    /// The YAML layer's error for fixture `relative`, as a diagnostic in that file.
    private func yamlDiagnostic(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> Diagnostic {
        let path = Fixtures.path(relative)
        let bytes = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: path), file: file, line: line))
        let error = try XCTUnwrap(yamlError(bytes, file: file, line: line), file: file, line: line)
        return Diagnostic(file: path, error)
    }

    func testUnknownKeyFromAFixtureRendersSourceCaretAndHint() throws {
        // GIVEN the diagnostic of a fixture with a typo'd key
        let d = try loadDiagnostic("malformed/unknown-key.yaml")
        // WHEN rendered
        let text = render(d)
        // THEN location, source line, caret under column 5, and the hint
        XCTAssertEqual(text, """
            \(d.file!):5:5: error: unknown key 'pth' in target 'zen'
              5 |     pth: /zen
                |     ^
                hint: did you mean 'path'?

            """)
    }

    func testDuplicateKeyRendersTheNoteWithItsOwnExcerpt() throws {
        // GIVEN the diagnostic of a fixture with a duplicate target
        let d = try loadDiagnostic("malformed/duplicate-key.yaml")
        // WHEN rendered
        let text = render(d)
        // THEN the error and the note each show their line
        XCTAssertEqual(text, """
            \(d.file!):5:3: error: duplicate key 'zen'
              5 |   zen: { path: /zen2 }
                |   ^
            \(d.file!):4:3: note: first defined here
              4 |   zen: { path: /zen }
                |   ^

            """)
    }

    func testLibyamlErrorRendersItsContextAsANote() throws {
        // GIVEN the diagnostic of a fixture with a bad indent
        let d = try loadDiagnostic("malformed/bad-indent.yaml")
        // WHEN rendered
        let text = render(d)
        // THEN libyaml's problem and context are both drawn
        XCTAssertEqual(text, """
            \(d.file!):6:4: error: did not find expected key
              6 |    method: GET
                |    ^
            \(d.file!):4:3: note: while parsing a block mapping
              4 |   zen:
                |   ^
                hint: line 6 is indented 3 spaces, but the keys of the mapping on line 4 are indented 2; indent it like the key it belongs beside

            """)
    }

    func testHintComesAfterNotesAndTheGutterFitsTheLineNumber() {
        // GIVEN a diagnostic on line 13 of the contract file, with a note on line 8 and a hint
        let path = Fixtures.path("catalog/github.yaml")
        let d = Diagnostic(file: path, mark: at(13, 13), message: "something about the body", hint: "fix it",
                           notes: [Diagnostic.Note(message: "see the path", mark: at(8, 11))])
        // WHEN rendered
        let text = render(d)
        // THEN the gutter is as wide as each line number, and the hint is last
        XCTAssertEqual(text, """
            \(path):13:13: error: something about the body
              13 |       body: "Design for failure."
                 |             ^
            \(path):8:11: note: see the path
              8 |     path: /zen
                |           ^
                hint: fix it

            """)
    }

    func testDiagnosticsWithoutAPositionOrSource() {
        // GIVEN diagnostics with no mark, no file, a file that cannot be read, and a line past the end
        let path = Fixtures.path("catalog/github.yaml")
        let noMark = Diagnostic(file: path, mark: nil, message: "cannot read target file")
        let noFile = Diagnostic(file: nil, mark: nil, message: "unknown target 'x'", hint: "`apicli list` shows every target")
        let unreadable = Diagnostic(file: "/nonexistent-dir/x.yaml", mark: at(3, 4), message: "gone")
        let pastEnd = Diagnostic(file: path, mark: at(300, 1), message: "far")
        // THEN only what is known is drawn
        XCTAssertEqual(render(noMark), "\(path): error: cannot read target file\n")
        XCTAssertEqual(render(noFile), "error: unknown target 'x'\n    hint: `apicli list` shows every target\n")
        XCTAssertEqual(render(unreadable), "/nonexistent-dir/x.yaml:3:4: error: gone\n")
        XCTAssertEqual(render(pastEnd), "\(path):300:1: error: far\n")
    }

    func testTabsBeforeTheColumnAreKeptSoTheCaretLinesUp() {
        // GIVEN a line with a tab before the marked column
        let path = Fixtures.path("render/tabs.txt")
        let d = Diagnostic(file: path, mark: at(1, 12), message: "here")
        // WHEN rendered
        let text = render(d)
        // THEN the tab is repeated in the caret line and other characters become spaces
        XCTAssertEqual(text, "\(path):1:12: error: here\n  1 | key:\tvalue *nope\n    |     \t      ^\n")
    }

    func testLongLinesAreCutAt200Characters() {
        // GIVEN a 256-character line
        let path = Fixtures.path("render/long.txt")
        let d = Diagnostic(file: path, mark: at(1, 7), message: "long")
        // WHEN rendered
        let text = render(d)
        // THEN the excerpt stops at 200 characters with an ellipsis
        let shown = "long: " + String(repeating: "x", count: 194) + "…"
        XCTAssertEqual(text, "\(path):1:7: error: long\n  1 | \(shown)\n    |       ^\n")
    }

    func testInvalidUTF8LineIsShownWithAReplacementCharacter() throws {
        // GIVEN the YAML error of a file with a 0xFF byte
        let d = try yamlDiagnostic("render/invalid-utf8.yaml")
        // WHEN rendered
        let text = render(d)
        // THEN the caret is under the bad byte, drawn as U+FFFD
        XCTAssertEqual(text, "\(d.file!):2:4: error: invalid leading UTF-8 octet (byte 0xff)\n  2 | c: \u{FFFD}\n    |    ^\n")
    }

    func testCRLFLinesAreFoundAndShownWithoutTheCarriageReturn() throws {
        // GIVEN the YAML error of a file with CRLF line endings (an unknown alias on line 2)
        let d = try yamlDiagnostic("render/crlf.txt")
        // WHEN rendered
        let text = render(d)
        // THEN line 2 is shown, without its '\r'
        XCTAssertEqual(text, """
            \(d.file!):2:9: error: unknown alias '*nope'; define '&nope' before using it
              2 | second: *nope
                |         ^
                hint: '*' at the start of a value is an alias (*name repeats &name); quote the value: second: "*nope"

            """)
    }

    func testCRLFFirstLineIsOnlyTheFirstLine() {
        // GIVEN a diagnostic on line 1 of a file with CRLF line endings
        let path = Fixtures.path("render/crlf.txt")
        let d = Diagnostic(file: path, mark: at(1, 8), message: "here")
        // WHEN rendered
        let text = render(d)
        // THEN the excerpt is line 1 alone, not the whole file
        XCTAssertEqual(text, "\(path):1:8: error: here\n  1 | first: 1\n    |        ^\n")
    }

    func testCaretCountsCharactersAsTheMarkDoes() throws {
        // GIVEN the YAML error of a line holding "é" written as e + U+0301 (two characters for libyaml,
        // one on screen) before the marked column
        let d = try yamlDiagnostic("render/combining.txt")
        XCTAssertEqual(d.mark, at(1, 11), "libyaml counts the combining mark as a column")
        // WHEN rendered
        let text = render(d)
        // THEN the caret is under the '*' (nine visible characters before it), not one further right
        XCTAssertEqual(text, "\(d.file!):1:11: error: unknown alias '*nope'; define '&nope' before using it\n"
                       + "  1 | k: [\"e\u{301}\", *nope]\n"
                       + "    | " + String(repeating: " ", count: 9) + "^\n")
    }

    func testLinesEndWhereLibyamlEndsThem() throws {
        // Found by the fuzzer's seeds: libyaml also ends a line at a lone CR and at YAML 1.1's NEL, LS
        // and PS, and counts lines so; the renderer must cut the source the same way.
        for separator in ["\r", "\u{85}", "\u{2028}", "\u{2029}", "\r\n"] {
            // GIVEN a file whose lines end with `separator` and a bad key on line 3
            let source = ["baseURL: http://x", "targets:", "  a: { pth: /a }", ""].joined(separator: separator)
            let error = expectAPIError { () throws(APIError) in
                _ = try TargetFile.decode(Array(source.utf8), file: "sep.yaml", defaultName: "sep")
            }
            guard case .invalidInput(let diagnostics)? = error, let d = diagnostics.first else {
                return XCTFail("no diagnostic for separator \(separator.unicodeScalars.map { $0.value })")
            }
            // WHEN rendered from that source
            var renderer = DiagnosticRenderer()
            renderer.setSource(Array(source.utf8), for: "sep.yaml")
            // THEN the mark is line 3 and the excerpt is line 3 alone
            XCTAssertEqual(renderer.render(d), """
                sep.yaml:3:8: error: unknown key 'pth' in target 'a'
                  3 |   a: { pth: /a }
                    |        ^
                    hint: did you mean 'path'?

                """, "separator \(separator.unicodeScalars.map { $0.value })")
        }
    }
}
