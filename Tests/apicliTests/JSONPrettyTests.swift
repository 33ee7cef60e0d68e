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
