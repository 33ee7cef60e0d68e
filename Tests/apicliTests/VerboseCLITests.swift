import Foundation
import XCTest

/// `-v` and `-vv` through the core's logger plugin, golden stderr from stubbed calls.
final class VerboseCLITests: XCTestCase {
    func testVerbosePrintsTheRequestWithBodyThenTheResponseHead() throws {
        // WHEN a stubbed POST runs with -v
        let r = try CLI.run(["call", "httpbin.post", "--stub", "-v"])
        // THEN stderr holds the request line, headers, body, then the status with the time and headers
        XCTAssertEqual(r.code, 0)
        let stderr = r.stderr.replacingOccurrences(of: #"\(\d+ ms\)"#, with: "(N ms)", options: .regularExpression)
        XCTAssertEqual(stderr, """
            * stub: sample of httpbin.post
            > POST https://httpbin.org/post
            > User-Agent: apicli
            > Content-Type: application/json
            > 
            {"title":"Found a bug","labels":["bug"],"count":2,"draft":false}
            < HTTP/1.1 200 OK  (N ms)
            < Content-Type: application/json

            """)
    }

    func testVeryVerboseAddsTheBodyOfARejectedResponse() throws {
        // WHEN a stubbed 404 that validate: success rejects runs with -v and with -vv
        let once = try CLI.run(["call", "github.userProfile", "--stub", "--sample", "notFound", "-v"])
        let twice = try CLI.run(["call", "github.userProfile", "--stub", "--sample", "notFound", "-vv"])
        let body = #"{"message":"Not Found","documentation_url":"https://docs.github.com/rest/users/users#get-a-user","status":"404"}"#
        // THEN only -vv logs the body, after the head; both exit 1 with the rejection line last
        XCTAssertEqual(twice.code, 1)
        XCTAssertFalse(once.stderr.contains("< \n"), once.stderr)
        XCTAssertTrue(twice.stderr.hasSuffix("""
            < Content-Type: application/json; charset=utf-8
            < 
            \(body)
            apicli: github.userProfile: rejected: status 404 Not Found is not accepted by validate: success (200-299)

            """), twice.stderr)
        XCTAssertEqual(twice.stderr.components(separatedBy: "\n").count, once.stderr.components(separatedBy: "\n").count + 2)
    }

    func testDryRunSendsNothingAndExitsZero() throws {
        // GIVEN a base URL where nothing listens
        // WHEN --dry-run is given THEN the request is printed and nothing is sent (no network error)
        let r = try CLI.run(["call", "httpbin.get", "--dry-run", "--base-url", "http://127.0.0.1:9"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "GET http://127.0.0.1:9/get?page=1&tags%5B%5D=a&tags%5B%5D=b\nUser-Agent: apicli\n")
        XCTAssertEqual(r.stderr, "")
    }
}
