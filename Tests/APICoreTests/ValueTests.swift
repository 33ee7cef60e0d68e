import Foundation
import XCTest
@testable import APISupport
@testable import APIYAML
@testable import APIJSON
@testable import APISchema
@testable import APITargets
@testable import APIEndpoint
@testable import APILoad
@testable import APIImport

/// Scalar resolution (`YAMLScalar.number`, `NodeReader.seconds`), `Value.jsonText`,
/// `ParameterEncoder` and `HeaderField` lists.
final class ValueTests: XCTestCase {
    private let m = at(1, 1)

    func testJSONNumbersFromPlainScalars() {
        // THEN integers are normalised, floats keep their digits, and JSON-invalid forms are fixed up
        XCTAssertEqual(YAMLScalar.number("42"), "42")
        XCTAssertEqual(YAMLScalar.number("-7"), "-7")
        XCTAssertEqual(YAMLScalar.number("+5"), "5")
        XCTAssertEqual(YAMLScalar.number("007"), "7")
        XCTAssertEqual(YAMLScalar.number("0x1F"), "31")
        XCTAssertEqual(YAMLScalar.number("0o17"), "15")
        XCTAssertEqual(YAMLScalar.number("1.50"), "1.50")
        XCTAssertEqual(YAMLScalar.number("1e3"), "1e3")
        XCTAssertEqual(YAMLScalar.number(".5"), "0.5")
        XCTAssertEqual(YAMLScalar.number("-.5"), "-0.5")
        XCTAssertEqual(YAMLScalar.number("1."), "1.0")
        XCTAssertEqual(YAMLScalar.number("1.e5"), "1.0e5")
        XCTAssertEqual(YAMLScalar.number("12345678901234567890"), "12345678901234567890")
    }

    func testNotNumbers() {
        // THEN words, versions, times, infinities and lone signs stay text
        for text in ["moya", "1.2.3", "12:30", ".inf", "inf", "nan", "-", ".", "1e", "1_000", "0x", "", "1-2"] {
            XCTAssertNil(YAMLScalar.number(text), text)
        }
    }

    func testSeconds() {
        // THEN plain numbers are seconds and ms, s, m are units
        XCTAssertEqual(NodeReader.seconds("30"), 30)
        XCTAssertEqual(NodeReader.seconds("1.5"), 1.5)
        XCTAssertEqual(NodeReader.seconds("800ms") ?? -1, 0.8, accuracy: 1e-12)
        XCTAssertEqual(NodeReader.seconds("2s"), 2)
        XCTAssertEqual(NodeReader.seconds("1m"), 60)
        XCTAssertNil(NodeReader.seconds("soon"))
        XCTAssertNil(NodeReader.seconds("ms"))
        XCTAssertNil(NodeReader.seconds("5 s"))
    }

    func testJSONTextEscapesStrings() {
        // GIVEN strings with quotes, backslashes, control characters and non-ASCII
        let value = Value.array([.string(Template("a\"b\\c", mark: m)), .string(Template("\n\r\t\u{1}\u{1F}", mark: m)),
                                 .string(Template("é✓", mark: m)), .null, .bool(false), .number("-0.5"),
                                 .object([]), .array([])])
        // THEN the JSON is compact, escaped, and non-ASCII is written as is
        XCTAssertEqual(value.jsonText, #"["a\"b\\c","\n\r\t\u0001\u001f","é✓",null,false,-0.5,{},[]]"#)
    }

    func testExpandedExpandsStringsButNotKeys() throws {
        // GIVEN an object with a placeholder in a key and in values
        let value = Value.object([.init(key: "{k}", value: .array([.string(Template("{v}", mark: m)), .number("1")]))])
        // WHEN expanded
        let out = try value.expanded(with: Bindings(params: ["k": "key", "v": "val"]), in: "the JSON body of demo.t", file: inlineFile)
        // THEN values are expanded and keys stay as written
        XCTAssertEqual(out.jsonText, #"{"{k}":["val",1]}"#)
    }

    func testParameterEncoderOfANonObjectIsEmpty() {
        // GIVEN values that are not mappings
        // THEN there is nothing to encode
        XCTAssertEqual(ParameterEncoder().encode(.array([.number("1")])), "")
        XCTAssertEqual(ParameterEncoder().encode(.null), "")
    }

    func testParameterEncoderNestsArraysOfObjects() {
        // GIVEN an array of objects
        let value = Value.object([.init(key: "items", value: .array([
            .object([.init(key: "id", value: .number("1")), .init(key: "flag", value: .bool(true))]),
        ]))])
        // THEN each member is a subscript of the array key, sorted
        XCTAssertEqual(ParameterEncoder().encode(value), "items%5B%5D%5Bflag%5D=1&items%5B%5D%5Bid%5D=1")
        XCTAssertEqual(ParameterEncoder(arrays: .noBrackets, bools: .literal).encode(value), "items%5Bflag%5D=true&items%5Bid%5D=1")
    }

    func testHeaderFieldListSetReplacesCaseInsensitivelyInPlace() {
        // GIVEN two headers
        var headers = [HeaderField("Accept", "a"), HeaderField("X-One", "1")]
        // WHEN setting an existing one in another case and a new one
        headers.set("accept", "b")
        headers.set("X-Two", "2")
        // THEN the existing one is replaced where it stood, and the new one appended
        XCTAssertEqual(headers, [HeaderField("accept", "b"), HeaderField("X-One", "1"), HeaderField("X-Two", "2")])
        XCTAssertEqual(headers.value(of: "ACCEPT"), "b")
        XCTAssertNil(headers.value(of: "Content-Type"))
    }
}
