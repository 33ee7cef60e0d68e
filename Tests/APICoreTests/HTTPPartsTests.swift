import Foundation
import XCTest
@testable import APISupport
@testable import APIJSON
@testable import APISchema
@testable import APIEndpoint
@testable import APITransport
@testable import APISend
@testable import APIImport

/// The transport's pure parts, without a network: redirects, cookies, proxies, HTTP dates, the
/// JSON parser, bounded regular expressions, and the Foundation-free text helpers.
final class HTTPPartsTests: XCTestCase {
    private func request(_ url: String, _ method: String = "GET", headers: [HeaderField] = [], auth: String? = nil) -> PreparedRequest {
        var r = PreparedRequest(url: URL(string: url)!, method: method, headers: headers, body: .data(Data("x".utf8)), timeout: 5)
        r.authHeader = auth
        return r
    }

    func testRedirectsKeepCredentialsToOneOrigin() throws {
        let creds = [HeaderField("Authorization", "Bearer t"), HeaderField("Cookie", "a=1"), HeaderField("X-Key", "k"),
                     HeaderField("Proxy-Authorization", "p"), HeaderField("Accept", "*/*")]
        let r = request("http://127.0.0.1:8080/a", headers: creds, auth: "X-Key")
        let same = try XCTUnwrap(Redirect.next(status: 302, location: "/b?c=1", after: r))
        XCTAssertEqual(same.url.absoluteString, "http://127.0.0.1:8080/b?c=1")
        XCTAssertEqual(same.headers.count, 5)
        for other in ["http://localhost:8080/b", "https://127.0.0.1:8080/b", "http://127.0.0.1:8081/b"] {
            let next = try XCTUnwrap(Redirect.next(status: 307, location: other, after: r))
            XCTAssertEqual(next.headers.map(\.name), ["Accept"], other)
            XCTAssertEqual(next.method, "GET")
        }
        XCTAssertTrue(Redirect.sameOrigin(URL(string: "http://a.test/x")!, URL(string: "http://A.test:80/y")!))
    }

    func testRedirectMethodsAndWhatIsNotFollowed() throws {
        let post = request("http://h/a", "POST", headers: [HeaderField("Content-Type", "text/plain")])
        let seeOther = try XCTUnwrap(Redirect.next(status: 303, location: "/b", after: post))
        XCTAssertEqual(seeOther.method, "GET")
        XCTAssertNil(seeOther.body)
        XCTAssertEqual(seeOther.headers, [])
        XCTAssertEqual(Redirect.next(status: 302, location: "/b", after: post)?.method, "GET")
        let kept = try XCTUnwrap(Redirect.next(status: 308, location: "/b", after: post))
        XCTAssertEqual(kept.method, "POST")
        XCTAssertNotNil(kept.body)
        XCTAssertNil(Redirect.next(status: 200, location: "/b", after: post))
        XCTAssertNil(Redirect.next(status: 302, location: nil, after: post))
        XCTAssertNil(Redirect.next(status: 302, location: "ftp://h/b", after: post))
        var off = post
        off.followRedirects = false
        XCTAssertNil(Redirect.next(status: 302, location: "/b", after: off))
        // Issue 34 item 25: a Location naming a port no socket can have is not followed (the 3xx is the answer).
        XCTAssertNil(Redirect.next(status: 302, location: "http://127.0.0.1:99999/x", after: post))
    }

    func testCookieJarScopesByHostPathSecureAndExpiry() {
        let jar = CookieJar()
        let now = 1_000_000.0
        jar.store(["a=1; Path=/", "b=2; Path=/api; Max-Age=10", "s=3; Secure; Path=/", "d=4; Domain=example.test; Path=/",
                   "evil=5; Domain=other.test"], from: URL(string: "http://www.example.test/api/x")!, now: now)
        XCTAssertEqual(jar.header(for: URL(string: "http://www.example.test/api/y")!, now: now), "a=1; b=2; d=4")
        XCTAssertEqual(jar.header(for: URL(string: "https://www.example.test/")!, now: now), "a=1; s=3; d=4")
        XCTAssertEqual(jar.header(for: URL(string: "http://api.example.test/")!, now: now), "d=4")
        XCTAssertNil(jar.header(for: URL(string: "http://other.test/")!, now: now))
        XCTAssertEqual(jar.header(for: URL(string: "http://www.example.test/api/y")!, now: now + 11), "a=1; d=4")
        jar.store(["a=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: URL(string: "http://www.example.test/")!, now: now)
        XCTAssertEqual(jar.header(for: URL(string: "http://www.example.test/")!, now: now), "d=4")
    }

    /// A cookie naming a public suffix or an IP suffix would go to every site under it: refused.
    /// `Set-Cookie` fields Foundation folded into one (URLSession) are split again, not inside a date.
    func testFoldedSetCookieFieldsAreSplitWhereACookieStarts() {
        XCTAssertEqual(CookieJar.unfold("a=1; Path=/, b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly, c=3"),
                       ["a=1; Path=/", "b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; HttpOnly", "c=3"])
        XCTAssertEqual(CookieJar.unfold("solo=x"), ["solo=x"])
    }

    func testCookieJarRefusesPublicSuffixAndIPDomains() {
        let jar = CookieJar()
        let now = 1_000_000.0
        jar.store(["tld=1; Domain=test; Path=/", "dot=2; Domain=.test; Path=/", "uk=3; Domain=co.uk; Path=/"],
                  from: URL(string: "http://shop.co.uk/")!, now: now)
        jar.store(["tld=1; Domain=test; Path=/"], from: URL(string: "http://a.example.test/")!, now: now)
        jar.store(["gh=4; Domain=github.io; Path=/"], from: URL(string: "http://me.github.io/")!, now: now)
        XCTAssertNil(jar.header(for: URL(string: "http://other.co.uk/")!, now: now))
        XCTAssertNil(jar.header(for: URL(string: "http://b.other.test/")!, now: now))
        XCTAssertNil(jar.header(for: URL(string: "http://you.github.io/")!, now: now))
        // IP hosts: a Domain= suffix of the address is refused, the address itself is exact.
        jar.store(["ip=5; Domain=0.0.1; Path=/", "own=6; Domain=10.0.0.1; Path=/"],
                  from: URL(string: "http://10.0.0.1/")!, now: now)
        XCTAssertEqual(jar.header(for: URL(string: "http://10.0.0.1/")!, now: now), "own=6")
        XCTAssertNil(jar.header(for: URL(string: "http://1.10.0.0.1/")!, now: now))
        XCTAssertNil(jar.header(for: URL(string: "http://20.0.0.1/")!, now: now))
        // A site's own registrable domain still works, and an intranet name may set one for itself.
        jar.store(["ok=7; Domain=example.co.uk; Path=/"], from: URL(string: "http://www.example.co.uk/")!, now: now)
        XCTAssertEqual(jar.header(for: URL(string: "http://api.example.co.uk/")!, now: now), "ok=7")
        jar.store(["lh=8; Domain=localhost; Path=/"], from: URL(string: "http://localhost/")!, now: now)
        XCTAssertEqual(jar.header(for: URL(string: "http://localhost/")!, now: now), "lh=8")
        XCTAssertNil(jar.header(for: URL(string: "http://x.localhost/")!, now: now))
    }

    func testProxySettingsFromTheEnvironment() throws {
        let p = ProxySettings(environment: ["HTTP_PROXY": "http://u:p%40w@proxy.test:3128", "https_proxy": "proxy2.test:8443",
                                            "NO_PROXY": "localhost, .internal.test,10.0.0.1"])
        XCTAssertEqual(p.server(for: URL(string: "http://api.test/")!), .init(host: "proxy.test", port: 3128, credentials: "u:p@w"))
        XCTAssertEqual(p.server(for: URL(string: "https://api.test/")!)?.host, "proxy2.test")
        XCTAssertNil(p.server(for: URL(string: "http://localhost:8080/")!))
        XCTAssertNil(p.server(for: URL(string: "http://a.internal.test/")!))
        XCTAssertNil(p.server(for: URL(string: "http://10.0.0.1/")!))
        XCTAssertNil(ProxySettings(environment: ["http_proxy": "http://p:1", "no_proxy": "*"]).server(for: URL(string: "http://x/")!))
        XCTAssertEqual(ProxySettings(environment: ["http_proxy": "http://lower:1", "HTTP_PROXY": "http://upper:1"])
            .server(for: URL(string: "http://x/")!)?.host, "lower")
    }

    func testHTTPDates() {
        let expected = 784_111_777.0  // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), expected)
        XCTAssertEqual(HTTPDate.parse("Wed, 21 Oct 2015 07:28:00 GMT"), 1_445_412_480)
        XCTAssertNil(HTTPDate.parse("tomorrow"))
        XCTAssertEqual(SendPolicy.retryAfter("Wed, 21 Oct 2015 07:28:10 GMT", now: Date(timeIntervalSince1970: 1_445_412_480)), 10)
    }

    func testJSONParser() {
        XCTAssertEqual(JSONValue.parse(Data(#" {"b": [1, 2.5e1, -0.5, true, null], "a": "\u00e9\ud83d\ude00\n"} "#.utf8)),
                       .object([("a", .string("é😀\n")), ("b", .array([.number(1), .number(25), .number(-0.5), .bool(true), .null]))]))
        XCTAssertEqual(JSONValue.parse(Data("\"x\"".utf8)), .string("x"))
        XCTAssertEqual(JSONValue.parse(Data(#"{"k":1,"k":2}"#.utf8)), .object([("k", .number(2))]))
        for bad in ["", "{", "[1,]", "{\"a\":1,}", "01", "1.", "NaN", "'x'", "[1] 2", "\"\u{1}\"", "\"\\ud800\"", "tru"] {
            XCTAssertNil(JSONValue.parse(Data(bad.utf8)), bad)
        }
        XCTAssertNil(JSONValue.parse(Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)))
        XCTAssertNotNil(JSONValue.parse(Data((String(repeating: "[", count: 500) + String(repeating: "]", count: 500)).utf8)))
    }

    func testTextHelpers() {
        XCTAssertEqual(" \t a b \t".trimmingSpaces(), "a b")
        XCTAssertEqual("ab".padded(to: 4), "ab  ")
        XCTAssertEqual("abcde".padded(to: 4), "abcde")
        XCTAssertEqual("ab".leftPadded(to: 4), "  ab")
        XCTAssertEqual("abcde".leftPadded(to: 4), "abcde")
        XCTAssertEqual(Text.fixed(0.0125, 3), "0.013")
        XCTAssertEqual(Text.fixed(2, 3), "2.000")
        XCTAssertEqual(Text.fixed(-1.05, 1), "-1.1")
        XCTAssertEqual(Text.fixed(1536.0 / 1024, 1), "1.5")
        XCTAssertEqual("a b/ü%".percentEncoded(keeping: .unreserved), "a%20b%2F%C3%BC%25")
        XCTAssertEqual("a%20b%2F%C3%BC".removingPercentEscapes(), "a b/ü")
        XCTAssertNil("%zz".removingPercentEscapes())
        XCTAssertTrue("Content-Type".equalsIgnoringCase("content-type"))
        XCTAssertEqual(Path.join("a/", "b"), "a/b")
        XCTAssertEqual(Path.parent("targets/api.yaml"), "targets")
        XCTAssertEqual(Path.parent("api.yaml"), "")
        XCTAssertEqual(Path.parent("/api.yaml"), "/")
        XCTAssertEqual(Path.stem("api.v1.yaml"), "api.v1")
        XCTAssertEqual(Path.pathExtension("a/B.PNG"), "png")
    }
}
