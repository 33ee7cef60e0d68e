import Foundation
import XCTest

/// `apicli call` against a real local httpbin: what httpbin echoes is what apicli sent.
final class LiveCallTests: XCTestCase {
    var base = ""
    var env: [String: String] { ["APICLI_BASE_URL_HTTPBIN": base] }

    override func setUpWithError() throws {
        base = try CLI.httpbin()
    }

    func call(_ args: String..., extra: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(["call"] + args, env: env.merging(extra) { _, b in b })
    }

    func testEveryShippedHttpbinTargetSucceedsLive() throws {
        // GIVEN the shipped httpbin.yaml pointed at the local server
        let list = try CLI.run(["list", "--json"])
        let names = try JSONDecoder().decode([[String: String]].self, from: list.stdoutData).compactMap { $0["name"] }
            .filter { $0.hasPrefix("httpbin.") }
        XCTAssertEqual(names.count, 8)
        for name in names {
            // WHEN each target is called live THEN it is accepted
            let r = try call(name)
            XCTAssertEqual(r.code, 0, "\(name): \(r.stderr)")
            XCTAssertEqual(r.stderr, "", name)
        }
    }

    func testJSONBodyArrivesAsDeclared() throws {
        let r = try call("httpbin.post")
        let echo = try Echo.decode(r)
        XCTAssertEqual(echo.data, #"{"title":"Found a bug","labels":["bug"],"count":2,"draft":false}"#)
        XCTAssertEqual(echo.headers["Content-Type"], "application/json")
        XCTAssertEqual(echo.headers["User-Agent"], "apicli")
        XCTAssertEqual(echo.url, base + "/post")
    }

    func testFormParametersArriveAsForm() throws {
        let echo = try Echo.decode(try call("httpbin.request"))
        XCTAssertEqual(echo.method, "POST")
        XCTAssertEqual(echo.form, ["lang": .string("swift"), "name": .string("moya")])
        XCTAssertEqual(echo.headers["Content-Type"], "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testQueryArraysAndCompositeQueryWithBody() throws {
        let get = try Echo.decode(try call("httpbin.get"))
        XCTAssertEqual(get.args, ["page": .string("1"), "tags[]": .array([.string("a"), .string("b")])])
        XCTAssertEqual(get.url, base + "/get?page=1&tags[]=a&tags[]=b")

        let put = try Echo.decode(try call("httpbin.anything", "-p", "id=a b"))
        XCTAssertEqual(put.method, "PUT")
        XCTAssertEqual(put.args, ["v": .string("2")])
        XCTAssertEqual(put.data, #"{"ok":true}"#)
        XCTAssertEqual(put.url, base + "/anything/a%20b?v=2")
    }

    func testHeadersServiceTargetAndCommandLine() throws {
        let echo = try Echo.decode(try call("httpbin.headers", "-H", "X-Trace: 7", "-H", "user-agent: cli-override"))
        XCTAssertEqual(echo.headers["X-Request-Source"], "apicli")
        XCTAssertEqual(echo.headers["X-Trace"], "7")
        XCTAssertEqual(echo.headers["User-Agent"], "cli-override")
    }

    func testParamOverrideAndValidationRejection() throws {
        // GIVEN validate: success WHEN the server answers 418 THEN exit 1 with one line naming target and status
        let r = try call("httpbin.status", "-p", "code=418")
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "apicli: httpbin.status: rejected: status 418 I'm a teapot is not accepted by validate: success (200-299)\n")
        XCTAssertEqual(try call("httpbin.status", "-p", "code=204").code, 0)
    }

    func testIncludePrintsStatusLineAndHeaders() throws {
        let r = try call("httpbin.status", "-p", "code=201", "-i")
        XCTAssertEqual(r.code, 0)
        XCTAssertTrue(r.stdout.hasPrefix("HTTP/1.1 201 Created\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\nServer: gunicorn\n"), r.stdout)
    }

    func testVerbosePrintsRequestToStderrAndRedactsCredentials() throws {
        let r = try call("httpbin.headers", "-v", "-H", "Authorization: Bearer s3cr3t-value")
        XCTAssertEqual(r.code, 0)
        XCTAssertTrue(r.stderr.contains("> GET \(base)/headers\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("> Authorization: ••••\n"), r.stderr)
        XCTAssertTrue(r.stderr.contains("< HTTP/1.1 200 OK"), r.stderr)
        XCTAssertFalse(r.stderr.contains("s3cr3t-value"))
        // the header itself was sent
        XCTAssertEqual(try Echo.decode(r).headers["Authorization"], "Bearer s3cr3t-value")
    }

    func testPipedBodyIsTheExactBytes() throws {
        let r = try call("httpbin.post")
        // httpbin pretty-prints itself; apicli passes the bytes through untouched when piped
        XCTAssertTrue(r.stdout.hasPrefix("{\n  \"args\": {}"), r.stdout)
    }

    func testTimeoutExitsFourWithinTheTimeout() throws {
        let r = try call("httpbin.delay", "-p", "seconds=5", "--timeout", "1")
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertEqual(r.stderr, "apicli: httpbin.delay: timed out after 1 s\n")
        XCTAssertLessThan(r.seconds, 4)
    }

    func testConnectionRefusedExitsThree() throws {
        let r = try CLI.run(["call", "httpbin.get", "--base-url", "http://127.0.0.1:9"])
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: httpbin.get: network error: cannot connect to 127.0.0.1:9 (connection refused)\n")
    }

    func testOutputFileWrittenOnlyWhenAccepted() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("out.json")
        // WHEN accepted THEN the body is in the file and not on stdout
        let ok = try call("httpbin.get", "-o", file.path)
        XCTAssertEqual(ok.code, 0)
        XCTAssertEqual(ok.stdout, "")
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("\"tags[]\""))
        // WHEN rejected THEN the existing file is untouched and no temporary file is left
        try Data("keep".utf8).write(to: file)
        let bad = try call("httpbin.status", "-p", "code=500", "-o", file.path)
        XCTAssertEqual(bad.code, 1)
        XCTAssertTrue(bad.stderr.hasSuffix("; \(file.path) was not written\n"), bad.stderr)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "keep")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["out.json"])
    }

    /// Every task form, from a target file written for the test.
    func testTaskFormsFromATargetFile() throws {
        let dir = try CLI.folder([
            "data/payload.bin": "binary\u{0}payload",
            "forms.yaml": """
            baseURL: \(base)
            validate: success
            targets:
              text:    { method: POST, path: /anything, task: { body: "hello {who}", contentType: text/x-greeting }, params: { who: you } }
              file:    { method: PUT, path: /put, task: { body: { file: data/payload.bin } } }
              urlGet:  { method: GET, path: /get, task: { parameters: { b: true, a: [1, 2] }, encoding: url } }
              urlPost: { method: POST, path: /post, task: { parameters: { b: true, nested: { k: v } }, encoding: url } }
              asJSON:  { method: PATCH, path: /patch, task: { parameters: { n: 1.5, s: "x" }, encoding: json } }
              literal: { path: /get, task: { query: { on: false, tags: [x, y] }, arrays: noBrackets, bools: literal } }
              head:    { method: head, path: /get }
              envHeader: { path: /headers, headers: { X-Token: "${APICLI_T_TOKEN}", X-Default: "${APICLI_T_NONE:-fallback}" } }
            """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(_ name: String) throws -> Echo {
            try Echo.decode(try CLI.run(["call", "forms.\(name)", "--targets", dir.path], env: ["APICLI_T_TOKEN": "tok"]))
        }
        let text = try run("text")
        XCTAssertEqual(text.data, "hello you")
        XCTAssertEqual(text.headers["Content-Type"], "text/x-greeting")
        let file = try run("file")
        XCTAssertEqual(file.data, "binary\u{0}payload")
        XCTAssertEqual(file.headers["Content-Type"], "application/octet-stream")
        XCTAssertEqual(try run("urlGet").url, base + "/get?a[]=1&a[]=2&b=1")
        XCTAssertEqual(try run("urlPost").form, ["b": .string("1"), "nested[k]": .string("v")])
        let json = try run("asJSON")
        XCTAssertEqual(json.data, #"{"n":1.5,"s":"x"}"#)
        XCTAssertEqual(json.method, nil)  // /patch does not echo the method; the route only answers PATCH
        XCTAssertEqual(try run("literal").url, base + "/get?on=false&tags=x&tags=y")
        let head = try CLI.run(["call", "forms.head", "--targets", dir.path, "-i"])
        XCTAssertEqual(head.code, 0, head.stderr)
        XCTAssertTrue(head.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        let env = try run("envHeader")
        XCTAssertEqual(env.headers["X-Token"], "tok")
        XCTAssertEqual(env.headers["X-Default"], "fallback")
    }
}
