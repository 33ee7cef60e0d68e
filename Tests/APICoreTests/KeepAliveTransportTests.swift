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
@testable import APILoad
@testable import APIImport

/// What is particular to `KeepAliveTransport`'s own connections (the shared contract is in
/// TransportContractTests and TransferContractTests): kept connections, and one dropped by the server.
final class KeepAliveTransportTests: XCTestCase {
    /// Every request of a test on one loop, so each one after the first takes the kept connection.
    private let loop = MultiThreadedEventLoopGroup.singleton.next()

    private func get(_ url: String, method: String = "GET", on transport: any Transport) async throws -> Response {
        try await EventLoopExecutor.$current.withValue(loop) {
            try await transport.send(PreparedRequest(url: URL(string: url)!, method: method, headers: [], body: nil, timeout: 20))
        }
    }

    /// Issue 37: what `headersSent` tells (-v prints) is what arrives, Host, Accept-Encoding and
    /// Content-Length among them, from the keep-alive connections and async-http-client alike.
    func testTheHeadersSentAreTheHeadersThatArrive() async throws {
        guard let httpbin = ProcessInfo.processInfo.environment["APICLI_TEST_HTTPBIN"], !httpbin.isEmpty else {
            throw XCTSkip("no local httpbin (APICLI_TEST_HTTPBIN)")
        }
        for (name, transport) in [("keep-alive", LiveTransport(only: .keepAlive)), ("async-http-client", LiveTransport(only: .nio))] {
            for (method, body) in [("GET", nil), ("POST", Data("a=1".utf8)), ("PUT", nil)] as [(String, Data?)] {
                let request = PreparedRequest(url: URL(string: httpbin + "/anything?x=1")!, method: method,
                                              headers: [HeaderField("X-A", "1")], body: body.map { .data($0) }, timeout: 20)
                let (told, response) = try await EventLoopExecutor.$current.withValue(loop) { () async throws -> ([HeaderField], Response) in
                    let told = transport.headersSent(request, transfer: Transfer())
                    return (told, try await transport.send(request))
                }
                let echo = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                let arrived = (echo?["headers"] as? [String: String] ?? [:]).map { "\($0.key.lowercased()): \($0.value)" }.sorted()
                XCTAssertEqual(told.map { "\($0.name.lowercased()): \($0.value)" }.sorted(), arrived, "\(name) \(method)")
                XCTAssertNotNil(told.value(of: "Host"), "\(name) \(method)")
                XCTAssertEqual(told.value(of: "Accept-Encoding"), "deflate, gzip", "\(name) \(method)")
            }
        }
    }

    /// Issue 33: one connector keeps the header block it encoded last for the next request with the
    /// same headers, method, host, port and body length; a request that differs in any of them
    /// (here its own header, then its Host, then only its path) goes out with its own fields.
    func testEachRequestGoesOutWithItsOwnHeaderBlock() async throws {
        guard let httpbin = ProcessInfo.processInfo.environment["APICLI_TEST_HTTPBIN"], !httpbin.isEmpty,
              let port = URL(string: httpbin)?.port else {
            throw XCTSkip("no local httpbin (APICLI_TEST_HTTPBIN)")
        }
        let transport = LiveTransport(only: .keepAlive)
        let sends: [(url: String, value: String, host: String)] = [
            ("http://127.0.0.1:\(port)/anything/a", "1", "127.0.0.1:\(port)"),
            ("http://127.0.0.1:\(port)/anything/a", "2", "127.0.0.1:\(port)"),
            ("http://localhost:\(port)/anything/a", "2", "localhost:\(port)"),
            ("http://localhost:\(port)/anything/b?q=1", "2", "localhost:\(port)"),
        ]
        for (url, value, host) in sends {
            let request = PreparedRequest(url: URL(string: url)!, method: "GET", headers: [HeaderField("X-A", value)], body: nil, timeout: 20)
            let response = try await EventLoopExecutor.$current.withValue(loop) { try await transport.send(request) }
            let echo = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            let arrived = echo?["headers"] as? [String: String] ?? [:]
            XCTAssertEqual(arrived["X-A"], value, url)
            XCTAssertEqual(arrived["Host"], host, url)
            XCTAssertEqual(echo?["url"] as? String, url, url)
        }
    }

    /// Issue 34 item 25: a port above 65535 that got past the files and the command line (a caller's
    /// URL) is a clean error from every engine's entry, never a trap in `SocketAddress`.
    func testAPortAbove65535IsAnErrorNotATrap() async throws {
        for transport in [LiveTransport(only: .keepAlive) as any Transport, LiveTransport(only: .nio), LiveTransport(only: .h2c), LiveTransport()] {
            do {
                let r = try await get("http://127.0.0.1:99999/", on: transport)
                XCTFail("expected a refusal, got \(r.status)")
            } catch let error as APIError {
                XCTAssertEqual(error.kind, .invalid, "\(error)")
                XCTAssertTrue("\(error)".contains("a port is 1 to 65535"), "\(error)")
            }
        }
    }

    /// faultserver's /keep-then-drop answers and keeps the connection, then closes it unanswered at
    /// the next request: that request goes again on a new connection, once.
    func testAKeptConnectionTheServerDroppedIsReplacedOnce() async throws {
        let faults = try TestServer("faultserver.py", ["--lifetime", "120"])
        defer { faults.stop() }
        let transport = LiveTransport(only: .keepAlive)
        for n in 1...4 {
            let r = try await get(faults.url + "/keep-then-drop", on: transport)
            XCTAssertEqual(r.status, 200, "request \(n)")
            XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "kept", "request \(n)")
        }
    }

    /// A new connection closed before any answer is a reset, as async-http-client reports it.
    func testANewConnectionClosedUnansweredIsAReset() async throws {
        let faults = try TestServer("faultserver.py", ["--lifetime", "120", "--raw", "close"])
        defer { faults.stop() }
        let url = faults.url + "/ok"
        var errors: [APIError] = []
        for transport in [LiveTransport(only: .keepAlive) as any Transport, LiveTransport(only: .nio)] {
            do {
                let r = try await get(url, on: transport)
                XCTFail("expected a reset, got \(r.status)")
            } catch let error as APIError {
                errors.append(error)
            }
        }
        let host = PreparedRequest(url: URL(string: url)!, method: "GET", headers: [], body: nil, timeout: 20).hostAndPort
        XCTAssertEqual(errors.first, .network(.reset(host: host)))
        XCTAssertEqual(errors.first, errors.last)
    }

    /// Only a response with a `Content-Encoding` goes through the decompressor (`KeepAliveInflated`
    /// hands it back): encoded and plain answers in turn on the kept connection each come whole and
    /// decoded, and one that names an encoding the decompressor leaves alone comes as it was sent.
    func testEncodedAndPlainAnswersInTurnOnTheKeptConnection() async throws {
        let base = try localHTTPBin()
        let transport = LiveTransport(only: .keepAlive)
        for path in ["/gzip", "/get", "/deflate", "/get", "/response-headers?Content-Encoding=identity", "/gzip", "/get"] {
            let r = try await get(base + path, on: transport)
            XCTAssertEqual(r.status, 200, path)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: r.body) as? [String: Any], path)
            switch path {
            case "/gzip": XCTAssertEqual(json["gzipped"] as? Bool, true, path)
            case "/deflate": XCTAssertEqual(json["deflated"] as? Bool, true, path)
            case "/get": XCTAssertEqual(json["url"] as? String, base + path, path)
            default: XCTAssertEqual(json["Content-Encoding"] as? String, "identity", path)
            }
        }
    }

    /// A HEAD response announces a length it does not send: the kept connection must not wait for
    /// those bytes, nor read them as the next response.
    func testHeadThenGetOnTheKeptConnection() async throws {
        let base = try localHTTPBin()
        let transport = LiveTransport(only: .keepAlive)
        let head = try await get(base + "/bytes/64", method: "HEAD", on: transport)
        XCTAssertEqual(head.status, 200)
        XCTAssertTrue(head.body.isEmpty)
        let got = try await get(base + "/get?n=2", on: transport)
        XCTAssertEqual(got.status, 200)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: got.body) as? [String: Any])
        XCTAssertEqual((json["args"] as? [String: Any])?["n"] as? String, "2")
    }

    /// A body streamed to a sink (what `call` prints) goes over the keep-alive connections too: its
    /// head comes first, then each part is written on the sending task's loop as it comes (no hop to a
    /// thread pool), and the connection is kept for the next exchange.
    func testAStreamedBodyIsWrittenOnTheLoopAsItComes() async throws {
        let base = try localHTTPBin()
        let transport = LiveTransport(only: .keepAlive)
        let sink = LoopSink(loop)
        let heads = Locked(0)
        let transfer = Transfer(stream: sink, head: { response in
            XCTAssertTrue(response.body.isEmpty)
            XCTAssertEqual(sink.bytes % 100_000, 0, "the head before any of its body")
            heads.withLock { $0 += 1 }
        })
        for n in 1...2 {
            let r = try await EventLoopExecutor.$current.withValue(loop) {
                try await transport.send(PreparedRequest(url: URL(string: base + "/stream-bytes/100000?chunk_size=1000&seed=\(n)")!,
                                                         method: "GET", headers: [], body: nil, timeout: 20), transfer: transfer)
            }
            XCTAssertEqual(r.status, 200)
            XCTAssertTrue(r.streamed)
            XCTAssertTrue(r.body.isEmpty)
        }
        XCTAssertEqual(heads.current, 2)
        XCTAssertEqual(sink.bytes, 200_000)
        XCTAssertEqual(sink.offLoop, 0, "every part written on the sending task's loop")
    }
}

/// Counts the bytes written and the writes that did not run on `loop`.
private final class LoopSink: BodySink, @unchecked Sendable {
    private let loop: any EventLoop
    private let state = Locked<(bytes: Int, offLoop: Int)>((0, 0))

    init(_ loop: any EventLoop) { self.loop = loop }

    var bytes: Int { state.current.bytes }
    var offLoop: Int { state.current.offLoop }

    func write(_ bytes: UnsafeRawBufferPointer) throws(APIError) {
        let on = loop.inEventLoop
        state.withLock { $0.bytes += bytes.count; $0.offLoop += on ? 0 : 1 }
    }
}

/// The request bytes `KeepAliveRequest` encodes itself: what the server receives is what
/// async-http-client sends for the same request, and what NIO's header validator refused is refused.
final class KeepAliveRequestTests: XCTestCase {
    private let loop = MultiThreadedEventLoopGroup.singleton.next()

    private func send(_ request: PreparedRequest, on transport: any Transport) async throws -> Response {
        try await EventLoopExecutor.$current.withValue(loop) { try await transport.send(request) }
    }

    /// httpbin's echo of headers, method, body and query: equal for both transports.
    func testTheServerReceivesWhatAsyncHTTPClientSends() async throws {
        let base = try localHTTPBin()
        let cases: [(String, [HeaderField], Data?)] = [
            ("GET", [HeaderField("X-One", "1"), HeaderField("accept", "application/json")], nil),
            ("POST", [HeaderField("Content-Type", "text/plain"), HeaderField("Content-Length", "999"), HeaderField("X-Tab", "a\tb")], Data("body ü".utf8)),
            ("PUT", [HeaderField("Cookie", "a=1"), HeaderField("Accept-Encoding", "identity")], nil),
            ("DELETE", [HeaderField("Host", URL(string: base)!.host! + ":\(URL(string: base)!.port!)")], nil),
        ]
        for (method, headers, body) in cases {
            let request = PreparedRequest(url: URL(string: base + "/anything/p%20q?x=1&y=%C3%BC")!, method: method, headers: headers,
                                          body: body.map { .data($0) }, timeout: 20)
            var echoes: [NSDictionary] = []
            for transport in [LiveTransport(only: .keepAlive) as any Transport, LiveTransport(only: .nio)] {
                let r = try await send(request, on: transport)
                XCTAssertEqual(r.status, 200, method)
                var json = try XCTUnwrap(JSONSerialization.jsonObject(with: r.body) as? [String: Any], method)
                json["origin"] = nil
                echoes.append(json as NSDictionary)
            }
            XCTAssertEqual(echoes.first, echoes.last, method)
            XCTAssertEqual((echoes.first?["headers"] as? [String: Any])?["Accept-Encoding"] as? String,
                           headers.contains { $0.name == "Accept-Encoding" } ? "identity" : "deflate, gzip", method)
        }
    }

    /// A header that would split the request (CR LF in a value, a space in a name), a method that is
    /// not a token or a target with a space: refused before anything is written, as NIO's validator does.
    func testHeadersThatWouldSplitTheRequestAreRefused() async throws {
        let base = try localHTTPBin()
        let bad: [(String, String, [HeaderField])] = [
            ("GET", "/get", [HeaderField("X-A", "1\r\nX-Injected: 2")]),
            ("GET", "/get", [HeaderField("X A", "1")]),
            ("GET", "/get", [HeaderField("X-A", "nul\u{0}")]),
            ("GE T", "/get", []),
        ]
        for (method, path, headers) in bad {
            let request = PreparedRequest(url: URL(string: base + path)!, method: method, headers: headers, body: nil, timeout: 20)
            do {
                let r = try await send(request, on: LiveTransport(only: .keepAlive))
                XCTFail("\(method) \(headers): sent, status \(r.status)")
            } catch let error as APIError {
                XCTAssertEqual(error, NIOConnector.describe(HTTPParserError.invalidHeaderToken, request, socket: nil, received: (0, nil)), "\(headers)")
            }
        }
        XCTAssertThrowsError(try KeepAliveRequest(method: "GET", uri: "/a b", fields: [], body: nil))
        XCTAssertNoThrow(try KeepAliveRequest(method: "GET", uri: "/a%20b?c=[d]", fields: [HeaderField("X-B", "ü")], body: nil))
    }

    /// A response's fields sorted by name without case, fields of one name in the order they came;
    /// the in-place sort of a usual head gives what the sort of a long one gives.
    func testResponseFieldsAreSortedByNameKeepingOrder() {
        let pairs = [("Set-Cookie", "a"), ("date", "d"), ("X-B", "1"), ("set-cookie", "b"), ("Content-Type", "t"), ("x-a", "2"),
                     ("SET-COOKIE", "c"), ("x", "3"), ("X-", "4")]
        let names = pairs.map { HeaderField($0.0, $0.1) }
        let fields = NIOConnector.fields(HTTPHeaders(pairs))
        XCTAssertEqual(fields.map(\.value), ["t", "d", "a", "b", "c", "3", "4", "2", "1"])
        XCTAssertEqual(Set(fields.map(\.name)), Set(names.map(\.name)))
        let long = (0..<40).flatMap { i in pairs.map { ($0.0, $0.1 + "\(i)") } }
        let sorted = long.enumerated().sorted { ($0.element.0.lowercased(), $0.offset) < ($1.element.0.lowercased(), $1.offset) }
        XCTAssertEqual(NIOConnector.fields(HTTPHeaders(long)).map(\.value), sorted.map(\.element.1))
        let short = Array(long.prefix(30))
        let sortedShort = short.enumerated().sorted { ($0.element.0.lowercased(), $0.offset) < ($1.element.0.lowercased(), $1.offset) }
        XCTAssertEqual(NIOConnector.fields(HTTPHeaders(short)).map(\.value), sortedShort.map(\.element.1))
    }
}
