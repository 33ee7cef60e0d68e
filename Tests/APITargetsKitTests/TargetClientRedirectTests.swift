import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import APITargetsKit
import APITargetsURLSession

/// `TargetClient` follows redirects, keeps cookies and bounds an exchange by its timeout as `apicli`
/// does (docs/connections.md), not as URLSession left to itself would: against a local httpbin
/// (`/redirect-to`, `/cookies/set`, `/drip`).
final class TargetClientRedirectTests: XCTestCase {
    var base = ""
    var catalog: TargetCatalog!

    override func setUpWithError() throws {
        base = try Library.httpbin()
        // The same server under another name: another origin.
        let other = base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let files = ["bin.yaml": """
            service: bin
            baseURL: \(base)
            targets:
              follow:
                path: /redirect-to
                task: { query: { url: /get, status_code: 302 } }
              stay:
                path: /redirect-to
                followRedirects: false
                validate: successAndRedirect
                task: { query: { url: /get, status_code: 302 } }
              away:
                path: /redirect-to
                headers: { Authorization: Bearer s3cret-token, X-Kept: yes }
                task: { query: { url: "\(other)/headers", status_code: 307 } }
              home:
                path: /redirect-to
                headers: { Authorization: Bearer s3cret-token }
                task: { query: { url: /headers, status_code: 307 } }
              setCookie:
                path: /cookies/set
                task: { query: { flavour: oat } }
              noCookie:
                path: /cookies/set
                task: { query: { flavour: rye } }
              cookies:
                path: /cookies
              drip:
                path: /drip
                timeout: 1
                task: { query: { duration: 4, numbytes: 8, delay: 0 } }
            """,
            "apicli.yaml": """
            rules:
              - match: "bin.noCookie"
                cookies: false
            """]
        catalog = try TargetCatalog(folder: Library.folder(files, self))
    }

    func json(_ data: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    func testARedirectIsFollowedUnlessTheTargetSaysNot() async throws {
        let client = TargetClient(catalog: catalog)
        let followed = try await client.send("bin.follow")
        XCTAssertEqual(followed.statusCode, 200)
        XCTAssertEqual(json(followed.data)["url"] as? String, base + "/get")

        let kept = try await client.send("bin.stay")
        XCTAssertEqual(kept.statusCode, 302, "followRedirects: false returns the 3xx itself")
        XCTAssertEqual(kept.value(forHTTPHeaderField: "Location"), "/get")
    }

    func testNoCredentialCrossesToAnotherOrigin() async throws {
        let client = TargetClient(catalog: catalog)
        let away = json(try await client.send("bin.away").data)["headers"] as? [String: Any] ?? [:]
        XCTAssertEqual(away["Host"] as? String, base.replacingOccurrences(of: "http://127.0.0.1", with: "localhost"))
        XCTAssertNil(away["Authorization"], "the bearer token went to another origin: \(away)")
        XCTAssertEqual(away["X-Kept"] as? String, "yes")
        let home = json(try await client.send("bin.home").data)["headers"] as? [String: Any] ?? [:]
        XCTAssertEqual(home["Authorization"] as? String, "Bearer s3cret-token", "the same origin keeps it")
    }

    func testCookiesAreKeptInTheClientsOwnJar() async throws {
        let client = TargetClient(catalog: catalog)
        // /cookies/set answers 302 with Set-Cookie; /cookies shows what came back.
        let set = try await client.send("bin.setCookie")
        XCTAssertEqual(json(set.data)["cookies"] as? [String: String], ["flavour": "oat"])
        XCTAssertEqual(client.cookies(for: URL(string: base + "/cookies")!), "flavour=oat")
        let again = try await client.send("bin.cookies")
        XCTAssertEqual(json(again.data)["cookies"] as? [String: String], ["flavour": "oat"])

        // `cookies: false` neither stores nor sends.
        let off = try await client.send("bin.noCookie")
        XCTAssertEqual(json(off.data)["cookies"] as? [String: String], [:])
        XCTAssertEqual(client.cookies(for: URL(string: base + "/cookies")!), "flavour=oat")

        // Another client is another run: its own, empty jar (not Foundation's shared storage).
        let other = try await TargetClient(catalog: catalog).send("bin.cookies")
        XCTAssertEqual(json(other.data)["cookies"] as? [String: String], [:])
    }

    /// `timeout:` bounds the whole exchange, as `apicli call` does (URLSession's `timeoutInterval`
    /// is an idle timeout: a body that trickles in would pass it).
    func testTheTimeoutBoundsTheWholeExchange() async throws {
        let start = Date()
        let error = await Library.error { try await TargetClient(catalog: catalog).send("bin.drip") }
        guard case .timedOut(let target, let seconds)? = error as? TargetsError else {
            return XCTFail("a 4 s body passed timeout: 1: \(String(describing: error))")
        }
        XCTAssertEqual(target, "bin.drip")
        XCTAssertEqual(seconds, 1)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.5)
    }
}
