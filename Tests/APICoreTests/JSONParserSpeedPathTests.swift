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
}
