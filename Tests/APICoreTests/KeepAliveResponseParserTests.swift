import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TestServers
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APIEndpoint
@testable import APITransport
@testable import APILive

/// `KeepAliveResponseParser`, the keep-alive connections' own HTTP/1.1 response parser: every
/// response read whole, split in two at every byte and one byte a read gives the same result; and
/// hostile responses from a real socket (Tests/Servers/hostile-server.py) each fail with the error
/// NIO's decoder gave for them (or a stricter one), never a trap, a hang or unbounded memory.
final class KeepAliveResponseParserTests: XCTestCase {
    /// What a parse came to: "STATUS keep|close [leftover] BODY", or "error: DESCRIPTION".
    private func parse(_ pieces: [[UInt8]], bodiless: Bool = false) -> String {
        var parser = KeepAliveResponseParser()
        parser.expect(bodiless: bodiless)
        var status = 0, keep = false, body = [UInt8](), ended = false, leftover = false
        do {
            for piece in pieces {
                // Bytes after the end in a later read: the handler closes the connection for them.
                if ended { leftover = leftover || !piece.isEmpty; continue }
                try parser.parse(ByteBuffer(bytes: piece)) { event in
                    switch event {
                    case .head(let head, let keepAlive, _): (status, keep) = (head.status, keepAlive)
                    case .body(let bytes): body += Array(bytes.readableBytesView)
                    case .end(let more): (ended, leftover) = (true, more)
                    }
                }
            }
            if !ended {
                switch parser.closed() {
                case .ended: ended = true
                case .unanswered: return "error: unanswered"
                case .truncated: return "error: truncated"
                }
            }
        } catch {
            return "error: \(error)"
        }
        return "\(status) \(keep ? "keep" : "close")\(leftover ? " leftover" : "") \(String(decoding: body, as: UTF8.self))"
    }

    /// `bytes` whole, in two at every byte, and a byte a read: the one result, returned.
    private func everySplit(_ bytes: [UInt8], bodiless: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> String {
        let whole = parse([bytes], bodiless: bodiless)
        for cut in 1..<bytes.count {
            XCTAssertEqual(parse([Array(bytes[..<cut]), Array(bytes[cut...])], bodiless: bodiless), whole, "cut at \(cut)", file: file, line: line)
        }
        XCTAssertEqual(parse(bytes.map { [$0] }, bodiless: bodiless), whole, "a byte a read", file: file, line: line)
        return whole
    }

    private static let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

    func testWellFormedResponsesSplitAnywhere() {
        let cases: [(String, String)] = [
            (Self.ok, "200 keep ok"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value;x\r\nhello\r\n1;e=\"q\"\r\n,\r\n6\r\n world\r\n0\r\nX-T: t\r\n\r\n",
             "200 keep hello, world"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, CHUNKED\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n", "200 keep 0123456789"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\nraw", "200 close raw"),
            ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close", "200 close until the close"),
            ("HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\nold!", "200 close old!"),
            ("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 4\r\n\r\nold!", "200 keep old!"),
            ("HTTP/1.1 200 OK\r\nConnection: upgrade, close\r\nContent-Length: 2\r\n\r\nok", "200 close ok"),
            ("HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok", "200 keep ok"),
            ("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" + Self.ok, "200 keep ok"),
            ("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", "204 keep "),
            ("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", "304 keep "),
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n", "101 close "),
            ("HTTP/1.1 200 OK\r\nX-Empty:\r\nX-Tabs: \t a b \t\r\nContent-Length: 0\r\n\r\n", "200 keep "),
            (Self.ok + "HTTP/1.1 200 OK\r\n", "200 keep leftover ok"),
        ]
        for (response, expected) in cases {
            XCTAssertEqual(everySplit(Array(response.utf8)), expected, response)
        }
        // A HEAD's answer: its Content-Length tells the length of a body that does not follow.
        XCTAssertEqual(everySplit(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".utf8), bodiless: true), "200 keep ")
        // obs-text in a value is kept as it came (repaired UTF-8, as NIO's decoder makes its strings).
        XCTAssertEqual(everySplit(Array("HTTP/1.1 200 OK\r\nX-Latin: caf".utf8) + [0xE9] + Array("\r\nContent-Length: 2\r\n\r\nok".utf8)),
                       "200 keep ok")
    }

    func testHostileResponsesFailWithNIOsErrorsSplitAnywhere() {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        let cases: [(String, HTTPParserError)] = [
            ("HTTP/1.1 200 OK\nContent-Length: 2\n\nok", .unknown),
            ("HTTP/1.1 200 OK\r\nX-A: 1\nContent-Length: 2\r\n\r\nok", .unknown),
            ("HTTP/1.1 200 OK\r\nX-A: 1\rX-B: 2\r\nContent-Length: 2\r\n\r\nok", .lfExpected),
            ("HTTP/1.1 200 OK\r\nX-A: one\r\n two\r\nContent-Length: 2\r\n\r\nok", .invalidHeaderToken),
            ("HTTP/1.1 200 OK\r\nX-A: a\u{0}b\r\nContent-Length: 2\r\n\r\nok", .invalidHeaderToken),
            ("HTTP/1.1 200 OK\r\nX-A: a\u{7F}b\r\nContent-Length: 2\r\n\r\nok", .invalidHeaderToken),
            ("HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\nok", .invalidHeaderToken),
            ("HTTP/1.1 200 OK\r\n: x\r\nContent-Length: 2\r\n\r\nok", .invalidHeaderToken),
            ("HTTP/1.1 200 OK\r\nX-A\r\nContent-Length: 2\r\n\r\nok", .invalidHeaderToken),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", .unexpectedContentLength),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\nok\r\n0\r\n\r\n", .unexpectedContentLength),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\nContent-Length: 2\r\n\r\nok", .unexpectedContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok", .unexpectedContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok", .invalidContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nok", .invalidContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok", .invalidContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\nok", .invalidContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775808\r\n\r\nok", .invalidContentLength),
            ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nok", .invalidContentLength),
            (chunked + "-1\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
            (chunked + "8000000000000000\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
            (chunked + String(repeating: "f", count: 40) + "\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
            (chunked + "\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
            (chunked + "0x2\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
            (chunked + "2 ;e\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
            (chunked + "2;e\u{1}\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
            (chunked + "2\r\nokXX0\r\n\r\n", .strictModeAssertion),
            (chunked + "2\r\nok\r\n0\r\nX-T\u{1}: 1\r\n\r\n", .invalidHeaderToken),
            (chunked + "2\r\nok\r\n0\r\n two\r\n\r\n", .invalidHeaderToken),
            ("HTTP/2.0 200 OK\r\nContent-Length: 2\r\n\r\nok", .invalidVersion),
            ("HTTP/1.2 200 OK\r\nContent-Length: 2\r\n\r\nok", .invalidVersion),
            ("HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok", .invalidStatus),
            ("HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\nok", .invalidStatus),
            ("HTTP/1.1 2000 OK\r\nContent-Length: 2\r\n\r\nok", .invalidStatus),
            ("HTTP/1.1 099 OK\r\nContent-Length: 2\r\n\r\nok", .invalidStatus),
            ("HTTP/1.1 200 O\u{7}K\r\nContent-Length: 2\r\n\r\nok", .invalidStatus),
            ("ICY 200 OK\r\nContent-Length: 2\r\n\r\nok", .invalidConstant),
            ("HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 100 * 1024) + "\r\nContent-Length: 2\r\n\r\nok", .headerOverflow),
            ("HTTP/1.1 200 OK\r\n" + (0..<1001).map { "X-\($0): 1\r\n" }.joined() + "Content-Length: 2\r\n\r\nok", .headerOverflow),
            (chunked + "2\r\nok\r\n0\r\n" + String(repeating: "X-T: more\r\n", count: 9000) + "\r\n", .headerOverflow),
            (chunked + "2;" + String(repeating: "a", count: 5000) + "\r\nok\r\n0\r\n\r\n", .invalidChunkSize),
        ]
        for (response, error) in cases {
            let bytes = Array(response.utf8)
            // Whole and a byte a read always; in two at every byte for the short ones (the long ones
            // are quadratic, and their limits do not depend on where a read ends).
            let result = bytes.count < 2000 ? everySplit(bytes) : parse([bytes])
            if bytes.count >= 2000 { XCTAssertEqual(parse(bytes.map { [$0] }), result, String(response.prefix(80))) }
            XCTAssertEqual(result, "error: \(error)", String(response.prefix(80)))
        }
    }

    func testInterimFloodsAndTruncationsEnd() {
        let flood = String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: KeepAliveResponseParser.interimLimit + 1) + Self.ok
        XCTAssertEqual(everySplit(Array(flood.utf8)), "error: \(KeepAliveResponseParser.TooManyInterimResponses())")
        let enough = String(repeating: "HTTP/1.1 103 Early Hints\r\n\r\n", count: KeepAliveResponseParser.interimLimit) + Self.ok
        XCTAssertEqual(everySplit(Array(enough.utf8)), "200 keep ok")
        for cut in ["HTTP/1.1 200 OK\r\nContent-Len", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\nabc", "HTTP/1.1 100 Continue\r\n\r\n",
                    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n"] {
            XCTAssertEqual(everySplit(Array(cut.utf8)), "error: truncated", cut)
        }
        XCTAssertEqual(parse([]), "error: unanswered")
    }

    /// The head's fields come sorted as `NIOConnector.fields` sorts NIO's (names without case,
    /// repeated names in the order they came), a few or many, names sharing long prefixes.
    func testFieldsAreSortedAsEveryConnectionSortsThem() throws {
        let few = [("X-B", "1"), ("content-type", "a"), ("Content-Length", "0"), ("set-cookie", "a=1"), ("Server", "s"),
                   ("Set-Cookie", "b=2"), ("access-control-allow-origin", "*"), ("Access-Control-Allow-Credentials", "true"),
                   ("A", "x"), ("a-", "y"), ("a", "z"), ("Access-Control-Allow-Origin", "again"), ("x_y", "1"), ("X^Y", "2"),
                   ("0", "digit"), ("content-length-extra", "e")]
        var many = few
        for i in 0..<60 { many.append(("X-Field-\(String(i * 7919 % 61, radix: 36))-\(i % 3 == 0 ? "long-suffix" : "s")", "\(i)")) }
        for fields in [few, many] {
            let head = "HTTP/1.1 200 OK\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
            var parser = KeepAliveResponseParser()
            parser.expect(bodiless: true)
            var got: [HeaderField] = []
            try parser.parse(ByteBuffer(string: head)) { event in
                if case .head(let head, _, _) = event { got = head.fields }
            }
            let expected = NIOConnector.fields(HTTPHeaders(fields))
            XCTAssertEqual(got.map { "\($0.name): \($0.value)" }, expected.map { "\($0.name): \($0.value)" })
        }
    }

    /// One parser for a connection's responses one after another (as `KeepAliveHandler` keeps it):
    /// a field line the same as the one at its place in an earlier head is taken as that field
    /// again, so each response here must read as a fresh parser reads it — framing (the length, a
    /// close, chunking) from this head's bytes, a changed line at a known place read anew, a line
    /// that moved, fields beyond the remembered places, and a hostile line after known ones refused.
    func testAConnectionsParserReadsEachHeadAsANewOneWould() throws {
        let many = (0..<40).map { "X-\($0): v\r\n" }.joined()
        let long = String(repeating: "a", count: KeepAliveResponseParser.seenLineLimit + 10)
        let heads = [
            "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nServer: s\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n2\r\nok\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nServer: s\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n3\r\nyes\r\n0\r\n\r\n",
            "HTTP/1.1 201 Created\r\nContent-Length: 2\r\nServer: s\r\nConnection: keep-alive\r\n\r\nok",
            "HTTP/1.1 200 OK\r\n" + many + "Content-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\n" + many + "Content-Length: 3\r\n\r\nyes",
            "HTTP/1.1 200 OK\r\nX-Long: " + long + "\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nX-Long: " + long + "\r\nContent-Length: 3\r\n\r\nyes",
            "HTTP/1.1 200 OK\r\nX-Long: short\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 2\r\nConnection : close\r\n\r\nok",
        ]
        var parser = KeepAliveResponseParser()
        for (n, response) in heads.enumerated() {
            // What a new parser makes of it.
            let expected = parse([Array(response.utf8)])
            parser.expect(bodiless: false)
            var status = 0, keep = false, body = "", fields: [String] = []
            var got = ""
            do {
                try parser.parse(ByteBuffer(string: response)) { event in
                    switch event {
                    case .head(let head, let keepAlive, _):
                        (status, keep, fields) = (head.status, keepAlive, head.fields.map { "\($0.name): \($0.value)" })
                    case .body(let bytes): body += String(buffer: bytes)
                    case .end: break
                    }
                }
                got = "\(status) \(keep ? "keep" : "close") \(body)"
                var fresh = KeepAliveResponseParser()
                fresh.expect(bodiless: false)
                var freshFields: [String] = []
                try fresh.parse(ByteBuffer(string: response)) { event in
                    if case .head(let head, _, _) = event { freshFields = head.fields.map { "\($0.name): \($0.value)" } }
                }
                XCTAssertEqual(fields, freshFields, "response \(n): the fields")
            } catch {
                got = "error: \(error)"
                parser = KeepAliveResponseParser()  // a connection that failed is closed
            }
            XCTAssertEqual(got, expected, "response \(n)")
        }
    }

    /// The token bytes of a field name (`HTTP1Syntax`, which the mock's parser and the target files'
    /// token check use too) are exactly RFC 9110's tchar.
    func testTokenBytesAreRFC9110s() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            XCTAssertEqual(HTTP1Syntax.isTokenByte(byte), tchar.contains(byte), "byte \(byte)")
        }
    }

    // MARK: over a socket

    private let loop = MultiThreadedEventLoopGroup.singleton.next()

    private func get(_ url: String, on transport: any Transport) async throws -> Response {
        try await EventLoopExecutor.$current.withValue(loop) {
            try await transport.send(PreparedRequest(url: URL(string: url)!, method: "GET", headers: [], body: nil, timeout: 20))
        }
    }

    /// Each of hostile-server.py's responses through the keep-alive engine: the error a user reads
    /// (`NetworkFailure`), or the body, as NIO's decoder made them, whole and one byte a read.
    func testHostileServerResponsesThroughTheKeepAliveEngine() async throws {
        let server = try TestServer("hostile-server.py", ["--lifetime", "120"])
        defer { server.stop() }
        let host = "127.0.0.1:\(server.port)"
        let malformed = { (e: HTTPParserError) in "\(APIError.network(.malformedResponse(host: host, detail: "\(e)")))" }
        let statusLine = "\(APIError.network(.malformedStatusLine(host: host)))"
        let tooLarge = "\(APIError.network(.headTooLarge(host: host)))"
        let truncated = { (got: Int64?, of: Int64?) in "\(APIError.network(.truncated(host: host, expected: of, received: got)))" }
        let expected: [(String, String)] = [
            ("ok", "200 ok"), ("chunked", "200 hello, world"), ("chunked-upper", "200 0123456789"),
            ("until-close", "200 until the close"), ("http10", "200 old!"), ("no-reason", "200 ok"), ("interim", "200 ok"),
            ("no-content", "204 "), ("obs-text", "200 ok"),
            ("bare-lf", statusLine), ("bare-lf-field", statusLine), ("bare-cr", malformed(.lfExpected)),
            ("obs-fold", malformed(.invalidHeaderToken)), ("nul-value", malformed(.invalidHeaderToken)),
            ("space-before-colon", malformed(.invalidHeaderToken)), ("empty-name", malformed(.invalidHeaderToken)),
            ("no-colon", malformed(.invalidHeaderToken)), ("cl-te", malformed(.unexpectedContentLength)),
            ("te-cl", malformed(.unexpectedContentLength)), ("cl-twice", malformed(.unexpectedContentLength)),
            ("cl-list", malformed(.invalidContentLength)), ("cl-negative", malformed(.invalidContentLength)),
            ("cl-letters", malformed(.invalidContentLength)), ("cl-overflow", malformed(.invalidContentLength)),
            ("chunk-negative", malformed(.invalidChunkSize)), ("chunk-overflow", malformed(.invalidChunkSize)),
            ("chunk-overflow-long", malformed(.invalidChunkSize)), ("chunk-empty-size", malformed(.invalidChunkSize)),
            ("chunk-ext-space", malformed(.invalidChunkSize)), ("chunk-no-crlf", malformed(.strictModeAssertion)),
            ("chunk-huge", truncated(14, nil)), ("trailer-bad", malformed(.invalidHeaderToken)),
            ("bad-version", statusLine), ("bad-status", statusLine), ("short-status", statusLine), ("not-http", statusLine),
            ("reason-ctl", statusLine), ("truncated-head", truncated(0, nil)), ("truncated-body", truncated(3, 10)),
            ("truncated-chunk", truncated(3, nil)), ("huge-header", tooLarge), ("many-fields", tooLarge),
            ("endless-head", tooLarge), ("endless-trailers", tooLarge), ("endless-chunk-ext", malformed(.invalidChunkSize)),
            ("interim-flood", "\(APIError.network(.malformedResponse(host: host, detail: "\(KeepAliveResponseParser.TooManyInterimResponses())")))"),
        ]
        let transport = LiveTransport(only: .keepAlive)
        let short = Set(["ok", "chunked", "interim", "bare-lf", "cl-te", "chunk-negative", "chunk-no-crlf", "truncated-body", "bad-status"])
        for (name, want) in expected {
            for path in short.contains(name) ? [name, "split/" + name] : [name] {
                let got: String
                do {
                    let r = try await get(server.url + "/" + path, on: transport)
                    got = "\(r.status) \(String(decoding: r.body, as: UTF8.self))"
                } catch {
                    got = "\(error)"
                }
                XCTAssertEqual(got, want, path)
            }
        }
    }

    /// Bytes that follow a response in the same read (nothing asked for them) leave the connection
    /// unkept: the next request goes on a new one, and gets its own answer, not those bytes.
    func testBytesAfterAResponseAreNotTakenForTheNextOne() async throws {
        let server = try TestServer("hostile-server.py", ["--lifetime", "120"])
        defer { server.stop() }
        let transport = LiveTransport(only: .keepAlive)
        let first = try await get(server.url + "/leftover", on: transport)
        XCTAssertEqual(String(decoding: first.body, as: UTF8.self), "ok")
        let second = try await get(server.url + "/count", on: transport)
        XCTAssertEqual(String(decoding: second.body, as: UTF8.self), "2", "a new connection")
        let third = try await get(server.url + "/count", on: transport)
        XCTAssertEqual(String(decoding: third.body, as: UTF8.self), "2", "the kept one")
        // A response nobody asked for that comes while the connection is idle closes it too.
        let late = try await get(server.url + "/late-extra", on: transport)
        XCTAssertEqual(String(decoding: late.body, as: UTF8.self), "ok")
        try await Task.sleep(nanoseconds: 600_000_000)
        let fourth = try await get(server.url + "/count", on: transport)
        XCTAssertEqual(String(decoding: fourth.body, as: UTF8.self), "3", "a new connection")
    }

    /// The handler holds its context strongly (a weak reference slowed every retain of it): the
    /// cycle must end when the connection closes (`handlerRemoved`), or each closed connection —
    /// a server answering `Connection: close`, a run's every request — would keep its handler and
    /// context for good.
    func testAClosedConnectionLetsGoOfItsHandler() async throws {
        let server = try await ServerBootstrap(group: loop).bind(host: "127.0.0.1", port: 0).get()
        defer { server.close(promise: nil) }
        weak var released: KeepAliveHandler?
        do {
            let made = Locked<KeepAliveHandler?>(nil)
            let client = try await ClientBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = KeepAliveHandler()
                        made.set(handler)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
                .connect(to: server.localAddress!).get()
            released = made.current
            made.set(nil)
            XCTAssertNotNil(released)
            try await client.close()
        }
        let end = Date().addingTimeInterval(5)
        while released != nil && Date() < end { try await Task.sleep(nanoseconds: 20_000_000) }
        XCTAssertNil(released, "the handler and its context are freed once the connection is closed")
    }
}
