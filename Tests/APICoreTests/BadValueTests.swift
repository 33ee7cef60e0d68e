import XCTest
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint

/// Values that reach a request from `{params}` and `${VARS}`: they cannot walk a path (RFC 6570)
/// nor break a header; and the one glob syntax.
final class BadValueTests: XCTestCase {
    private func endpoint(_ yaml: String, _ name: String, params: [String: String] = [:],
                          env: [String: String] = [:]) throws(APIError) -> Endpoint {
        let service: Service
        do { service = try decodeService(yaml) } catch { throw .invalid(Diagnostic(file: nil, mark: nil, message: "\(error)")) }
        let target = service.targets.first { $0.name == name }!
        return try EndpointResolver(environment: env, overrides: .init(params: params)).endpoint(for: target, in: service)
    }

    func testAPlaceholderIsOneSegmentAndCannotWalkThePath() throws {
        let yaml = "baseURL: https://api.test\ntargets:\n  t: { path: \"/anything/{seg}\" }\n  r: { path: \"/files/{+seg}\" }\n"
        // GIVEN values that try to leave their segment
        XCTAssertEqual(try endpoint(yaml, "t", params: ["seg": "../../status/418"]).url,
                       "https://api.test/anything/..%2F..%2Fstatus%2F418")
        XCTAssertEqual(try endpoint(yaml, "t", params: ["seg": ".."]).url, "https://api.test/anything/%2E%2E")
        XCTAssertEqual(try endpoint(yaml, "t", params: ["seg": "a b?c#d%e@f"]).url, "https://api.test/anything/a%20b%3Fc%23d%25e%40f")
        // AND {+name} keeps slashes, for a multi-segment value
        XCTAssertEqual(try endpoint(yaml, "r", params: ["seg": "a/b c.txt"]).url, "https://api.test/files/a/b%20c.txt")
    }

    func testALineBreakInAHeaderValueIsBadInputNamingWhereItCameFrom() throws {
        let yaml = """
            baseURL: https://api.test
            targets:
              t:
                headers: { X-Trace: "id-{trace}", X-Key: "${API_KEY}" }
            """
        // WHEN a -p value holds a line break
        XCTAssertEqual(expectAPIError({ () throws(APIError) in try endpoint(yaml, "t", params: ["trace": "1\r\nX-Evil: 1"],
                                                                             env: ["API_KEY": "k"]) }),
                       .invalid(Diagnostic(file: inlineFile, mark: at(4, 25),
                                           message: "the value of header 'X-Trace' of demo.t holds a line break (from {trace})",
                                           hint: "a header value is one line of text: fix the value of the parameter or variable")))
        // AND when an environment variable does
        let error = expectAPIError({ () throws(APIError) in try endpoint(yaml, "t", params: ["trace": "1"], env: ["API_KEY": "k\n"]) })
        guard case .invalidInput(let d)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(d.first?.message, "the value of header 'X-Key' of demo.t holds a line break (from ${API_KEY})")
    }

    func testABearerTokenWithAControlCharacterIsBadInput() throws {
        let yaml = "baseURL: https://api.test\nauth: { bearer: \"${TOKEN}\" }\ntargets:\n  t: {}\n"
        let error = expectAPIError({ () throws(APIError) in try endpoint(yaml, "t", env: ["TOKEN": "a\u{0}b"]) })
        guard case .invalidInput(let d)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(d.first?.message, "the value of the bearer token of demo.t holds a control character (U+0000) (from ${TOKEN})")
    }

    func testOneGlobSyntax() {
        XCTAssertTrue(Glob.matches("*", "github.zen"))
        XCTAssertTrue(Glob.matches("github.*", "github.zen"))
        XCTAssertTrue(Glob.matches("*.zen", "github.zen"))
        XCTAssertTrue(Glob.matches("h?tpbin.get", "httpbin.get"))
        XCTAssertTrue(Glob.matches("httpbin.status[0-9]", "httpbin.status4"))
        XCTAssertFalse(Glob.matches("httpbin.status[!0-9]", "httpbin.status4"))
        XCTAssertTrue(Glob.matches("upload[AB]", "uploadB"))
        XCTAssertFalse(Glob.matches("upload[AB]", "uploadC"))
        XCTAssertTrue(Glob.matches("a[", "a["), "an unclosed [ is a literal")
        XCTAssertFalse(Glob.matches("*.get", "httpbin.getter"))
        XCTAssertTrue(Glob.matches("*a*b*c*", "xxaxxbxxcxx"))
        // A pattern that backtracks exponentially in a naive matcher stays fast.
        let long = String(repeating: "a", count: 5000)
        XCTAssertFalse(Glob.matches(String(repeating: "*a", count: 50) + "b", long))
        // AND `check` patterns and rules use it: a rule with a set matches by it
        XCTAssertTrue(Rule(match: "upload[AB]", except: ["*B"], headers: [], file: "f", mark: at(1, 1)).applies(to: "uploadA"))
        XCTAssertFalse(Rule(match: "upload[AB]", except: ["*B"], headers: [], file: "f", mark: at(1, 1)).applies(to: "uploadB"))
    }
}
