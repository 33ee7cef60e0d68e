import XCTest
@testable import apicli

final class JSONPrettyTests: XCTestCase {
    func pretty(_ s: String) -> String? {
        JSONPretty.format(Data(s.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    func testKeepsKeyOrderNumbersAndEscapes() {
        XCTAssertEqual(pretty(#"{"z":1.50,"a":[true,null,"x,\"y\"{"],"e":{},"f":[]}"#), """
            {
              "z": 1.50,
              "a": [
                true,
                null,
                "x,\\"y\\"{"
              ],
              "e": {},
              "f": []
            }

            """)
    }

    /// Issue 26, item 11: re-indenting is bounded: 12,000 nested arrays (24 KB) used to become
    /// 290 MB; past the depth or size bound the raw bytes are printed instead, at once.
    func testDeepNestingFallsBackToTheRawBytes() {
        let deep = Data((String(repeating: "[", count: 12_000) + String(repeating: "]", count: 12_000)).utf8)
        let start = Date()
        XCTAssertNil(JSONPretty.format(deep))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertNotNil(JSONPretty.format(Data((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)))
    }

    func testRejectsWhatIsNotOneJSONValue() {
        XCTAssertNil(pretty("{} {}"))
        XCTAssertNil(pretty("{\"a\": 1"))
        XCTAssertNil(pretty("[1]]"))
        XCTAssertNil(pretty("\"text\""))
        XCTAssertNil(pretty("<html>"))
    }

    func testBodyForTerminalAddsAFinalNewlineToText() {
        XCTAssertEqual(BodyDisplay.body(Data("hi".utf8), forTerminal: true), Data("hi\n".utf8))
        XCTAssertEqual(BodyDisplay.body(Data("hi".utf8), forTerminal: false), Data("hi".utf8))
    }
}
