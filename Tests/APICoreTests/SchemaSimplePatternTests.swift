import XCTest
@testable import APISchema
@testable import APISupport
@testable import APIImport

/// The regex-free matcher for simple patterns answers exactly what the compiled `Regex` does
/// (on ASCII text without line breaks, the only text it is used for), and leaves every pattern
/// outside its subset to the regex.
final class SchemaSimplePatternTests: XCTestCase {
    private func simple(_ p: String, _ s: String) -> Bool? {
        guard let x = SchemaSimplePattern(p) else { return nil }
        return Array(s.utf8).withUnsafeBufferPointer { x.matches($0) }
    }

    func testKnownAnswers() {
        let cases: [(String, String, Bool?)] = [
            ("^[A-Z]{3}-[0-9]{4}$", "ABC-0001", true), ("^[A-Z]{3}-[0-9]{4}$", "ABC-001", false),
            ("^[A-Z]{3}-[0-9]{4}$", "xABC-0001", false), ("^[A-Z]{3}-[0-9]{4}$", "ABC-00012", false),
            ("[0-9]{4}", "ab12345", true), ("[0-9]{4}", "ab123", false), ("^a*$", "", true), ("^a*$", "aab", false),
            ("a+b?c", "xxaac", true), ("a+b?c", "xxbc", false), ("^\\d{2,3}$", "1234", false), ("^\\d{2,}$", "1234", true),
            ("^[^abc]+$", "xaz", false), ("^[\\w.-]+@x$", "a.b-c_d@x", true), ("", "abc", true), ("abc$", "abcx", false),
            ("x\\.y", "xay", false), ("^a{0}b$", "b", true), ("^\\D$", "1", false), ("a{1,3}b", "aaaab", true),
            // outside the subset: left to Regex
            ("(a)", "a", nil), ("a|b", "a", nil), ("\\$", "a$", nil), ("^[]a]$", "]", nil), ("^(?:x)$", "x", nil),
            ("^\\s$", " ", nil), ("^a**$", "aa", nil), ("^é$", "é", nil), ("^a{1,99999}$", "a", nil),
        ]
        for (p, s, want) in cases { XCTAssertEqual(simple(p, s), want, "\(p) on \(s)") }
    }

    func testSameAnswersAsRegexOnGeneratedPatterns() throws {
        let atoms = ["a", "b", ".", "[ab]", "[^a]", "\\d", "\\w", "[a-c]", "-", "\\.", "x", "[0-9]", "\\D", "\\W"]
        let quantifiers = ["", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "{2,}", "*?", "{0}"]
        let alphabet = Array("ab.x-1c9_ ".utf8)
        var seed: UInt64 = 21
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        var compared = 0
        for _ in 0..<3000 {
            var p = next(2) == 0 ? "^" : ""
            for _ in 0..<next(5) { p += atoms[next(atoms.count)] + quantifiers[next(quantifiers.count)] }
            if next(2) == 0 { p += "$" }
            let quick = try XCTUnwrap(SchemaSimplePattern(p), p)
            let regex = try BoundedRegex.compile(p, syntax: .ecma)
            for _ in 0..<5 {
                let s = String(decoding: (0..<next(8)).map { _ in alphabet[next(alphabet.count)] }, as: UTF8.self)
                let expected = regex.firstMatch(in: s) == .found
                XCTAssertEqual(Array(s.utf8).withUnsafeBufferPointer { quick.matches($0) }, expected, "\(p) on |\(s)|")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 15_000)
    }

    func testTheValidatorStillGoesToRegexForOtherText() throws {
        let schema = try JSONSchema(.object([("pattern", .string("^.b$"))]))
        XCTAssertTrue(schema.isValid(.string("ab")))
        XCTAssertTrue(schema.isValid(.string("éb")))  // not ASCII: the regex answers
        XCTAssertFalse(schema.isValid(.string("a\nb")))
    }
}
