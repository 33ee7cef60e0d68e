import Foundation
import XCTest

/// `apicli check` against the local httpbin and the flaky test server.
final class CheckLiveTests: FolderTestCase {

    private let mixed = """
        baseURL: http://127.0.0.1:9
        validate: success
        targets:
          ok:
            path: /get
            expect: { status: 200, headers: { content-type: "~JSON" }, json: { "$.url": { exists: true } }, maxTime: 10s }
          slides:
            path: /json
            expect:
              json:
                "$.slideshow.slides.length()": { ">=": 2 }
                "$.slideshow.slides[0].title": "Wake up to WonderWidgets!"
                "$.slideshow.slides[*].type": [all, all]
          wrongStatus:
            path: /status/404
            expect: { status: [200, 201] }
          validateRejects:
            path: /status/500
          wrongHeader:
            path: /html
            expect: { headers: { Content-Type: "~json" } }
          wrongJSON:
            path: /json
            expect: { json: { "$.slideshow.author": Nobody } }
          wrongBody:
            path: /robots.txt
            expect: { body: { contains: Moya } }
          slow:
            path: /delay/2
            expect: { maxTime: 500ms }
          create:
            path: /post
            method: POST
        """

    func testMixedSuiteKnownPassesAndKnownFailures() throws {
        // GIVEN a target file whose targets are known to pass or to fail, one way each
        let base = try CLI.httpbin()
        let dir = try folder(["mixed.yaml": mixed])
        let json = dir.appendingPathComponent("report.json"), junit = dir.appendingPathComponent("report.xml")
        // WHEN every target is checked against httpbin
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "--json", json.path, "--junit", junit.path])
        // THEN one line each in declaration order, the summary, and exit 1
        XCTAssertEqual(r.code, 1, r.stderr)
        XCTAssertEqual(CheckSupport.normalized(r.stdout), """
            PASS mixed.ok 200 T ms
            PASS mixed.slides 200 T ms
            FAIL mixed.wrongStatus 404 T ms status 404, expected 200 or 201
            FAIL mixed.validateRejects 500 T ms status 500 is not accepted by validate: success (200-299)
            FAIL mixed.wrongHeader 200 T ms header Content-Type is "text/html; charset=utf-8", expected it to contain "json"
            FAIL mixed.wrongJSON 200 T ms $.slideshow.author is "Yours Truly", expected "Nobody"
            FAIL mixed.wrongBody 200 T ms body does not contain "Moya"
            FAIL mixed.slow 200 T ms took T ms, maxTime is T ms
            SKIP mixed.create POST runs only when named, with check: true, or with --all

            failures:
             mixed.wrongStatus
             - status 404, expected 200 or 201
             mixed.validateRejects
             - status 500 is not accepted by validate: success (200-299)
             mixed.wrongHeader
             - header Content-Type is "text/html; charset=utf-8", expected it to contain "json"
             mixed.wrongJSON
             - $.slideshow.author is "Yours Truly", expected "Nobody"
             mixed.wrongBody
             - body does not contain "Moya"
             mixed.slow
             - took T ms, maxTime is T ms

            2 passed, 6 failed, 1 skipped

            """)
        XCTAssertEqual(r.stderr, "")
        // AND the JSON report says the same
        let results = CheckSupport.results(try CheckSupport.report(json))
        XCTAssertEqual(results.map { $0["outcome"] as? String }, ["passed", "passed", "failed", "failed", "failed", "failed",
                                                                  "failed", "failed", "skipped"])
        XCTAssertEqual(results.map { $0["kind"] as? String }, [nil, nil, "expectation", "expectation", "expectation",
                                                               "expectation", "expectation", "expectation", nil])
        let slow = try XCTUnwrap(results.first { $0["name"] as? String == "mixed.slow" })
        XCTAssertGreaterThanOrEqual(slow["time"] as? Double ?? 0, 2.0)
        // AND the JUnit report is valid against the committed XSD
        let (code, output) = try CheckSupport.xmllint(junit)
        XCTAssertEqual(code, 0, output)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"<testsuite name="mixed" tests="9" failures="6" errors="0" skipped="1""#), xml)
        XCTAssertTrue(xml.contains(#"<failure message="body does not contain &quot;Moya&quot;" type="expectation">"#), xml)
    }

    func testCheckSendsTheTargetsCredentials() throws {
        // GIVEN a target behind bearer auth (httpbin /bearer answers 401 without a token)
        let base = try CLI.httpbin()
        let dir = try CLI.folder(["secure.yaml": """
            baseURL: \(base)
            auth: { bearer: "${APICLI_T_CHECK_TOKEN}" }
            targets:
              me: { path: /bearer, expect: { status: 200, json: { "$.token": "t0k3n-check" } } }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        // WHEN checked THEN it passes, so the token was sent — and the token is in no output
        let json = dir.appendingPathComponent("r.json")
        let r = try CLI.run(["check", "--targets", dir.path, "--json", json.path], env: ["APICLI_T_CHECK_TOKEN": "t0k3n-check"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("1 passed, 0 failed\n"), r.stdout)
        XCTAssertFalse((r.stdout + r.stderr + (try String(contentsOf: json, encoding: .utf8))).contains("t0k3n-check"))
    }

    func testShippedHTTPBinTargetsPassLive() throws {
        // GIVEN the shipped httpbin.yaml pointed at the local httpbin
        let base = try CLI.httpbin()
        // WHEN checked, with and without --all
        let safe = try CLI.run(["check", "httpbin"], env: ["APICLI_BASE_URL_HTTPBIN": base])
        let all = try CLI.run(["check", "httpbin", "--all", "--jobs", "3"], env: ["APICLI_BASE_URL_HTTPBIN": base])
        // THEN the safe targets pass and the others are skipped; --all passes them all
        XCTAssertEqual(safe.code, 0, safe.stdout)
        XCTAssertEqual(safe.stdout.split(separator: "\n").last, "5 passed, 0 failed, 3 skipped")
        XCTAssertEqual(all.code, 0, all.stdout)
        XCTAssertEqual(all.stdout.split(separator: "\n").last, "8 passed, 0 failed")
    }

    func testAllIncludesUnsafeMethodsAndPatternsSelect() throws {
        let base = try CLI.httpbin()
        let dir = try folder(["mixed.yaml": mixed])
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "--all", "mixed.create", "mixed.ok", "*.slid*"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(CheckSupport.normalized(r.stdout), """
            PASS mixed.ok 200 T ms
            PASS mixed.slides 200 T ms
            PASS mixed.create 200 T ms

            3 passed, 0 failed

            """)
    }

    func testRetriesRecordEveryAttempt() throws {
        // GIVEN a server that fails the first calls to each path
        _ = try CLI.httpbin()
        let server = try FlakyServer()
        defer { server.stop() }
        let dir = try folder(["flaky.yaml": """
            baseURL: http://127.0.0.1:9
            validate: success
            targets:
              recovers: { path: /flaky/2/a, task: { query: { after: 0 } }, expect: { status: 200, json: { "$.calls": 3 } } }
              givesUp: { path: /flaky/9/b, task: { query: { after: 0 } } }
              dropped: { path: /drop/99/c }
              fine: { path: /ok }
            """])
        let json = dir.appendingPathComponent("r.json")
        // WHEN checked with two retries
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", server.url, "--retries", "2", "--json", json.path])
        // THEN the flaky one passes on its third attempt, the broken one fails after three
        XCTAssertEqual(r.code, 1, r.stderr)
        // (a dropped connection is a network failure: retried too, and still failing)
        let lines = CheckSupport.normalized(r.stdout).split(separator: "\n").prefix(4)
        XCTAssertEqual(Array(lines).map { $0.hasPrefix("FAIL flaky.dropped") ? String($0.prefix(55)) : String($0) }, [
            "PASS flaky.recovers 200 T ms (3 attempts, flaky)",
            "FAIL flaky.givesUp 503 T ms (3 attempts) status 503 is not accepted by validate: success (200-299)",
            "FAIL flaky.dropped --- T ms (3 attempts) network error:",
            "PASS flaky.fine 200 T ms",
        ])
        let results = CheckSupport.results(try CheckSupport.report(json))
        let attempts = results.map { ($0["attempts"] as? [[String: Any]] ?? []).map { $0["status"] as? Int ?? 0 } }
        XCTAssertEqual(attempts, [[503, 503, 200], [503, 503, 503], [0, 0, 0], [200]])
        let dropError = (results[2]["attempts"] as? [[String: Any]])?.first?["error"] as? String
        XCTAssertTrue(dropError?.hasPrefix("network error: ") == true, dropError ?? "nil")
    }

    func testRetryAfterIsHonoured() throws {
        // GIVEN a 503 that says Retry-After: 1 (the default backoff would wait 0.5 s)
        _ = try CLI.httpbin()
        let server = try FlakyServer()
        defer { server.stop() }
        let dir = try folder(["f.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  later: { path: /flaky/1/h, task: { query: { after: 1 } } }\n"])
        // WHEN retried once THEN the second attempt waited the server's second
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", server.url, "--retries", "1"])
        XCTAssertEqual(CheckSupport.normalized(r.stdout).split(separator: "\n").first, "PASS f.later 200 T ms (2 attempts, flaky)")
        XCTAssertGreaterThanOrEqual(r.seconds, 1.0)
    }

    func testNoRetriesByDefault() throws {
        _ = try CLI.httpbin()
        let server = try FlakyServer()
        defer { server.stop() }
        let dir = try folder(["flaky.yaml": "baseURL: http://127.0.0.1:9\nvalidate: success\ntargets:\n  once: { path: /flaky/1/a }\n"])
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", server.url])
        XCTAssertEqual(CheckSupport.normalized(r.stdout).split(separator: "\n").first, "FAIL flaky.once 503 T ms status 503 is not accepted by validate: success (200-299)")
        XCTAssertEqual(r.code, 1)
    }

    func testExitCodesForNetworkOnlyAndTimeoutOnlyFailures() throws {
        let base = try CLI.httpbin()
        let dir = try folder(["t.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              slow: { path: /delay/3, timeout: 500ms }
              fine: { path: /get }
            """])
        // GIVEN nothing listening WHEN checked THEN every failure is a network failure: exit 3
        let refused = try CLI.run(["check", "--targets", dir.path, "t.fine"])
        XCTAssertEqual(refused.code, 3, refused.stdout)
        XCTAssertEqual(CheckSupport.normalized(refused.stdout), """
            FAIL t.fine --- T ms network error: cannot connect to 127.0.0.1:9 (connection refused)

            failures:
             t.fine
             - network error: cannot connect to 127.0.0.1:9 (connection refused)

            0 passed, 1 failed

            """)
        // GIVEN a target slower than its timeout WHEN checked THEN exit 4
        let slow = try CLI.run(["check", "--targets", dir.path, "--base-url", base])
        XCTAssertEqual(slow.code, 4, slow.stdout)
        XCTAssertEqual(CheckSupport.normalized(slow.stdout).split(separator: "\n").first,
                       "FAIL t.slow --- T ms timed out after T ms")
    }

    func testNoSecretInAnyReport() throws {
        let base = try CLI.httpbin()
        let dir = try folder(["sec.yaml": """
            baseURL: http://127.0.0.1:9
            headers: { Authorization: "Bearer s3cr3t-token" }
            targets:
              cookie:
                path: /response-headers
                task: { query: { Set-Cookie: "session=c00kie-value" } }
                expect: { headers: { Set-Cookie: other, Authorization: x } }
            """])
        let json = dir.appendingPathComponent("r.json"), junit = dir.appendingPathComponent("r.xml")
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "--json", json.path, "--junit", junit.path])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.contains("header Set-Cookie does not match (value hidden)"), r.stdout)
        let everything = r.stdout + r.stderr + (try String(contentsOf: json, encoding: .utf8)) + (try String(contentsOf: junit, encoding: .utf8))
        XCTAssertFalse(everything.contains("s3cr3t"), everything)
        XCTAssertFalse(everything.contains("c00kie"), everything)
    }

    func testASecretCapturedLaterIsHiddenInTheReportOfResultsBeforeIt() throws {
        // GIVEN a target whose URL holds a value that a later login captures as a secret
        let base = try CLI.httpbin()
        let dir = try folder(["s.yaml": """
            baseURL: \(base)
            validate: success
            targets:
              early: { path: /anything/t0k-s3cret-77 }
              slow: { path: /delay/1 }
              login:
                path: /anything/login
                method: POST
                task: { json: { access_token: t0k-s3cret-77 } }
                capture: { token: { json: "$.json.access_token", secret: true } }
              me: { path: /bearer, needs: [login], auth: { bearer: "{token}" }, expect: { json: { "$.authenticated": true } } }
            """])
        let json = dir.appendingPathComponent("r.json"), junit = dir.appendingPathComponent("r.xml")
        // WHEN checked one at a time (early's result is out a second before the secret is known)
        let r = try CLI.run(["check", "--jobs", "1", "--targets", dir.path, "--json", json.path, "--junit", junit.path])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        // THEN the reports, written at the end, hide it in early's URL too
        let report = try String(contentsOf: json, encoding: .utf8)
        XCTAssertTrue(report.contains("/anything/••••"), report)
        let everything = r.stdout + r.stderr + report + (try String(contentsOf: junit, encoding: .utf8))
        XCTAssertFalse(everything.contains("t0k-s3cret"), everything)
    }
}
