import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import APITargetsKit
import APITargetsURLSession
import TestServers

/// `send(target, params:)`: a live response from a local server, judged by the target's `expect:`.
final class TargetClientTests: XCTestCase {
    /// Tests/Servers/echo-server.py answers every request with the request as it came.
    static func files(_ url: String) -> [String: String] {
        ["echo.yaml": """
            service: echo
            baseURL: \(url)
            headers: { X-Team: apps }
            targets:
              item:
                path: /items/{id}
                method: PUT
                params: { id: 1 }
                task: { query: { v: 2 }, json: { ok: true } }
                expect:
                  status: 200
                  headers: { Content-Type: "~json" }
                  json: { "$.method": PUT, "$.query": "v=2" }
                  schema:
                    type: object
                    required: [method, path, headers, body]
                    properties: { query: { type: string } }
              strict:
                path: /strict
                expect:
                  status: 201
                  json: { "$.method": POST }
                  schema: { type: object, required: [nothing] }
              down:
                path: /down
                timeout: 2
            """]
    }

    func testALiveResponseIsJudgedByExpect() async throws {
        let server = try TestServer("echo-server.py", ["--lifetime", "60"])
        defer { server.stop() }
        let catalog = try TargetCatalog(folder: Library.folder(Self.files(server.url), self))
        let client = TargetClient(catalog: catalog)
        let response = try await client.send("echo.item", params: ["id": "7"])
        XCTAssertEqual(response.statusCode, 200)
        // What went on the wire is the library's URLRequest.
        let echoed = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
        XCTAssertEqual(echoed?["path"] as? String, "/items/7")
        XCTAssertEqual(echoed?["query"] as? String, "v=2")
        XCTAssertEqual(Data(base64Encoded: echoed?["body"] as? String ?? ""), Data(#"{"ok":true}"#.utf8))
        let headers = (echoed?["headers"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }
        XCTAssertTrue(headers.contains("X-Team: apps"), "\(headers)")

        let error = await Library.error { try await client.send("echo.strict") }
        guard case .rejected(let target, let status, let failures)? = error as? TargetsError else {
            return XCTFail("a 200 passed status: 201: \(String(describing: error))")
        }
        XCTAssertEqual(target, "echo.strict")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(failures.first, "status 200, expected 201")
        XCTAssertTrue(failures.contains { $0.hasPrefix("$.method is ") && $0.contains("POST") }, "\(failures)")
        XCTAssertTrue(failures.contains { $0.hasPrefix("schema: ") && $0.contains("nothing") }, "\(failures)")
    }

    func testNoServerIsANetworkError() async throws {
        // A port nothing listens on: the echo server's, after it stopped.
        let server = try TestServer("echo-server.py", ["--lifetime", "60"])
        server.stop()
        let catalog = try TargetCatalog(folder: Library.folder(Self.files(server.url), self))
        let error = await Library.error { try await TargetClient(catalog: catalog).send("echo.down") }
        guard case .network(let target, _, let code)? = error as? TargetsError else {
            return XCTFail("sent to a closed port: \(String(describing: error))")
        }
        XCTAssertEqual(target, "echo.down")
        XCTAssertEqual(code, URLError.cannotConnectToHost.rawValue)
    }

    /// The client over stubbed URLSession: a named sample that breaks `validate: success`.
    func testTheClientOverStubs() async throws {
        let catalog = try TargetCatalog(folder: Library.targets)
        let stubs = try TargetStubs(catalog, behavior: .immediate)
        defer { stubs.uninstall() }
        let client = TargetClient(catalog: catalog, session: stubs.session())
        let ok = try await client.send("httpbin.status", params: ["code": "200"])
        XCTAssertEqual(ok.statusCode, 200)
        try stubs.use(sample: "notFound", for: "httpbin.status")
        let error = await Library.error { try await client.send("httpbin.status", params: ["code": "404"]) }
        guard case .rejected(_, let status, let failures)? = error as? TargetsError else {
            return XCTFail("a 404 passed validate: success: \(String(describing: error))")
        }
        XCTAssertEqual(status, 404)
        XCTAssertEqual(failures, ["status 404 is not accepted by validate: success (200-299)"])
    }
}
