import Foundation
import TestServers
import XCTest

/// A test case that compares what the real `curl` sends with what apicli sends: it needs
/// /usr/bin/curl and runs Tests/Servers/echo-server.py (which answers with the request as it arrived).
class CurlEchoTestCase: FolderTestCase {
    var server: TestServer!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no /usr/bin/curl: run make deps") }
            throw XCTSkip("no /usr/bin/curl (make deps installs it)")
        }
        server = try TestServer("echo-server.py")
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }
}
