import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint

/// `Template` placeholders and `Bindings.expand`: `{param}`, `${VAR}`, `${VAR:-default}`, `$${`.
final class TemplateTests: XCTestCase {
    private let mark = at(7, 11)

    private func expand(_ text: String, params: [String: String] = [:], env: [String: String] = [:],
                        place: String = "the path of demo.t", unresolved: Bindings.Unresolved = .fail,
                        encode: (String) -> String = { $0 }) throws(APIError) -> String {
        try Bindings(params: params, environment: env)
            .expand(Template(text, mark: mark), in: place, file: inlineFile, unresolved: unresolved, encode: encode)
    }

    // MARK: Placeholders

    func testPlaceholderIsSubstituted() throws {
        // GIVEN a path with two placeholders
        // WHEN expanded with both values
        let out = try expand("/repos/{owner}/{repo}/issues", params: ["owner": "moya", "repo": "Moya"])
        // THEN both are replaced
        XCTAssertEqual(out, "/repos/moya/Moya/issues")
    }

    func testEncodeClosureAppliesToPlaceholderValuesOnly() throws {
        // GIVEN literal text, a placeholder and a variable, and an encoder that upper-cases
        // WHEN expanded
        let out = try expand("x-{p}-${V}-y", params: ["p": "ab"], env: ["V": "cd"], encode: { $0.uppercased() })
        // THEN only the placeholder's value went through the encoder
        XCTAssertEqual(out, "x-AB-cd-y")
    }

    func testPercentEncodingAsOneSegment() throws {
        // GIVEN a value with a space and a slash, encoded as a path segment
        let out = try expand("/users/{name}", params: ["name": "a b/c"], encode: URLBuilder.encodeSegment)
        // THEN both are escaped, so the value stays one segment
        XCTAssertEqual(out, "/users/a%20b%2Fc")
    }

    func testPlaceholderNamesMayHoldDigitsDashesAndDotsAfterTheFirstCharacter() throws {
        // GIVEN names with digits, '-', '.' and '_'
        let out = try expand("{a1}/{b-c}/{d.e}/{_f}", params: ["a1": "1", "b-c": "2", "d.e": "3", "_f": "4"])
        // THEN all are placeholders
        XCTAssertEqual(out, "1/2/3/4")
    }

    func testBracesThatAreNotIdentifiersAreLeftAlone() throws {
        // GIVEN JSON-looking text, empty braces, a leading digit and spaces, in the strict mode
        let text = #"{"a": 1} {} {1abc} { a } {a b}"#
        // WHEN expanded with no params
        let out = try expand(text)
        // THEN nothing is treated as a placeholder and nothing fails
        XCTAssertEqual(out, text)
    }

    func testKeepModeLeavesUnknownPlaceholdersInPlace() throws {
        // GIVEN a raw text body with a known and an unknown placeholder
        let out = try expand("hello {who}, from {name}", params: ["name": "moya"], place: "the body of demo.t", unresolved: .keep)
        // THEN the known one is replaced and the unknown one stays as written
        XCTAssertEqual(out, "hello {who}, from moya")
    }

    func testMissingParamIsADiagnosticWithAHint() {
        // GIVEN a placeholder with no value, in the strict mode
        let error = expectAPIError { () throws(APIError) in try self.expand("/users/{name}", place: "the path of github.userProfile") }
        // THEN it names the placeholder and the place, and how to give it a value
        XCTAssertEqual(error, .invalidInput([Diagnostic(
            file: inlineFile, mark: mark, message: "no value for placeholder {name} in the path of github.userProfile",
            hint: "add 'name' to the target's params: or pass -p name=VALUE")]))
    }

    func testPlaceholdersAreListedInOrderSkippingVariables() {
        // GIVEN placeholders mixed with variables and non-identifiers
        let template = Template("/repos/{owner}/${HOME}/{repo}/{ no }/$${lit}/{x.y}", mark: mark)
        // THEN only real placeholders are listed, in order
        XCTAssertEqual(template.placeholders, ["owner", "repo", "x.y"])
        XCTAssertFalse(template.isLiteral)
        XCTAssertTrue(Template("/plain/path", mark: mark).isLiteral)
    }

    // MARK: Environment variables

    func testVariableIsReadFromTheEnvironment() throws {
        // GIVEN ${TOKEN} with TOKEN set
        let out = try expand("Bearer ${TOKEN}", env: ["TOKEN": "s3cr3t"], place: "header 'Authorization'")
        // THEN its value is used
        XCTAssertEqual(out, "Bearer s3cr3t")
    }

    func testDefaultIsUsedOnlyWhenTheVariableIsUnset() throws {
        // GIVEN ${VAR:-default}, once unset and once set (even to an empty value)
        let unset = try expand("${AGENT:-apicli}")
        let set = try expand("${AGENT:-apicli}", env: ["AGENT": "curl"])
        let empty = try expand("${AGENT:-apicli}", env: ["AGENT": ""])
        let emptyDefault = try expand("[${AGENT:-}]")
        // THEN the default stands in only for an unset variable
        XCTAssertEqual(unset, "apicli")
        XCTAssertEqual(set, "curl")
        XCTAssertEqual(empty, "")
        XCTAssertEqual(emptyDefault, "[]")
    }

    func testDoubleDollarWritesALiteralDollarBrace() throws {
        // GIVEN $${ before a name that is set
        let out = try expand("cost: $${HOME} and $5", env: ["HOME": "/root"])
        // THEN it stays literal, and a lone $ is kept
        XCTAssertEqual(out, "cost: ${HOME} and $5")
    }

    func testMissingVariableIsADiagnosticNamingIt() {
        // GIVEN ${TOKEN} unset
        let error = expectAPIError { () throws(APIError) in
            try self.expand("Bearer ${TOKEN}", place: "header 'Authorization' of github.zen")
        }
        // THEN the variable and the place are named, with how to fix it
        XCTAssertEqual(error, .invalidInput([Diagnostic(
            file: inlineFile, mark: mark, message: "environment variable TOKEN is not set (used in header 'Authorization' of github.zen)",
            hint: "export TOKEN=…, or give a default: ${TOKEN:-value}")]))
    }

    func testUnterminatedAndMalformedVariableReferences() {
        // GIVEN ${ with no closing brace, and ${…} that is no name
        let open = expectAPIError { () throws(APIError) in try self.expand("x ${TOKEN", place: "the body of demo.t") }
        let bad = expectAPIError { () throws(APIError) in try self.expand("x ${A B}", place: "the body of demo.t") }
        // THEN each explains the forms
        XCTAssertEqual(open, .invalidInput([Diagnostic(file: inlineFile, mark: mark, message: "unterminated '${' in the body of demo.t",
                                                       hint: "write ${NAME} or ${NAME:-default}")]))
        XCTAssertEqual(bad, .invalidInput([Diagnostic(
            file: inlineFile, mark: mark, message: "'${A B}' in the body of demo.t is not a variable reference",
            hint: "names are letters, digits and '_': ${NAME} or ${NAME:-default}; write $${ for a literal '${'")]))
    }

    // MARK: One pass

    func testExpandedValuesAreNotExpandedAgain() throws {
        // GIVEN params and variables whose values look like references themselves
        let params = ["p": "{q}", "q": "no", "r": "${HOME}"]
        let env = ["V": "{p}", "W": "${HOME}", "HOME": "/root"]
        // WHEN expanded
        let out = try expand("{p} {r} ${V} ${W} ${U:-{q}}", params: params, env: env)
        // THEN every value goes in exactly as it is
        XCTAssertEqual(out, "{q} ${HOME} {p} ${HOME} {q}")
    }

    func testTextWithoutReferencesComesBackUnchanged() throws {
        // GIVEN text with neither braces nor dollars
        // THEN it is returned as is, even with an encoder
        XCTAssertEqual(try expand("/plain/a b", encode: { _ in "X" }), "/plain/a b")
    }
}
