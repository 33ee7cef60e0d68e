import XCTest
@testable import APITargets
@testable import APIImport

final class ExpectationDecodingTests: XCTestCase {
    func testEveryPartDecodes() throws {
        // GIVEN an expect: block with every key WHEN decoded THEN each part is there
        let service = try decodeService("""
            baseURL: http://x
            targets:
              t:
                check: true
                method: POST
                expect:
                  status: [200, "2xx"]
                  headers: { Content-Type: "~json" }
                  json: { "$.a": { exists: true } }
                  body: { contains: Moya }
                  maxTime: 800ms
                samples:
                  gone: { status: 404, expectFailure: true }
            """)
        let t = service.targets[0]
        XCTAssertEqual(t.check, true)
        let e = try XCTUnwrap(t.expect)
        XCTAssertEqual(e.status, [.code(200), .family(2)])
        XCTAssertEqual(e.headers, [HeaderExpectation(name: "Content-Type", value: "json", contains: true)])
        XCTAssertEqual(e.json.map(\.path.description), ["$.a"])
        XCTAssertEqual(e.json[0].comparisons, [.exists(true)])
        XCTAssertEqual(e.body, .contains("Moya"))
        XCTAssertEqual(e.maxTime, 0.8)
        XCTAssertEqual(t.samples[0].sample.expectFailure, true)
    }

    func testEveryProblemHasAMarkAndAHint() {
        let d = decodeDiagnostics("""
            baseURL: http://x
            targets:
              t:
                check: maybe
                expect:
                  stauts: 200
                  status: 2x0
                  json:
                    "a.b": 1
                    "$.n": { "=>": 1 }
                  body: { match: x }
                  maxTime: soon
            """)
        XCTAssertEqual(d.map { "\($0.mark!.line):\($0.mark!.column) \($0.message) | \($0.hint ?? "")" }, [
            "4:12 check must be true or false, not 'maybe' | ",
            "6:7 unknown key 'stauts' in expect of target 't' | did you mean 'status'?",
            "7:15 expect status '2x0' is not a status code (100-599) or a class like 2xx | write 200, [200, 201] or \"2xx\"",
            "9:9 'a.b' is not a JSONPath this tool understands: a JSONPath starts with '$' | use $.a.b, $.items[0].id, $.items[*].id or $.items.length()",
            "10:18 unknown key '=>' in the comparison for $.n | did you mean '==' or '>'?",
            "11:15 unknown key 'match' in expect body | did you mean 'matches'?",
            "11:13 expect body takes one of contains: or matches: | write body: { contains: \"text\" } or body: { matches: \"regex\" }",
            "12:16 maxTime must be a positive duration in seconds, not 'soon' | write 30, 1.5, 800ms, 2s or 1m",
        ])
    }

    func testAJSONPathRepeatedAcrossTargetsIsReadForEachOfThem() throws {
        // GIVEN the same JSONPath texts in several targets (parsed once per decoder) WHEN decoded
        // THEN each target has its own expectation, and each bad one its own problem
        let service = try decodeService("""
            baseURL: http://x
            targets:
              a:
                expect: { json: { "$.id": 1, "$.n": { ">": 2 } } }
              b:
                expect: { json: { "$.id": 3 } }
            """)
        XCTAssertEqual(service.targets.map { $0.expect?.json.map(\.path.description) }, [["$.id", "$.n"], ["$.id"]])
        XCTAssertEqual(service.targets.map { $0.expect?.json.map(\.comparisons.count) }, [[1, 1], [1]])
        let d = decodeDiagnostics("""
            baseURL: http://x
            targets:
              a:
                expect: { json: { "a.b": 1 } }
              b:
                expect: { json: { "a.b": 2 } }
            """)
        XCTAssertEqual(d.map { "\($0.mark!.line):\($0.mark!.column) \($0.message)" }, [
            "4:23 'a.b' is not a JSONPath this tool understands: a JSONPath starts with '$'",
            "6:23 'a.b' is not a JSONPath this tool understands: a JSONPath starts with '$'",
        ])
    }

    func testBadRegexAndExpectFailure() {
        let d = decodeDiagnostics("""
            baseURL: http://x
            targets:
              t:
                expect: { body: { matches: "(" } }
                sample: { expectFailure: yes please }
            """)
        XCTAssertEqual(d.map { "\($0.mark!.line):\($0.mark!.column) \($0.message)" }, [
            "4:32 expect body matches: '(' is not a valid regular expression: missing closing parenthesis (at offset 1)",
            "5:30 expectFailure must be true or false, not 'yes please'",
        ])
    }
}
