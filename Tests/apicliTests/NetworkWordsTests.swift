import Foundation
import XCTest

/// Network failures in plain words, without the library's type names. Only loopback and an
/// RFC 6761 `.invalid` name (which never resolves) are used: no public host is contacted.
final class NetworkWordsTests: XCTestCase {

    func testAnUnresolvableHostSaysCannotResolve() throws {
        // GIVEN a base URL whose host can never resolve
        let r = try CLI.run(["call", "httpbin.get", "--base-url", "http://apicli-test.invalid"], timeout: 60)
        // THEN exit 3 and one plain sentence (not "SocketAddressError.UnknownHost …")
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertEqual(r.stderr, "apicli: httpbin.get: network error: cannot resolve host apicli-test.invalid\n")
    }

    func testAClosedLocalPortSaysConnectionRefused() throws {
        let r = try CLI.run(["call", "httpbin.get", "--base-url", "http://127.0.0.1:9"])
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: httpbin.get: network error: cannot connect to 127.0.0.1:9 (connection refused)\n")
    }
}
