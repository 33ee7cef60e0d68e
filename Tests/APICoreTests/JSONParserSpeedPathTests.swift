#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import XCTest
@testable import APIJSON
@testable import APISchema
@testable import APIImport

/// The parser's quick paths (a string without escapes read as one span; members sorted without
/// a dictionary) answer what the general ones do.
final class JSONParserSpeedPathTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) -> JSONValue? { JSONValue.parse(Data(bytes)) }

    func testStringsWithoutEscapesAreCheckedUTF8() {
        XCTAssertEqual(parse(Array(#""héllo 😀""#.utf8)), .string("héllo 😀"))
        XCTAssertEqual(parse(Array(#""a\nb""#.utf8)), .string("a\nb"))
        XCTAssertEqual(parse(Array(#""é\u00e9x""#.utf8)), .string("ééx"))
        // not UTF-8: a lone 0xFF, an overlong '/', a cut 3-byte sequence, a surrogate in UTF-8
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xE2, 0x82], [0xED, 0xA0, 0x80]] {
            XCTAssertNil(parse([0x22] + bad + [0x22]), "\(bad)")
            XCTAssertNil(parse([0x22, 0x61] + bad + Array(#"\n""#.utf8)), "after: \(bad)")
            XCTAssertNil(parse(Array(#""\n"#.utf8) + bad + [0x22]), "before: \(bad)")
        }
        XCTAssertNil(parse([0x22, 0x61, 0x09, 0x22]))  // a raw control character
        XCTAssertNil(parse(Array(#""abc"#.utf8)))  // not closed
        XCTAssertNil(parse(Array(#""abc\"#.utf8)))
    }

    func testMembersSortedLastValueWins() {
        XCTAssertEqual(parse(Array(#"{"b":1,"a":2,"b":3,"c":4,"a":5}"#.utf8)),
                       .object([("a", .number(5)), ("b", .number(3)), ("c", .number(4))]))
        guard case .object(let ms)? = parse(Array(#"{"z":1,"y":2,"x":3,"a":{"d":1,"c":2}}"#.utf8)) else { return XCTFail() }
        XCTAssertEqual(ms.map(\.key), ["a", "x", "y", "z"])
        guard case .object(let inner) = ms[0].value else { return XCTFail() }
        XCTAssertEqual(inner.map(\.key), ["c", "d"])
        guard case .object(let same)? = parse(Array(#"{"a":1,"b":2,"c":3}"#.utf8)) else { return XCTFail() }
        XCTAssertEqual(same.map(\.key), ["a", "b", "c"])
        XCTAssertEqual(parse(Array("{}".utf8)), .object([]))
    }

    /// A whole number of at most 15 digits is read digit by digit; every number reads as
    /// `Double(String)` reads its text (the sign of zero included).
    func testNumbersReadAsDoubleOfTheirText() {
        let texts = ["0", "-0", "7", "-7", "42", "100", "123456789012345", "-999999999999999",
                     "1234567890123456", "99999999999999999999", "-12345678901234567", "1.5", "-0.0",
                     "1e3", "1E-2", "0.1", "2.5e+10", "-", "", "12a", "1-2"]
        for text in texts {
            let read = Array(text.utf8).withUnsafeBufferPointer { JSONValue.number($0) }
            let expected = Double(text)
            XCTAssertEqual(read, expected, text)
            XCTAssertEqual(read?.sign, expected?.sign, text)
        }
        XCTAssertEqual(parse(Array("[0,-0,15,123456789012345678]".utf8)),
                       .array([.number(0), .number(-0.0), .number(15), .number(Double("123456789012345678")!)]))
    }

    /// A string with nothing to escape is written whole; one with something is written a
    /// character at a time, escaped: the same text either way.
    func testStringsWithoutEscapesAreWrittenWhole() {
        func written(_ s: String) -> String {
            var out = ""
            JSONText.writeString(s, into: &out)
            return out
        }
        XCTAssertEqual(written("héllo 😀 x"), "\"héllo 😀 x\"")
        XCTAssertEqual(written(""), "\"\"")
        XCTAssertEqual(written("a\"b\\c\nd\u{7F}e\u{85}f\u{1}"), #""a\"b\\c\nd\u007fe\u0085f\u0001""#)
        XCTAssertEqual(written("e\u{85}f"), #""e\u0085f""#)  // a C1 control alone: escaped
        XCTAssertEqual(written("e\u{7F}"), #""e\u007f""#)
        XCTAssertEqual(written("\u{A0}é"), "\"\u{A0}é\"")  // 0xC2 0xA0: not a C1 control, kept
    }
}
