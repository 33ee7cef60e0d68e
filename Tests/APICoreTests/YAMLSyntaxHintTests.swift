import XCTest
@testable import APIDiagnostics

/// YAML syntax errors explained in the user's words: libyaml's text and place stay, and a hint
/// says what the usual cause is and shows the fixed line. Golden: the whole rendered diagnostic.
final class YAMLSyntaxHintTests: XCTestCase {

    /// The rendered diagnostic of `text` read as `targets/demo.yaml`.
    private func rendered(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let error = try XCTUnwrap(yamlError(text, file: file, line: line), file: file, line: line)
        var renderer = DiagnosticRenderer()
        renderer.setSource(Array(text.utf8), for: inlineFile)
        return renderer.render(Diagnostic(file: inlineFile, error))
    }

    func testATabIndentSaysToUseSpaces() throws {
        XCTAssertEqual(try rendered("targets:\n  zen:\n\tpath: /zen\n"), """
            targets/demo.yaml:3:1: error: found character that cannot start any token
              3 | \tpath: /zen
                | ^
            targets/demo.yaml:3:1: note: while scanning for the next token
              3 | \tpath: /zen
                | ^
                hint: YAML indents with spaces, not tabs: replace the tab on line 3 with spaces

            """)
    }

    func testASecondColonInAPlainValueSaysToQuoteIt() throws {
        XCTAssertEqual(try rendered("targets:\n  zen:\n    path: /zen\n    summary: note: this\n"), """
            targets/demo.yaml:4:18: error: mapping values are not allowed in this context
              4 |     summary: note: this
                |                  ^
                hint: a second ':' in a plain value; quote the value: summary: "note: this"

            """)
    }

    func testAnUnquotedBraceSaysItOpensAFlowMapping() throws {
        XCTAssertEqual(try rendered("targets:\n  zen:\n    path: {id}/x\n"), """
            targets/demo.yaml:3:15: error: did not find expected key
              3 |     path: {id}/x
                |               ^
            targets/demo.yaml:3:5: note: while parsing a block mapping
              3 |     path: {id}/x
                |     ^
                hint: '{' at the start of a value opens a YAML flow mapping; quote the value: path: "{id}/x"

            """)
    }

    func testAnAtSignAtTheStartSaysToQuoteIt() throws {
        XCTAssertEqual(try rendered("targets:\n  zen:\n    summary: @me\n"), """
            targets/demo.yaml:3:14: error: found character that cannot start any token
              3 |     summary: @me
                |              ^
            targets/demo.yaml:3:14: note: while scanning for the next token
              3 |     summary: @me
                |              ^
                hint: '@' cannot start a plain value; quote the value: summary: "@me"

            """)
    }

    func testAStarAtTheStartSaysItIsAnAlias() throws {
        XCTAssertEqual(try rendered("targets:\n  zen:\n    summary: *bold*\n"), """
            targets/demo.yaml:3:19: error: did not find expected alphabetic or numeric character
              3 |     summary: *bold*
                |                   ^
            targets/demo.yaml:3:14: note: while scanning an alias
              3 |     summary: *bold*
                |              ^
                hint: '*' at the start of a value is an alias (*name repeats &name); quote the value: summary: "*bold*"

            """)
        // `*word` alone is a well-formed alias to nothing: the same hint
        XCTAssertEqual(try rendered("targets:\n  zen:\n    summary: *bold\n"), """
            targets/demo.yaml:3:14: error: unknown alias '*bold'; define '&bold' before using it
              3 |     summary: *bold
                |              ^
                hint: '*' at the start of a value is an alias (*name repeats &name); quote the value: summary: "*bold"

            """)
    }

    func testAKeyIndentedDeeperThanItsSiblingSaysSo() throws {
        XCTAssertEqual(try rendered("targets:\n  zen:\n    path: /zen\n     method: GET\n"), """
            targets/demo.yaml:4:12: error: mapping values are not allowed in this context
              4 |      method: GET
                |            ^
                hint: line 4 is indented 5 spaces, deeper than the key on line 3 (4 spaces); keys of one mapping are indented alike

            """)
    }

    func testAKeyIndentedBetweenTwoLevelsSaysWhereTheMappingStarts() throws {
        XCTAssertEqual(try rendered("targets:\n  zen:\n    path: /zen\n   method: GET\n"), """
            targets/demo.yaml:4:4: error: did not find expected key
              4 |    method: GET
                |    ^
            targets/demo.yaml:2:3: note: while parsing a block mapping
              2 |   zen:
                |   ^
                hint: line 4 is indented 3 spaces, but the keys of the mapping on line 2 are indented 2; indent it like the key it belongs beside

            """)
    }

    func testAnErrorWithNoKnownShapeHasNoHint() throws {
        // an unclosed quote: libyaml's text says enough
        let error = try XCTUnwrap(yamlError("a: \"b\n"))
        XCTAssertNil(error.hint)
    }
}
