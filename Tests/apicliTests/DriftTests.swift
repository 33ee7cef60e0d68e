import Foundation
import TestServers
import XCTest

/// `apicli check --drift` against Tests/Servers/shape-server.py, whose /item changes shape on POST /switch.
final class DriftTests: XCTestCase {
    static let shop = """
        service: shop
        baseURL: http://127.0.0.1:9
        targets:
          item:
            path: /item
            sample:
              headers: { Content-Type: application/json, X-Request-Id: abc, Date: "Mon, 01 Jan 2024 00:00:00 GMT" }
              json: { id: 7, price: 1.25, owner: { login: moya }, items: [ { sku: y, qty: 3 } ] }
          page:
            path: /page
            validate: none
            sample: { json: { ok: true } }
          unsampled:
            path: /item

        """

    private var dir: URL!
    private var server: TestServer!

    override func setUpWithError() throws {
        dir = try CLI.folder(["shop.yaml": Self.shop])
        server = try TestServer("shape-server.py", ["--lifetime", "60"])
    }

    override func tearDown() {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func check(_ args: [String]) throws -> CLI.Result {
        try CLI.run(["check", "--targets", dir.path, "--base-url", server.url] + args)
    }

    func testSameShapeOtherValuesIsNoDrift() throws {
        let r = try check(["shop.item", "shop.unsampled", "--drift"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("2 passed, 0 failed"), r.stdout)
    }

    func testChangedShapeFailsWithEveryDifference() throws {
        _ = try Curl.run(["-X", "POST", server.url + "/switch"])
        let json = dir.appendingPathComponent("report.json").path
        let junit = dir.appendingPathComponent("report.xml").path
        let r = try check(["shop.item", "--drift", "--json", json, "--junit", junit])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        let expected = [
            "$.id: sample has number, live has string",
            "$.items[*].qty: sample has number, live has string",
            "$.owner: missing live",
            "$.extra: added live (bool)",
        ]
        XCTAssertTrue(r.stdout.contains("FAIL  shop.item"), r.stdout)
        XCTAssertTrue(r.stdout.contains("failures:\n  shop.item\n" + expected.map { "    - drift: \($0)\n" }.joined()), r.stdout)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        let result = (report?["results"] as? [[String: Any]])?.first
        XCTAssertEqual(result?["drift"] as? [String], expected)
        XCTAssertEqual(result?["outcome"] as? String, "failed")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains("drift: $.owner: missing live"), xml)
        // Without --drift the same response passes: only its validation is judged.
        XCTAssertEqual(try check(["shop.item"]).code, 0)
    }

    func testWarnModeListsButPasses() throws {
        _ = try Curl.run(["-X", "POST", server.url + "/switch"])
        let r = try check(["shop.item", "--drift=warn"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("PASS  shop.item"), r.stdout)
        XCTAssertTrue(r.stdout.contains("      drift: $.owner: missing live\n"), r.stdout)
    }

    func testStatusClassAndContentTypeDrift() throws {
        let r = try check(["shop.page", "--drift"])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("- drift: status: sample has 2xx, live has 5xx (502)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("- drift: Content-Type: sample has application/json, live has text/html\n"), r.stdout)
    }

    func testDriftDoesNotGoWithStub() throws {
        let r = try CLI.run(["check", "--targets", dir.path, "--stub", "--drift"])
        XCTAssertEqual(r.code, 64, r.stderr)
    }
}
