import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APIEndpoint
@testable import APITransport
@testable import APILive
@testable import APIImport

/// The same behaviour from both live transports, against the local httpbin: URLSession (the
/// default) and async-http-client (used when TLS options are set). Every test runs each check
/// through both (XCTest on Linux does not run inherited test methods, so no subclasses).
final class TransportContractTests: XCTestCase {
    var base = ""

    /// async-http-client everywhere; URLSession where it is built (Apple platforms, or the
    /// URLSessionTransport trait on Linux: `make test` runs these tests with it too).
    nonisolated(unsafe) static let transports: [(String, () throws -> any Transport)] = {
        // KeepAlive: plain http with bodies in memory over its own connections (LiveTransport's choice for
        // those), async-http-client for the rest: every check below covers both of its paths.
        var all: [(String, () throws -> any Transport)] = [("NIO", { NIOTransport() }), ("KeepAlive", { KeepAliveTransport() })]
        #if !os(Linux) || URLSessionTransport
        all.insert(("URLSession", { URLSessionTransport() }), at: 0)
        #endif
        return all
    }()

    override func setUpWithError() throws {
        base = try localHTTPBin()
    }

    /// The transport under test in the current loop.
    var transport: any Transport = NIOTransport()

    /// Runs `check` once per transport, naming the transport in failures.
    func forEachTransport(_ check: (String) async throws -> Void) async throws {
        for (name, make) in Self.transports {
            transport = try make()
            try await check(name)
        }
    }

    func send(_ method: String, _ path: String, headers: [HeaderField] = [], body: Data? = nil,
              timeout: Double = 10) async throws -> Response {
        let request = PreparedRequest(url: URL(string: base + path)!, method: method, headers: headers,
                                      body: body.map { .data($0) }, timeout: timeout)
        return try await transport.send(request)
    }

    func json(_ r: Response) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: r.body) as? [String: Any])
    }

    func testGetWithQueryAndHeaders() async throws {
        try await forEachTransport { name in
            let r = try await send("GET", "/get?a=1&b=two", headers: [HeaderField("X-Contract", "yes")])
            XCTAssertEqual(r.status, 200, name)
            let echo = try json(r)
            XCTAssertEqual(echo["args"] as? [String: String], ["a": "1", "b": "two"], name)
            XCTAssertEqual((echo["headers"] as? [String: String])?["X-Contract"], "yes", name)
            XCTAssertEqual(r.headers.value(of: "content-type"), "application/json", name)
            XCTAssertEqual(r.headers.map { $0.name.lowercased() }, r.headers.map { $0.name.lowercased() }.sorted(), name)
        }
    }

    func testPostBodyArrivesByteForByte() async throws {
        try await forEachTransport { name in
            let body = Data(#"{"b":1,"a":[true,null]}"#.utf8)
            let r = try await send("POST", "/post", headers: [HeaderField("Content-Type", "application/json")], body: body)
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(try json(r)["data"] as? String, #"{"b":1,"a":[true,null]}"#, name)
        }
    }

    func testStatusIsReturnedNotThrown() async throws {
        try await forEachTransport { name in
            let status = try await send("GET", "/status/418").status
            XCTAssertEqual(status, 418, name)
        }
    }

    func testRedirectsAreFollowed() async throws {
        try await forEachTransport { name in
            let r = try await send("GET", "/redirect/2")
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(try json(r)["url"] as? String, base + "/get", name)
        }
    }

    /// Redirects are decided by `Redirect` whatever the transport: `--no-follow` hands the 302
    /// back, more than `Redirect.limit` hops fail, and no credential goes to another origin.
    func testRedirectsFollowOneRuleOnEveryTransport() async throws {
        let port = try XCTUnwrap(URL(string: base)?.port)
        let credentials = [HeaderField("Authorization", "Bearer tok-9b2e"), HeaderField("Cookie", "session=s-4d5a"),
                           HeaderField("X-Api-Key", "key-7f1c")]
        func request(_ url: String, follow: Bool = true) -> PreparedRequest {
            var r = PreparedRequest(url: URL(string: url)!, method: "GET", headers: credentials, body: nil, timeout: 10)
            r.followRedirects = follow
            r.authHeader = "X-Api-Key"
            return r
        }
        try await forEachTransport { name in
            // not followed: the redirect itself
            let kept = try await transport.send(request(base + "/redirect/1", follow: false))
            XCTAssertEqual(kept.status, 302, name)
            XCTAssertEqual(kept.headers.value(of: "Location"), "/get", name)
            // ten hops are followed, eleven are too many
            let ten = try await transport.send(request(base + "/redirect/10"))
            XCTAssertEqual(ten.status, 200, name)
            do {
                _ = try await transport.send(request(base + "/redirect/11"))
                XCTFail("\(name) followed eleven redirects")
            } catch let error as APIError {
                XCTAssertEqual(error, .network(.tooManyRedirects(host: "127.0.0.1:\(port)")), name)
            }
            // to another origin (127.0.0.1 → localhost) the credentials stay behind; on the same one they go
            let away = "http://localhost:\(port)/headers".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let otherResponse = try await transport.send(request(base + "/redirect-to?url=" + away))
            let other = try json(otherResponse)["headers"] as? [String: String] ?? [:]
            XCTAssertEqual(other["Host"], "localhost:\(port)", name)
            XCTAssertNil(other["Authorization"], "\(name): \(other)")
            XCTAssertNil(other["Cookie"], "\(name): \(other)")
            XCTAssertNil(other["X-Api-Key"], "\(name): \(other)")
            let sameResponse = try await transport.send(request(base + "/redirect-to?url=%2Fheaders"))
            let same = try json(sameResponse)["headers"] as? [String: String] ?? [:]
            XCTAssertEqual(same["Authorization"], "Bearer tok-9b2e", name)
            XCTAssertEqual(same["X-Api-Key"], "key-7f1c", name)
        }
    }

    func testACookieSetByARedirectGoesWithTheNextHop() async throws {
        try await forEachTransport { name in
            let r = try await send("GET", "/cookies/set?flavour=oat")
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual((try json(r)["cookies"] as? [String: String])?["flavour"], "oat", name)
        }
    }

    func testGzipIsDecoded() async throws {
        try await forEachTransport { name in
            let r = try await send("GET", "/gzip")
            XCTAssertEqual(try json(r)["gzipped"] as? Bool, true, name)
        }
    }

    func testDeadlineBoundsTheWholeExchange() async throws {
        try await forEachTransport { name in
            let start = Date()
            do {
                _ = try await send("GET", "/delay/5", timeout: 1)
                XCTFail("expected a timeout from \(name)")
            } catch let error as APIError {
                XCTAssertEqual(error, .timedOut(1), name)
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 4, name)
        }
    }

    func testRefusedConnection() async throws {
        let live = base
        defer { base = live }
        base = "http://127.0.0.1:9"
        try await forEachTransport { name in
            do {
                _ = try await send("GET", "/get")
                XCTFail("expected a network error from \(name)")
            } catch let error as APIError {
                XCTAssertEqual(error, .network(.refused(host: "127.0.0.1:9")), name)
            }
        }
    }

    /// `--connect-to` reaches every live exchange: the URLSession transport (trait build) cannot
    /// route a connection, so `LiveTransport` gives such an exchange to async-http-client instead
    /// of letting URLSession look the name up (it would fail, or reach another host).
    func testLiveTransportHonoursConnectTo() async throws {
        let url = try XCTUnwrap(URL(string: base))
        let port = try XCTUnwrap(url.port)
        let connection = ConnectionOptions(connectTo: [ConnectionOptions.ConnectTo(host: "apicli-route.invalid", port: 80,
                                                                                   toHost: "127.0.0.1", toPort: port)])
        let request = PreparedRequest(url: URL(string: "http://apicli-route.invalid/headers")!, method: "GET",
                                      headers: [], body: nil, timeout: 10)
        let r = try await LiveTransport(RunSettings(connection: connection)).send(request)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual((try json(r)["headers"] as? [String: String])?["Host"], "apicli-route.invalid")
    }
}
