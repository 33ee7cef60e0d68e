import Foundation
import XCTest

/// `apicli mock`: a real server on a free loopback port, asked by curl and by apicli itself.
final class MockTests: XCTestCase {
    static let shop = """
        service: shop
        baseURL: https://shop.example.com/v1
        validate: success
        targets:
          user:
            path: /users/{name}
            params: { name: nobody }
            sample:
              status: 200
              headers: { X-Second: b, X-First: a }
              json: { login: "{name}", id: 7 }
            samples:
              missing: { status: 404, json: { message: Not Found } }
              offline: { error: The Internet connection appears to be offline. }
          me:
            path: /users/me
            sample: { body: "it is me" }
          slow:
            path: /slow
            sample: { delay: 0.6, body: late }
          create:
            method: POST
            path: /users
            sample: { status: 201, json: { created: true } }
          nosample:
            path: /none

        """
    static let admin = """
        service: admin
        baseURL: https://admin.example.com/admin/
        targets:
          stats:
            path: /stats
            sample: { json: { users: 3 } }

        """

    private var dir: URL!
    private var mock: MockProcess?

    override func setUpWithError() throws {
        dir = try CLI.folder(["shop.yaml": Self.shop, "admin.yaml": Self.admin])
    }

    override func tearDown() {
        mock?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func start(_ args: [String] = []) throws -> MockProcess {
        let m = try MockProcess(["--targets", dir.path] + args)
        mock = m
        return m
    }

    func testServesTheSampleWithPathCapturesAndHeadersInOrder() throws {
        let m = try start()
        let r = try Curl.run([m.url + "/v1/users/octocat"])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.body, #"{"login":"octocat","id":7}"#)
        XCTAssertEqual(r.headers["content-type"], "application/json")
        XCTAssertEqual(r.headers["content-length"], "26")
        let raw = r.raw
        XCTAssertLessThan(raw.range(of: "X-Second: b")?.lowerBound ?? raw.endIndex, raw.range(of: "X-First: a")?.lowerBound ?? raw.startIndex, raw)
        XCTAssertTrue(m.waitForStderr("GET /v1/users/octocat  shop.user  sample  200  "), m.stderr)
    }

    func testPrintsItsURLsAndWhatIsNotServed() throws {
        let m = try start()
        var rest = Data()
        let handle = m.stdout.fileHandleForReading
        let end = Date().addingTimeInterval(3)
        while Date() < end, !String(decoding: rest, as: UTF8.self).contains("not served") {
            rest += handle.availableData
        }
        let text = String(decoding: rest, as: UTF8.self)
        XCTAssertTrue(text.contains("  admin  \(m.url)/admin  (1 route)\n"), text)
        XCTAssertTrue(text.contains("  shop  \(m.url)/v1  (4 routes)\n"), text)
        XCTAssertTrue(text.contains("  not served (no sample): shop.nosample\n"), text)
    }

    func testALiteralRouteWinsOverACapture() throws {
        let m = try start()
        XCTAssertEqual(try Curl.run([m.url + "/v1/users/me"]).body, "it is me")
        XCTAssertEqual(try Curl.run([m.url + "/admin/stats"]).body, #"{"users":3}"#)
    }

    func testNamedSampleByHeaderOrQueryParameter() throws {
        let m = try start()
        let byHeader = try Curl.run(["-H", "X-Apicli-Sample: missing", m.url + "/v1/users/x"])
        XCTAssertEqual(byHeader.status, 404)
        XCTAssertEqual(byHeader.body, #"{"message":"Not Found"}"#)
        XCTAssertEqual(try Curl.run([m.url + "/v1/users/x?apicli-sample=missing"]).status, 404)
        let unknown = try Curl.run([m.url + "/v1/users/x?apicli-sample=gone"])
        XCTAssertEqual(unknown.status, 400)
        XCTAssertEqual(unknown.body, #"{"error":"shop.user has no sample named 'gone'","samples":["missing","offline"]}"# + "\n")
    }

    func testErrorSampleClosesTheConnectionWithoutAResponse() throws {
        let m = try start()
        let r = try Curl.run(["-H", "X-Apicli-Sample: offline", m.url + "/v1/users/x"])
        XCTAssertEqual(r.code, 52, "curl: empty reply from server")
        XCTAssertTrue(m.waitForStderr("shop.user  offline  closed"), m.stderr)
    }

    func testUnmatchedIs404WithTheClosestRoutesAndAnUnservedMethod405() throws {
        let m = try start()
        let r = try Curl.run([m.url + "/v1/user/octocat"])
        XCTAssertEqual(r.status, 404)
        XCTAssertTrue(r.body.hasPrefix(#"{"error":"no route for GET /v1/user/octocat","closest":[{"route":"GET /v1/users/{name}","target":"shop.user"}"#), r.body)
        let post = try Curl.run(["-X", "DELETE", m.url + "/v1/users"])
        XCTAssertEqual(post.status, 405, "the path is served, not the method (RFC 9110 §15.5.6)")
        XCTAssertEqual(post.headers["allow"], "POST")
        XCTAssertTrue(post.body.contains("DELETE is not served at /v1/users; it allows POST"), post.body)
        XCTAssertTrue(m.waitForStderr("GET /v1/user/octocat  -  -  404"), m.stderr)
    }

    func testMethodDelayAndQuiet() throws {
        let m = try start(["-q"])
        let created = try Curl.run(["-X", "POST", "-d", "x", m.url + "/v1/users"])
        XCTAssertEqual(created.status, 201)
        let start = Date()
        XCTAssertEqual(try Curl.run([m.url + "/v1/slow"]).body, "late")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.55)
        XCTAssertEqual(m.stop(), 0)
        XCTAssertEqual(m.stderr, "apicli mock: interrupted, stopped\n")
    }

    func testApicliItselfCallsAndChecksTheMock() throws {
        let m = try start()
        let call = try CLI.run(["call", "shop.user", "-p", "name=octocat", "--targets", dir.path, "--base-url", m.url + "/v1"])
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertEqual(call.stdout, #"{"login":"octocat","id":7}"#)
        let check = try CLI.run(["check", "shop.user", "shop.me", "shop.slow", "shop.create", "--all", "--targets", dir.path,
                                 "--base-url", m.url + "/v1"])
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("4 passed"), check.stdout)
    }

    func testARouteConflictIsAnErrorNamingBothTargetsUnlessAServiceIsPicked() throws {
        let other = """
            service: other
            baseURL: http://other.example.com/admin
            targets:
              counts:
                path: stats
                sample: { json: { users: 4 } }

            """
        try Data(other.utf8).write(to: dir.appendingPathComponent("other.yaml"))
        let r = try CLI.run(["mock", "--port", "0", "--targets", dir.path], timeout: 10)
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("route conflict: other.counts and admin.stats"), r.stderr)
        XCTAssertTrue(r.stderr.contains("both answer GET /admin/stats"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--service admin or --service other"), r.stderr)
        let m = try start(["--service", "other"])
        XCTAssertEqual(try Curl.run([m.url + "/admin/stats"]).body, #"{"users":4}"#)
    }

    func testReloadsOnChangeAndKeepsTheLastGoodVersion() throws {
        let m = try start()
        let file = dir.appendingPathComponent("admin.yaml")
        try Data(Self.admin.replacingOccurrences(of: "users: 3", with: "users: 30").utf8).write(to: file)
        XCTAssertTrue(m.waitForStderr("apicli mock: reloaded"), m.stderr)
        XCTAssertEqual(try Curl.run([m.url + "/admin/stats"]).body, #"{"users":30}"#)
        try Data((Self.admin + "  broken: [\n").utf8).write(to: file)
        XCTAssertTrue(m.waitForStderr("keeping the last good version"), m.stderr)
        XCTAssertTrue(m.stderr.contains("admin.yaml:"), m.stderr)
        XCTAssertEqual(try Curl.run([m.url + "/admin/stats"]).body, #"{"users":30}"#)
        kill(m.process.processIdentifier, SIGHUP)
        XCTAssertTrue(m.waitForStderr("keeping the last good version (5 routes)", count: 2), m.stderr)
        XCTAssertTrue(m.process.isRunning)
    }

    func testSIGTERMStopsCleanly() throws {
        let m = try start()
        XCTAssertEqual(try Curl.run([m.url + "/admin/stats"]).status, 200)
        XCTAssertEqual(m.stop(SIGTERM), 0)
    }
}
