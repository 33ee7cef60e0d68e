import XCTest
@testable import APISupport
@testable import APITargets
@testable import APITransport
@testable import APIVerdict

final class JudgeTests: XCTestCase {
    private func response(_ status: Int = 200, headers: [HeaderField] = [HeaderField("Content-Type", "application/json")],
                          body: String = #"{"login":"moya","public_repos":3,"items":[{"id":1},{"id":2}]}"#,
                          duration: Double = 0.1) -> Response {
        Response(status: status, headers: headers, body: Data(body.utf8), duration: duration)
    }

    private func expect(_ yaml: String) throws -> Expectations {
        let service = try decodeService("baseURL: http://x\ntargets:\n  t:\n    expect:\n" + yaml)
        return try XCTUnwrap(service.targets[0].expect)
    }

    func testWithoutExpectValidateDecides() {
        // GIVEN no expect: WHEN a 404 meets validate: success THEN it fails with the validate message
        XCTAssertEqual(Judge.failures(nil, validation: .success, response: response(404)),
                       ["status 404 is not accepted by validate: success (200-299)"])
        XCTAssertEqual(Judge.failures(nil, validation: .none, response: response(500)), [])
    }

    func testStatusForms() throws {
        XCTAssertEqual(Judge.failures(try expect("      status: [200, 201]"), validation: .none, response: response(404)),
                       ["status 404, expected 200 or 201"])
        XCTAssertEqual(Judge.failures(try expect("      status: 2xx"), validation: .none, response: response(204)), [])
        XCTAssertEqual(Judge.failures(try expect("      status: \"2xx\""), validation: .none, response: response(302)),
                       ["status 302, expected 2xx"])
        // expect status replaces validate
        XCTAssertEqual(Judge.failures(try expect("      status: 404"), validation: .success, response: response(404)), [])
    }

    func testExpectWithoutStatusKeepsValidate() throws {
        XCTAssertEqual(Judge.failures(try expect("      maxTime: 1s"), validation: .success, response: response(500)),
                       ["status 500 is not accepted by validate: success (200-299)"])
    }

    func testHeadersContainIgnoringCaseOrEqual() throws {
        let e = try expect("      headers: { content-type: \"~JSON\", X-Api: v2, X-Gone: a, Set-Cookie: s }")
        let r = response(headers: [HeaderField("Content-Type", "application/json"), HeaderField("X-API", "v1"),
                                   HeaderField("Set-Cookie", "secret")])
        XCTAssertEqual(Judge.failures(e, validation: .none, response: r), [
            "header X-Api is \"v1\", expected \"v2\"",
            "header X-Gone is missing",
            "header Set-Cookie does not match (value hidden)",
        ])
    }

    func testJSONValuesAndComparisons() throws {
        let e = try expect("""
                  json:
                    "$.login": octocat
                    "$.public_repos": { ">=": 1, "<": 3 }
                    "$.items[*].id": [1, 2]
                    "$.items.length()": 2
                    "$.missing": { exists: false }
                    "$.login.x": { exists: true }
                    "$.nope": 1
            """)
        XCTAssertEqual(Judge.failures(e, validation: .none, response: response()), [
            "$.login is \"moya\", expected \"octocat\"",
            "$.public_repos is 3, expected < 3",
            "$.login.x does not exist",
            "$.nope does not exist, expected 1",
        ])
    }

    func testJSONTypesAreStrict() throws {
        // GIVEN "3" (text) WHEN the body holds the number 3 THEN they differ; != and > work on numbers
        let e = try expect("      json: { \"$.public_repos\": \"3\", \"$.login\": { \"!=\": moya }, \"$.items[0].id\": { \">\": 0 } }")
        XCTAssertEqual(Judge.failures(e, validation: .none, response: response()), [
            "$.public_repos is 3, expected \"3\"",
            "$.login is \"moya\", expected != \"moya\"",
        ])
    }

    func testJSONOnANonJSONBody() throws {
        let e = try expect("      json: { \"$.a\": 1 }")
        XCTAssertEqual(Judge.failures(e, validation: .none, response: response(body: "<html>")),
                       ["body is not JSON ($.a cannot be read)"])
    }

    func testBodyContainsAndMatches() throws {
        XCTAssertEqual(Judge.failures(try expect("      body: { contains: Moya }"), validation: .none, response: response()),
                       ["body does not contain \"Moya\""])
        XCTAssertEqual(Judge.failures(try expect("      body: { matches: '\"login\":\\s*\"mo' }"), validation: .none, response: response()), [])
        XCTAssertEqual(Judge.failures(try expect("      body: { matches: '^<' }"), validation: .none, response: response()),
                       ["body does not match /^</"])
    }

    func testMaxTime() throws {
        XCTAssertEqual(Judge.failures(try expect("      maxTime: 500ms"), validation: .none, response: response(duration: 2.0134)),
                       ["took 2013 ms, maxTime is 500 ms"])
        XCTAssertEqual(Judge.failures(try expect("      maxTime: 1"), validation: .none, response: response(duration: 0.2)), [])
    }

    func testFailuresComeInDeclaredOrder() throws {
        let e = try expect("      status: 200\n      body: { contains: zzz }\n      maxTime: 10ms")
        XCTAssertEqual(Judge.failures(e, validation: .none, response: response(500, duration: 1)), [
            "status 500, expected 200", "body does not contain \"zzz\"", "took 1000 ms, maxTime is 10 ms",
        ])
    }
}
