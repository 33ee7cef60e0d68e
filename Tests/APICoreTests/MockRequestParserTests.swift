import XCTest
import NIOCore
@testable import APIMock

/// The mock's own HTTP/1.1 request parser (issue 40): whole requests out of bytes that come in any
/// split, and the requests NIO's parser refused refused as well.
final class MockRequestParserTests: XCTestCase {
    /// Every step of `parser` over `text` fed in pieces of `piece` bytes: requests as
    /// "METHOD uri 1.minor keep|close body", then "invalid" if the bytes were refused.
    func steps(_ text: String, piece: Int = .max, keepBody: Bool = true) -> [String] {
        var parser = MockRequestParser()
        parser.keepBody = keepBody
        var buffer = ByteBuffer()
        var out: [String] = []
        let bytes = Array(text.utf8)
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + min(piece, bytes.count))
            buffer.writeBytes(bytes[at..<end])
            at = end
            loop: while true {
                switch parser.next(&buffer) {
                case .incomplete: break loop
                case .invalid: return out + ["invalid"]
                case .request(let r, let body):
                    out.append("\(r.method) \(r.uri) 1.\(r.minor) \(r.keepAlive ? "keep" : "close") \(String(decoding: body, as: UTF8.self))"
                               + (r.sample.map { " sample=\($0)" } ?? "") + (r.upgradesToWebSocket ? " ws" : ""))
                }
            }
        }
        return out
    }

    func testRequestsAreTheSameWhateverTheSplit() {
        let text = "\r\nGET /a?b=c HTTP/1.1\r\nHost: x\r\nX-Apicli-Sample: missing\r\n\r\n"
            + "POST /p HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
            + "POST /c HTTP/1.1\r\nTransfer-Encoding: gzip, CHUNKED\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n"
            + "GET /u HTTP/1.0\r\nConnection: keep-alive\r\nUpgrade: h2c, WebSocket\r\n\r\n"
            + "HEAD / HTTP/1.0\r\n\r\n"
            + "GET http://h/x HTTP/1.1\r\nConnection: Keep-Alive, close\r\n\r\n"
        let expected = [
            "GET /a?b=c 1.1 keep  sample=missing", "POST /p 1.1 keep abc", "POST /c 1.1 keep abc0123456789",
            "GET /u 1.0 keep  ws", "HEAD / 1.0 close ", "GET http://h/x 1.1 close ",
        ]
        for piece in [1, 2, 3, 7, 64, .max] {
            XCTAssertEqual(steps(text, piece: piece), expected, "pieces of \(piece)")
        }
        // a body not kept is skipped all the same
        XCTAssertEqual(steps("POST /p HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\n\r\n", keepBody: false),
                       ["POST /p 1.1 keep ", "GET / 1.1 keep "])
    }

    func testTheFieldsAreMadeFromTheHeadWhenAsked() {
        var parser = MockRequestParser()
        var buffer = ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\nX-A:  one two \t\r\nx-b:\r\n\r\nGET /next HTTP/1.1\r\n\r\n")
        guard case .request(let r, _) = parser.next(&buffer) else { return XCTFail() }
        XCTAssertEqual(r.fields.map { "\($0.name)=\($0.value)" }, ["Host=x", "X-A=one two", "x-b="])
        XCTAssertEqual(r.nio.headers.count, 3)
        guard case .request(let next, _) = parser.next(&buffer) else { return XCTFail() }
        XCTAssertEqual(next.uri, "/next")
        XCTAssertTrue(next.fields.isEmpty)
    }

    func testRefusedHeadsAndBodies() {
        let refused = [
            "GET / HTTP/1.1\nHost: x\n\n", "GET / HTTP/1.1\r\nHost: x\n\r\n", "GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n",
            "GET / HTTP/1.1\r\n X: 1\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET / HTTP/1.2\r\n\r\n", "GET / HTTP/0.9\r\n\r\n",
            "GET / http/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", "GET /\r\n\r\n", "get / HTTP/1.1\r\n\r\n",
            "FOO / HTTP/1.1\r\n\r\n", "GET\t/ HTTP/1.1\r\n\r\n", "GET /a\u{7f} HTTP/1.1\r\n\r\n", "GET /é HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nX A: 1\r\n\r\n", "GET / HTTP/1.1\r\nX : 1\r\n\r\n", "GET / HTTP/1.1\r\n: 1\r\n\r\n",
            "GET / HTTP/1.1\r\nX\r\n\r\n", "GET / HTTP/1.1\r\nX: a\u{1}\r\n\r\n", "GET / HTTP/1.1\r\nX: a\u{7f}\r\n\r\n",
            "GET / HTTP/1.1\rX: 1\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: -3\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length: +3\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 3, 3\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length:\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3 \r\n", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX A: 1\r\n\r\n",
        ]
        for text in refused {
            for piece in [1, .max] {
                XCTAssertEqual(steps(text, piece: piece).last, "invalid", "\(text.debugDescription) in pieces of \(piece)")
            }
        }
    }

    func testSizesAtTheirLimits() {
        // 64-bit chunk sizes and lengths are taken (a body that long is only waited for)
        XCTAssertEqual(steps("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nabc"), [])
        XCTAssertEqual(steps("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000003\r\nabc\r\n0\r\n\r\n"),
                       ["POST / 1.1 keep abc"])
        XCTAssertEqual(steps("POST / HTTP/1.1\r\nContent-Length: 18446744073709551615\r\n\r\nabc"), [])
        // a head over 80 KiB is refused as soon as it is, not when it ends
        XCTAssertEqual(steps("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 90_000), piece: 4096), ["invalid"])
        XCTAssertEqual(steps("GET /" + String(repeating: "a", count: 60_000) + " HTTP/1.1\r\n\r\n").count, 1)
        // a body kept only up to its limit
        var parser = MockRequestParser()
        parser.keepBody = true
        parser.maxBody = 2
        var buffer = ByteBuffer(string: "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcdeGET / HTTP/1.1\r\n\r\n")
        guard case .request(_, let body) = parser.next(&buffer) else { return XCTFail() }
        XCTAssertEqual(body, Array("ab".utf8))
        guard case .request(let next, _) = parser.next(&buffer) else { return XCTFail() }
        XCTAssertEqual(next.uri, "/")
    }
}
