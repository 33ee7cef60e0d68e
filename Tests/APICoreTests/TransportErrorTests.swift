import Foundation
#if canImport(FoundationNetworking) && URLSessionTransport
import FoundationNetworking
#endif
import XCTest
@testable import APIDiagnostics
@testable import APIEndpoint
@testable import APITransport
@testable import APILive

/// What transport failures and statuses read as, without a network: `URLSessionConnector.describe`
/// (URLError → APIError) and `Response.statusLine`.
final class TransportErrorTests: XCTestCase {
    private let request = PreparedRequest(url: URL(string: "http://127.0.0.1:8080/get")!, method: "GET", headers: [],
                                          body: nil, timeout: 2.5)

    #if !os(Linux) || URLSessionTransport
    func testURLErrorsBecomeNetworkErrorsNamingTheHost() {
        // GIVEN the common URLSession failures for a request to 127.0.0.1:8080
        func describe(_ code: URLError.Code) -> APIError { URLSessionConnector.describe(URLError(code), request) }
        // THEN each reads as a sentence about that host
        XCTAssertEqual(describe(.cannotConnectToHost), .network(.refused(host: "127.0.0.1:8080")))
        XCTAssertEqual(describe(.cannotFindHost), .network(.dns(host: "127.0.0.1:8080")))
        XCTAssertEqual(describe(.dnsLookupFailed), .network(.dns(host: "127.0.0.1:8080")))
        XCTAssertEqual(describe(.networkConnectionLost), .network(.reset(host: "127.0.0.1:8080")))
        XCTAssertEqual(describe(.notConnectedToInternet), .network(.offline))
        XCTAssertEqual(describe(.badServerResponse), .network(.malformedResponse(host: "127.0.0.1:8080", detail: nil)))
        XCTAssertEqual(describe(.httpTooManyRedirects), .network(.tooManyRedirects(host: "127.0.0.1:8080")))
        XCTAssertEqual(describe(.cancelled), .network(.cancelled(host: "127.0.0.1:8080")))
    }

    func testURLTimeoutBecomesTimedOutWithTheRequestsTimeout() {
        // GIVEN URLSession's timeout error
        // THEN it is the timeout case carrying the request's own timeout
        XCTAssertEqual(URLSessionConnector.describe(URLError(.timedOut), request), .timedOut(2.5))
    }

    func testHostWithoutAPortIsNamedAlone() {
        // GIVEN a request to a host on its default port
        let plain = PreparedRequest(url: URL(string: "https://api.test/x")!, method: "GET", headers: [], body: nil, timeout: 1)
        // THEN only the host is named
        XCTAssertEqual(URLSessionConnector.describe(URLError(.cannotConnectToHost), plain),
                       .network(.refused(host: "api.test")))
    }

    #endif

    func testStatusLines() {
        // THEN known codes carry their reason phrase and others stand alone
        func line(_ status: Int) -> String { Response(status: status, headers: [], body: Data(), duration: 0).statusLine }
        XCTAssertEqual(line(200), "HTTP/1.1 200 OK")
        XCTAssertEqual(line(201), "HTTP/1.1 201 Created")
        XCTAssertEqual(line(304), "HTTP/1.1 304 Not Modified")
        XCTAssertEqual(line(418), "HTTP/1.1 418 I'm a teapot")
        XCTAssertEqual(line(422), "HTTP/1.1 422 Unprocessable Content")
        XCTAssertEqual(line(503), "HTTP/1.1 503 Service Unavailable")
        XCTAssertEqual(line(299), "HTTP/1.1 299")
        XCTAssertEqual(Response(status: 204, headers: [], body: Data(), duration: 0, httpVersion: "HTTP/2").statusLine,
                       "HTTP/2 204 No Content")
    }
}
