import Foundation
import XCTest

/// `-v` prints the headers that go out, those the transport adds (Host, Content-Length,
/// Accept-Encoding) among them, as curl -v does: checked against what a real httpbin's `/headers`
/// and `/anything` saw arrive, for the keep-alive connections and async-http-client.
final class VerboseSentHeadersTests: XCTestCase {
    var base = ""

    override func setUpWithError() throws {
        base = try CLI.httpbin()
    }

    /// The `> Name: value` lines of -v's request block.
    func printed(_ stderr: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in stderr.split(separator: "\n") where line.hasPrefix("> ") {
            let text = line.dropFirst(2)
            guard let colon = text.firstIndex(of: ":"), !text.hasPrefix("GET "), !text.hasPrefix("POST ") else { continue }
            out[String(text[..<colon])] = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    @discardableResult
    func assertPrintedIsWhatArrived(_ args: [String], env: [String: String] = [:], line: UInt = #line) throws -> [String: String] {
        let r = try CLI.run(["call"] + args + ["-v"], env: env)
        XCTAssertEqual(r.code, 0, r.stderr, line: line)
        let arrived = try Echo.decode(r).headers
        let shown = printed(r.stderr)
        // httpbin names headers in its own case: compare names without case
        func lowered(_ h: [String: String]) -> [String: String] {
            Dictionary(h.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        XCTAssertEqual(lowered(shown), lowered(arrived), "-v printed:\n\(r.stderr)", line: line)
        return shown
    }

    func testAGetShowsHostAndAcceptEncodingAsSent() throws {
        // GIVEN a GET (async-http-client, the CLI's path) WHEN -v THEN every header that arrived was printed, no other
        let shown = try assertPrintedIsWhatArrived([base + "/headers", "-H", "X-Trace: 7"])
        XCTAssertEqual(shown["Host"], String(base.dropFirst("http://".count)))
        XCTAssertEqual(shown["Accept-Encoding"], "deflate, gzip")
    }

    func testAPostShowsItsContentLength() throws {
        // GIVEN a POST with a body WHEN -v THEN its Content-Length is printed as it arrived
        let r = try CLI.run(["call", base + "/anything", "-d", "a=1&b=2", "-v"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(printed(r.stderr)["Content-Length"], "7", r.stderr)
        XCTAssertEqual(try Echo.decode(r).headers["Content-Length"], "7")
        try assertPrintedIsWhatArrived([base + "/anything", "-d", "a=1&b=2"])
    }

    func testAHostOrAcceptEncodingOfTheRequestIsPrintedOnceAndSentAsGiven() throws {
        let shown = try assertPrintedIsWhatArrived([base + "/headers", "-H", "Accept-Encoding: identity", "-H", "Host: example.test"])
        XCTAssertEqual(shown["Host"], "example.test")
        XCTAssertEqual(shown["Accept-Encoding"], "identity")
    }
}
