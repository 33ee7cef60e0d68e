import XCTest
@testable import APIJSON
@testable import APIImport

final class JSONPathTests: XCTestCase {
    private let doc = JSONValue.parse(Data(#"{"a":{"b":"x"},"items":[{"id":1},{"id":2},{"name":"n"}],"n":3,"s":"héllo","my key":true}"#.utf8))!

    private func eval(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue? {
        switch JSONPath.parse(path) {
        case .success(let p): return p.evaluate(doc)
        case .failure(let e):
            XCTFail("\(path): \(e.message)", file: file, line: line)
            return nil
        }
    }

    func testNestedKeys() throws {
        // GIVEN a document WHEN $.a.b is read THEN the nested string comes back
        XCTAssertEqual(try eval("$.a.b"), .string("x"))
        XCTAssertEqual(try eval("$"), doc)
    }

    func testIndexesFromTheStartAndTheEnd() throws {
        XCTAssertEqual(try eval("$.items[0].id"), .number(1))
        XCTAssertEqual(try eval("$.items[-1].name"), .string("n"))
        XCTAssertNil(try eval("$.items[3]"))
    }

    func testWildcardCollectsWhatEachElementHas() throws {
        // GIVEN three items, one without id WHEN $.items[*].id is read THEN the two ids, in order
        XCTAssertEqual(try eval("$.items[*].id"), .array([.number(1), .number(2)]))
        XCTAssertEqual(try eval("$.items.*.id"), .array([.number(1), .number(2)]))
    }

    func testLengthOfArraysObjectsAndText() throws {
        XCTAssertEqual(try eval("$.items.length()"), .number(3))
        XCTAssertEqual(try eval("$.a.length()"), .number(1))
        XCTAssertEqual(try eval("$.s.length()"), .number(5))
        // after [*], the rest applies to each element
        XCTAssertEqual(try eval("$.items[*].length()"), .array([.number(1), .number(1), .number(1)]))
        XCTAssertNil(try eval("$.n.length()"))
    }

    func testBracketedNames() throws {
        XCTAssertEqual(try eval("$['my key']"), .bool(true))
        XCTAssertEqual(try eval("$[\"a\"].b"), .string("x"))
    }

    func testMissingStepsGiveNil() throws {
        XCTAssertNil(try eval("$.nope"))
        XCTAssertNil(try eval("$.a.b.c"))
        XCTAssertNil(try eval("$.n[0]"))
    }

    func testBadPathsSayWhatIsWrong() {
        func message(_ p: String) -> String? {
            if case .failure(let e) = JSONPath.parse(p) { return e.message }
            return nil
        }
        XCTAssertEqual(message("a.b"), "a JSONPath starts with '$'")
        XCTAssertEqual(message("$.a..b"), "expected a name after '.' at character 5")
        XCTAssertEqual(message("$.a[x]"), "expected [N], [*] or ['name'] at character 4")
        XCTAssertEqual(message("$a"), "expected '.' or '[' at character 2")
        XCTAssertEqual(message("$.a.length().b"), "length() must be the last step")
        // positions count characters, not bytes
        XCTAssertEqual(message("$.héllo..b"), "expected a name after '.' at character 9")
        XCTAssertEqual(message("$.é[x]"), "expected [N], [*] or ['name'] at character 4")
        XCTAssertEqual(message("$['unclosed"), "expected [N], [*] or ['name'] at character 12")
    }

    func testNonASCIINamesAndQuotedKeys() throws {
        let doc = JSONValue.parse(Data(#"{"héllo":{"wörld":[1,2]},"a.b":"dot","é]":"bracket"}"#.utf8))!
        func at(_ p: String) -> JSONValue? { if case .success(let path) = JSONPath.parse(p) { return path.evaluate(doc) }; return nil }
        XCTAssertEqual(at("$.héllo.wörld[1]"), .number(2))
        XCTAssertEqual(at("$['a.b']"), .string("dot"))
        XCTAssertEqual(at("$[\"é]\"]"), .string("bracket"))
        XCTAssertEqual(at("$.héllo.wörld.length()"), .number(2))
    }

    func testBooleansAreNotNumbers() {
        // GIVEN JSONSerialization's NSNumbers WHEN parsed THEN true stays a boolean and 1 a number
        XCTAssertEqual(JSONValue.parse(Data("[true,1,0,false,null]".utf8)),
                       .array([.bool(true), .number(1), .number(0), .bool(false), .null]))
        XCTAssertNil(JSONValue.parse(Data("<html>".utf8)))
    }
}
