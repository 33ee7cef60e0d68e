import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 40: the mock's HTTP/1.1 requests as a hostile client sends them, against the real mock
/// process on loopback, byte for byte: requests split at every byte, bare LF, obs-fold, huge heads,
/// Content-Length with Transfer-Encoding, negative and overflowing sizes, pipelining floods. What
/// the mock answered when NIO's HTTP handlers parsed its requests is the contract for its own parser.
final class MockHostileRequestTests: MockFolderTestCase {
    override func setUpWithError() throws {
        try serve("""
            baseURL: http://127.0.0.1:9
            targets:
              user: { path: "/users/{name}", sample: { status: 200, headers: { X-Name: "{name}" }, json: { ok: true } } }
              hello: { path: /hello, sample: { json: { hello: world } } }
              post: { path: /items, method: POST, sample: { status: 201, json: { made: true } } }
              empty: { path: /none, sample: { status: 204 } }
            """, ["-q"])
    }

    var port: UInt16 { UInt16(mock.url.split(separator: ":").last!)! }

    static let hello = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"hello\":\"world\"}"
    static let made = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"made\":true}"
    static let bad = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"

    /// Sends `request` on a new connection (one byte a write when `split`), reads until the mock
    /// closes or `wait` seconds pass with nothing more; what came and whether it was closed.
    func exchange(_ request: [UInt8], split: Bool = false, wait: Double = 0.4) throws -> (answer: String, closed: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        var timeout = timeval(tv_sec: Int(wait), tv_usec: Int((wait - wait.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // sent from another thread while the answers are read here: a flood's answers fill the
        // socket's buffers, and the mock reads no more until they drain
        let sender = Thread { [request] in
            if split {
                for byte in request {
                    var b = byte
                    guard send(fd, &b, 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
                    usleep(200)
                }
            } else {
                var sent = 0
                while sent < request.count {
                    let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard n > 0 else { break }
                    sent += n
                }
            }
        }
        sender.start()
        defer { while !sender.isFinished { usleep(1000) } }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { answer += buffer[..<n]; continue }
            return (String(decoding: answer, as: UTF8.self), n == 0 || (n < 0 && errno == ECONNRESET))
        }
    }

    func exchange(_ request: String, split: Bool = false, wait: Double = 0.4) throws -> (answer: String, closed: Bool) {
        try exchange(Array(request.utf8), split: split, wait: wait)
    }

    func testRequestsSplitAtEveryByteAreAnsweredAsWhole() throws {
        let requests = [
            ("GET /users/ab HTTP/1.1\r\nHost: x\r\n\r\n",
             "HTTP/1.1 200 OK\r\nX-Name: ab\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}"),
            ("POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", Self.made),
            ("POST /items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\nabc\r\n0\r\nX-T: 1\r\n\r\n", Self.made),
            ("HEAD /hello HTTP/1.1\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n"),
        ]
        for (request, expected) in requests {
            let whole = try exchange(request)
            XCTAssertEqual(whole.answer, expected, request)
            XCTAssertFalse(whole.closed, request)
            let split = try exchange(request, split: true)
            XCTAssertEqual(split.answer, expected, "split at every byte: \(request)")
            XCTAssertFalse(split.closed, request)
        }
    }

    func testKeepAliveHTTP10AndHeadFollowTheRules() throws {
        let closing = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{\"hello\":\"world\"}"
        XCTAssertEqual(try exchange("GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n").answer, closing)
        XCTAssertEqual(try exchange("GET /hello HTTP/1.1\r\nconnection: keep-alive, CLOSE\r\n\r\n").answer, closing)
        let ten = try exchange("GET /hello HTTP/1.0\r\n\r\n")
        XCTAssertEqual(ten.answer, "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{\"hello\":\"world\"}")
        XCTAssertTrue(ten.closed)
        let tenKept = try exchange("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(tenKept.answer, "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"hello\":\"world\"}")
        XCTAssertFalse(tenKept.closed)
        XCTAssertEqual(try exchange("GET /none HTTP/1.1\r\n\r\n").answer, "HTTP/1.1 204 No Content\r\n\r\n")
        // a blank line before a request is skipped; HEAD's answer has no body, the next one does
        let both = try exchange("\r\nHEAD /hello HTTP/1.1\r\n\r\nGET /hello HTTP/1.1\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(both.answer, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n" + closing)
        XCTAssertTrue(both.closed)
        // a chunked body over HTTP/1.0 and a transfer-coding list that ends in chunked are read
        XCTAssertEqual(try exchange("POST /items HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n").answer, Self.made)
    }

    func testMalformedHeadsAre400AndClose() throws {
        let bad = [
            "GET /hello HTTP/1.1\nHost: x\n\n",                              // bare LF
            "GET /hello HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n",         // obs-fold
            "GET /hello HTTP/1.1\r\n X-A: 1\r\n\r\n",                         // a field line starting with a space
            "GET /hello HTTP/9.9\r\n\r\n", "GET /hello HTTP/2.0\r\n\r\n", "GET /hello http/1.1\r\n\r\n",
            "GET /hello HTTP/1.1 \r\n\r\n", "GARBAGE\r\n\r\n", "G(T /hello HTTP/1.1\r\n\r\n", "FOO /hello HTTP/1.1\r\n\r\n",
            "GET /hello HTTP/1.1\r\nX A: 1\r\n\r\n", "GET /hello HTTP/1.1\r\nX-A : 1\r\n\r\n",
            "GET /hello HTTP/1.1\r\nX-A: a\u{1}b\r\n\r\n", "GET /hel\u{0}lo HTTP/1.1\r\n\r\n", "GET /users/é HTTP/1.1\r\n\r\n",
        ]
        for request in bad {
            let got = try exchange(request)
            XCTAssertEqual(got.answer, Self.bad, request.debugDescription)
            XCTAssertTrue(got.closed, request.debugDescription)
        }
    }

    func testHugeHeadsAndTargets() throws {
        let huge = try exchange("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 100_000) + "\r\n\r\n")
        XCTAssertEqual(huge.answer, Self.bad)
        XCTAssertTrue(huge.closed)
        let long = try exchange("GET /" + String(repeating: "x", count: 9000) + " HTTP/1.1\r\n\r\n")
        XCTAssertEqual(long.answer, "HTTP/1.1 414 URI Too Long\r\nContent-Type: application/json\r\nContent-Length: 57\r\nConnection: close\r\n\r\n"
                       + "{\"error\":\"the request target is longer than 8192 bytes\"}\n")
        XCTAssertTrue(long.closed)
        let longer = try exchange("GET /" + String(repeating: "x", count: 90_000) + " HTTP/1.1\r\n\r\n")
        XCTAssertEqual(longer.answer, Self.bad)
        // many small fields within the head's size are fine
        let many = (0..<2000).map { "X-\($0): 1\r\n" }.joined()
        XCTAssertEqual(try exchange("GET /hello HTTP/1.1\r\n\(many)\r\n").answer, Self.hello)
    }

    func testBodyFramingAttacksAre400AndClose() throws {
        let bad = [
            "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",   // CL + TE (request smuggling)
            "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabc",
            "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
            "Content-Length: -3\r\n\r\nabc",
            "Content-Length: 99999999999999999999999\r\n\r\nabc",
            "Transfer-Encoding: gzip\r\n\r\nabc",
            "Transfer-Encoding: chunked, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            "Transfer-Encoding: chunked\r\n\r\n-1\r\nx\r\n0\r\n\r\n",
            "Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nx\r\n0\r\n\r\n",
            "Transfer-Encoding: chunked\r\n\r\n3\r\nabcX0\r\n\r\n",
        ]
        for fields in bad {
            let got = try exchange("POST /items HTTP/1.1\r\nHost: x\r\n" + fields)
            XCTAssertEqual(got.answer, Self.bad, fields.debugDescription)
            XCTAssertTrue(got.closed, fields.debugDescription)
        }
        // an answer already owed is sent before the 400
        let after = try exchange("GET /hello HTTP/1.1\r\n\r\nPOST /items HTTP/1.1\r\nContent-Length: x\r\n\r\n")
        XCTAssertEqual(after.answer, Self.hello + Self.bad)
    }

    func testAPipeliningFloodIsAnsweredInOrder() throws {
        let count = 5000
        let flood = (0..<count).map { "GET /users/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        let got = try exchange(flood, wait: 2)
        let names = got.answer.components(separatedBy: "\r\n").filter { $0.hasPrefix("X-Name: ") }.map { $0.dropFirst(8) }
        XCTAssertEqual(names.count, count)
        XCTAssertEqual(names, (0..<count).map { Substring(String($0)) })
        XCTAssertFalse(got.closed)
        // requests with bodies, pipelined in one write
        let posts = String(repeating: "POST /items HTTP/1.1\r\nContent-Length: 2\r\n\r\nab", count: 3)
            + "POST /items HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n"
        XCTAssertEqual(try exchange(posts).answer, String(repeating: Self.made, count: 4))
    }
}
