import Foundation
import XCTest

/// Every request names apicli (`User-Agent: apicli/VERSION`, as curl and xh name themselves) unless
/// something names another client; checked by what a real httpbin's `/headers` saw arrive.
final class DefaultUserAgentTests: XCTestCase {
    var base = ""

    override func setUpWithError() throws {
        base = try CLI.httpbin()
    }

    /// `apicli/` and what `apicli --version` prints: one version for both.
    func defaultAgent() throws -> String {
        XCTAssertTrue(CLI.defaultUserAgent.hasPrefix("apicli/0."), CLI.defaultUserAgent)
        return CLI.defaultUserAgent
    }

    func testARequestThatNamesNoClientArrivesWithApicliAndItsVersion() throws {
        // GIVEN an ad-hoc call that sets no User-Agent WHEN it is sent
        let echo = try Echo.decode(try CLI.run(["call", base + "/headers"]))
        // THEN the server saw apicli's name and version
        XCTAssertEqual(echo.headers["User-Agent"], try defaultAgent())
    }

    func testAUserAgentInAnyCaseReplacesTheDefaultInsteadOfJoiningIt() throws {
        // GIVEN -H user-agent (lower case) WHEN sent THEN exactly that value arrives, once
        let echo = try Echo.decode(try CLI.run(["call", base + "/headers", "-H", "user-agent: mine/1"]))
        XCTAssertEqual(echo.headers["User-Agent"], "mine/1")
        // AND a target file's header wins over the default too
        let echoed = try Echo.decode(try CLI.run(["call", "httpbin.headers"], env: ["APICLI_BASE_URL_HTTPBIN": base]))
        XCTAssertEqual(echoed.headers["User-Agent"], "apicli")
    }

    func testDryRunAndCurlShowTheDefaultThatIsSent() throws {
        // WHEN the same ad-hoc call is printed instead of sent THEN each print names the same client
        let agent = try defaultAgent()
        let dry = try CLI.run(["call", base + "/headers", "--dry-run"])
        XCTAssertEqual(dry.stdout, "GET \(base)/headers\nUser-Agent: \(agent)\n", dry.stderr)
        // AND --curl (sending) prints a curl command that sends the same one curl would replace
        let curl = try CLI.run(["call", base + "/headers", "--curl"])
        XCTAssertEqual(curl.code, 0, curl.stderr)
        XCTAssertTrue(curl.stderr.contains("-H 'User-Agent: \(agent)'"), curl.stderr)
    }
}
