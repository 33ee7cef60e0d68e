import Foundation
import TestServers
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APIEndpoint
@testable import APITransport
@testable import APILive
@testable import APIImport

/// The same behaviour from every connector of the one HTTP engine, against the local httpbin (over
/// h2c: the same httpbin through hypercorn, Tests/Servers/h2c-httpbin.py): async-http-client, our
/// keep-alive connections, h2c, and URLSession where it is built (Apple platforms, or the
/// URLSessionTransport trait on Linux: `make test` runs these tests with it too). Each check runs
/// once per connector (`LiveTransport(only:)`), each with a jar of its own (`RunSettings()`), so a
/// rule that one connector breaks fails here (XCTest on Linux does not run inherited test methods: no subclasses).
final class TransportContractTests: XCTestCase {
    var base = ""
    /// The HTTP/1.1 httpbin (the h2c one answers the h2c connector).
    var http1 = ""

    override func setUpWithError() throws {
        http1 = try localHTTPBin()
    }

    /// The engine under test in the current loop, and its connector.
    var transport: any Transport = LiveTransport(only: .nio)
    var connection = LiveTransport.Connection.nio

    /// Runs `check` once per connector, with `base` its httpbin and a fresh cookie jar, naming the
    /// connector in failures.
    func forEachTransport(_ check: (String) async throws -> Void) async throws {
        for connection in LiveTransport.Connection.allCases {
            self.connection = connection
            transport = LiveTransport(only: connection)
            base = connection == .h2c ? try H2CHTTPBin.url() : http1
            try await check("\(connection)")
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
            XCTAssertEqual(r.httpVersion, name == "h2c" ? "HTTP/2" : "HTTP/1.1", name)
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
        let credentials = [HeaderField("Authorization", "Bearer tok-9b2e"), HeaderField("Cookie", "session=s-4d5a"),
                           HeaderField("X-Api-Key", "key-7f1c")]
        func request(_ url: String, follow: Bool = true) -> PreparedRequest {
            var r = PreparedRequest(url: URL(string: url)!, method: "GET", headers: credentials, body: nil, timeout: 10)
            r.followRedirects = follow
            r.authHeader = "X-Api-Key"
            return r
        }
        try await forEachTransport { name in
            let port = try XCTUnwrap(URL(string: base)?.port)
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

    /// 303 turns a POST into a GET without its body; 307 repeats the POST with it.
    func testRedirectsChangeTheMethodAsTheStatusSays() async throws {
        try await forEachTransport { name in
            let body = Data(#"{"n":1}"#.utf8)
            let typed = [HeaderField("Content-Type", "application/json")]
            let seeOther = try json(try await send("POST", "/redirect-to?url=%2Fanything&status_code=303", headers: typed, body: body))
            XCTAssertEqual(seeOther["method"] as? String, "GET", name)
            XCTAssertEqual(seeOther["data"] as? String, "", name)
            XCTAssertNil((seeOther["headers"] as? [String: String])?["Content-Type"], name)
            let temporary = try json(try await send("POST", "/redirect-to?url=%2Fanything&status_code=307", headers: typed, body: body))
            XCTAssertEqual(temporary["method"] as? String, "POST", name)
            XCTAssertEqual(temporary["data"] as? String, #"{"n":1}"#, name)
        }
    }

    /// The jar, the same on every connector: a cookie set by a redirect goes with the next hop, and
    /// is kept when the redirect is not followed; the request's own `Cookie` is joined to the jar's;
    /// nothing goes to another origin; `cookies: false` neither sends nor keeps any.
    func testCookiesFollowOneRuleOnEveryEngine() async throws {
        func cookies(_ r: Response) throws -> [String: String] { try json(r)["cookies"] as? [String: String] ?? [:] }
        try await forEachTransport { name in
            let port = try XCTUnwrap(URL(string: base)?.port)
            let followed = try await send("GET", "/cookies/set?flavour=oat")
            XCTAssertEqual(followed.status, 200, name)
            XCTAssertEqual(try cookies(followed), ["flavour": "oat"], name)
            var unfollowed = PreparedRequest(url: URL(string: base + "/cookies/set?kept=302")!, method: "GET", headers: [], body: nil, timeout: 10)
            unfollowed.followRedirects = false
            let redirect = try await transport.send(unfollowed)
            XCTAssertEqual(redirect.status, 302, name)
            let own = try await send("GET", "/cookies", headers: [HeaderField("Cookie", "own=1")])
            XCTAssertEqual(try cookies(own), ["flavour": "oat", "kept": "302", "own": "1"], name)
            let away = "http://localhost:\(port)/cookies".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let elsewhere = try await send("GET", "/redirect-to?url=" + away)
            XCTAssertEqual(try cookies(elsewhere), [:], name)
            var off = PreparedRequest(url: URL(string: base + "/cookies/set?off=1")!, method: "GET", headers: [], body: nil, timeout: 10)
            off.cookies = false
            let without = try await transport.send(off)
            XCTAssertEqual(try cookies(without), [:], name)
            let after = try await send("GET", "/cookies")
            XCTAssertEqual(try cookies(after), ["flavour": "oat", "kept": "302"], name)
        }
    }

    /// The proxy the settings name carries every connector's exchange: a CONNECT tunnel through
    /// Tests/Servers/faultserver.py's proxy (h2c speaks HTTP/2 inside it, as curl does), with the proxy's
    /// login; a host `no_proxy` names goes direct.
    func testEveryEngineGoesThroughTheProxy() async throws {
        let proxy = try TestServer("faultserver.py", ["--lifetime", "120"])
        defer { proxy.stop() }
        func log() async throws -> [[String: String]] {
            let direct = LiveTransport(only: .nio)
            let r = try await direct.send(PreparedRequest(url: URL(string: proxy.url + "/proxy-log")!, method: "GET",
                                                          headers: [], body: nil, timeout: 10))
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: r.body) as? [[String: String]])
        }
        var seen = 0
        try await forEachTransport { name in
            // A login of its own: async-http-client keeps a client (and its tunnels) per proxy and login.
            let server = ProxySettings.Server(host: "127.0.0.1", port: proxy.port, credentials: "\(name):p@ss")
            let origin = try XCTUnwrap(URL(string: base))
            let proxied = LiveTransport(RunSettings(proxies: ProxySettings(http: server)), only: connection)
            let r = try await proxied.send(PreparedRequest(url: URL(string: base + "/get")!, method: "GET", headers: [], body: nil, timeout: 10))
            XCTAssertEqual(r.status, 200, name)
            XCTAssertEqual(r.httpVersion, name == "h2c" ? "HTTP/2" : "HTTP/1.1", name)
            let tunnels = try await log()
            XCTAssertEqual(tunnels.count, seen + 1, "\(name): \(tunnels)")
            XCTAssertEqual(tunnels.last, ["target": "127.0.0.1:\(origin.port!)",
                                          "authorization": "Basic " + Data("\(name):p@ss".utf8).base64EncodedString()], name)
            seen = tunnels.count
            let direct = LiveTransport(RunSettings(proxies: ProxySettings(http: server, noProxy: ["127.0.0.1"])), only: connection)
            let d = try await direct.send(PreparedRequest(url: URL(string: base + "/get")!, method: "GET", headers: [], body: nil, timeout: 10))
            XCTAssertEqual(d.status, 200, name)
            let unchanged = try await log()
            XCTAssertEqual(unchanged.count, seen, "\(name) went through the proxy despite no_proxy")
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
        try await forEachTransport { name in
            base = "http://127.0.0.1:9"
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
        let url = try XCTUnwrap(URL(string: http1))
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
