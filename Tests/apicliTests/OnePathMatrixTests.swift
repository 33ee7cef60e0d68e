import Foundation
import XCTest

/// One request path: `call --dry-run`, `show`, `check` (live), `check --stub`, `validate`, `mock` and
/// `record` build a target's request from the same layers — apicli.yaml (headers, auth, a rule with
/// validate: and timeout), an environment (--env, which also moves the baseURL), targets/.env and
/// --env-file — and judge it the same way. Each command is asked what it built; a command that
/// assembled its own request would differ.
final class OnePathMatrixTests: XCTestCase {
    var dir: URL!
    var httpbin = ""

    static let token = "dotenv-token-5f3a"

    override func setUpWithError() throws {
        httpbin = try CLI.httpbin()
        dir = try CLI.folder([
            "targets/apicli.yaml": """
                headers: { X-Proj: from-project }
                auth: { bearer: "${API_TOKEN}" }
                rules:
                  - match: "hb.*"
                    headers: { X-Rule: "rule-{id}" }
                    timeout: 2
                    validate: [200, 201]
                environments:
                  staging:
                    baseURL: "${HB_URL}/anything"
                    headers: { X-Env: staging }
                """,
            "targets/.env": "API_TOKEN=\(Self.token)\n",
            "extra.env": "X_FROM_FILE=envfile-value\n",
            "targets/hb.yaml": """
                baseURL: ${HB_URL}/nowhere     # staging's baseURL replaces it
                targets:
                  echo:
                    path: /{id}
                    method: POST
                    check: true
                    params: { id: "7" }
                    headers: { X-File: "${X_FROM_FILE}" }
                    task: { json: { n: 1 } }
                    expect:
                      json:
                        $.headers.X-Proj: from-project
                        $.headers.X-Rule: rule-7
                        $.headers.X-Env: staging
                        $.headers.X-File: envfile-value
                        $.headers.Authorization: Bearer \(Self.token)
                        $.json.n: 1
                    sample:
                      status: 200
                      headers: { X-Sample: "${X_FROM_FILE}-{id}" }
                      json:
                        headers: { X-Proj: from-project, X-Rule: rule-7, X-Env: staging, X-File: envfile-value,
                                   Authorization: Bearer \(Self.token) }
                        json: { n: 1 }
                    samples:
                      notAccepted:     # 202 is outside the rule's validate: [200, 201]
                        status: 202
                        expectFailure: true
                        json:
                          headers: { X-Proj: from-project, X-Rule: rule-7, X-Env: staging, X-File: envfile-value,
                                     Authorization: Bearer \(Self.token) }
                          json: { n: 1 }
                      tooSlow:         # 3 s is beyond the rule's timeout: 2
                        status: 200
                        delay: 3
                        expectFailure: true
                        json:
                          headers: { X-Proj: from-project, X-Rule: rule-7, X-Env: staging, X-File: envfile-value,
                                     Authorization: Bearer \(Self.token) }
                          json: { n: 1 }
                """,
        ])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    let layers = ["--env", "staging", "--env-file", "extra.env"]
    var env: [String: String] { ["HB_URL": httpbin] }

    /// The headers every command must have built, as shown (the bearer token redacted).
    var expectedHeaders: [String] {
        ["X-Proj: from-project", "X-Env: staging", "X-Rule: rule-7", "X-File: envfile-value",
         "Content-Type: application/json", "User-Agent: \(CLI.defaultUserAgent)", "Authorization: ••••"]
    }

    var expectedURL: String { "\(httpbin)/anything/7" }

    func testCallDryRunShowAndCheckBuildTheSameRequest() throws {
        // WHEN call --dry-run prints the request it would send
        let dry = try CLI.run(["call", "hb.echo", "--dry-run"] + layers, env: env, cwd: dir)
        XCTAssertEqual(dry.code, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, "POST \(expectedURL)\n" + expectedHeaders.joined(separator: "\n") + "\n\n{\"n\":1}\n")

        // AND --curl shows the rule's timeout
        let curl = try CLI.run(["call", "hb.echo", "--dry-run", "--curl"] + layers, env: env, cwd: dir)
        XCTAssertTrue(curl.stdout.hasSuffix("--max-time 2\n"), curl.stdout)

        // AND show prints the same request, the rule's timeout and validation
        let show = try CLI.run(["show", "hb.echo"] + layers, env: env, cwd: dir)
        XCTAssertEqual(show.code, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains(dry.stdout), show.stdout)
        XCTAssertTrue(show.stdout.contains("timeout   2 s\nvalidate  [200, 201]\n"), show.stdout)
        XCTAssertFalse(show.stdout.contains(Self.token))

        // AND check (live) sent exactly that: the JSON report's request, and httpbin's echo
        // satisfies every expectation on the headers that arrived
        let live = dir.appendingPathComponent("live.json")
        let check = try CLI.run(["check", "hb", "--json", live.path] + layers, env: env, cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        try assertReportedRequest(live, name: "hb.echo")

        // AND check --stub built the same request for every sample
        let stub = dir.appendingPathComponent("stub.json")
        let stubbed = try CLI.run(["check", "hb", "--stub", "--json", stub.path] + layers, env: env, cwd: dir)
        XCTAssertEqual(stubbed.code, 0, stubbed.stdout + stubbed.stderr)
        for name in ["hb.echo", "hb.echo[notAccepted]", "hb.echo[tooSlow]"] {
            try assertReportedRequest(stub, name: name)
        }
        XCTAssertFalse(try String(contentsOf: live, encoding: .utf8).contains(Self.token))
    }

    func testCheckStubAndValidateJudgeWithTheRulesValidationAndTimeout() throws {
        // WHEN check --stub judges the samples
        let stubbed = try CLI.run(["check", "hb", "--stub"] + layers, env: env, cwd: dir)
        // THEN 202 fails the rule's validate: and a 3 s delay the rule's 2 s timeout, as expected
        XCTAssertEqual(stubbed.code, 0, stubbed.stdout + stubbed.stderr)
        XCTAssertEqual(CheckSupport.normalized(stubbed.stdout), """
            PASS hb.echo 200 T ms
            PASS hb.echo[notAccepted] 202 T ms failed as expected: status 202 is not accepted by validate: [200, 201]
            PASS hb.echo[tooSlow] --- T ms failed as expected: timed out after 2 s

            3 passed, 0 failed

            """)

        // AND validate judges them the same way, without waiting the delay
        let validate = try CLI.run(["validate"] + layers, env: env, cwd: dir)
        XCTAssertEqual(validate.code, 0, validate.stderr)
        XCTAssertEqual(validate.stdout, "ok: 1 file, 1 target, 3 samples\n")
        XCTAssertLessThan(validate.seconds, 2.5)
    }

    func testValidateReportsASampleTheRuleRejectsWithoutExpectFailure() throws {
        // GIVEN the 202 sample without expectFailure
        let file = dir.appendingPathComponent("targets/hb.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "status: 202\n        expectFailure: true", with: "status: 202")
            .write(to: file, atomically: true, encoding: .utf8)
        // WHEN validate runs with the project file's rule
        let validate = try CLI.run(["validate"] + layers, env: env, cwd: dir)
        // THEN the rule's validate: rejects it, at the sample
        XCTAssertEqual(validate.code, 2, validate.stdout)
        XCTAssertTrue(validate.stderr.contains(
            "sample 'notAccepted' of hb.echo fails its expectations: status 202 is not accepted by validate: [200, 201]"),
            validate.stderr)
    }

    func testShowSecretsReachesEveryCommand() throws {
        let dry = try CLI.run(["call", "hb.echo", "--dry-run", "--show-secrets"] + layers, env: env, cwd: dir)
        XCTAssertTrue(dry.stdout.contains("Authorization: Bearer \(Self.token)"), dry.stdout)
        let report = dir.appendingPathComponent("shown.json")
        let check = try CLI.run(["check", "hb", "--stub", "--show-secrets", "--json", report.path] + layers, env: env, cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertTrue(try String(contentsOf: report, encoding: .utf8).contains("Bearer \(Self.token)"))
    }

    func testMockServesTheTargetWhereTheSameLayersPutIt() throws {
        // WHEN apicli mock starts with the same layers
        let mock = try MockProcess(layers, cwd: dir, env: env)
        defer { mock.stop() }
        // THEN the route is where staging's baseURL puts it, and the sample expands --env-file's
        // variable and the path's {id}
        let hit = try Curl.run(["-X", "POST", mock.url + "/anything/7"])
        XCTAssertEqual(hit.status, 200, hit.raw + mock.stderr)
        XCTAssertEqual(hit.headers["x-sample"], "envfile-value-7")
        XCTAssertEqual(try Curl.run(["-X", "POST", mock.url + "/nowhere/7"]).status, 404)

        // AND check, live against the mock with the same layers, sends there and passes
        let report = dir.appendingPathComponent("mocked.json")
        let check = try CLI.run(["check", "hb", "--json", report.path] + layers,
                                env: ["HB_URL": mock.url], cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertTrue(mock.waitForStderr("POST /anything/7  hb.echo  sample  200  "), mock.stderr)
    }

    func testRecordSendsTheSameRequestAndWritesNoSecret() throws {
        // WHEN record sends hb.echo with the same layers and writes httpbin's echo as a sample
        let record = try CLI.run(["record", "hb.echo", "--sample", "recorded"] + layers, env: env, cwd: dir)
        XCTAssertEqual(record.code, 0, record.stderr)
        // THEN the echo shows every layer's header arrived, at staging's URL, and the token is not written
        let text = try String(contentsOf: dir.appendingPathComponent("targets/hb.yaml"), encoding: .utf8)
        let recorded = try XCTUnwrap(text.range(of: "      recorded:\n").map { String(text[$0.lowerBound...]) }, text)
        for line in [#""X-Proj": "from-project""#, #""X-Rule": "rule-7""#, #""X-Env": "staging""#,
                     #""X-File": "envfile-value""#, #""Authorization": "Bearer ${API_TOKEN:-••••}""#, #""url": "\#(expectedURL)""#] {
            XCTAssertTrue(recorded.contains(line), "no \(line) in\n\(recorded)")
        }
        XCTAssertFalse(recorded.contains(Self.token), recorded)
        // AND the recorded sample passes check --stub and validate under the same layers
        let stubbed = try CLI.run(["check", "hb", "--stub"] + layers, env: env, cwd: dir)
        XCTAssertEqual(stubbed.code, 0, stubbed.stdout + stubbed.stderr)
        XCTAssertTrue(CheckSupport.normalized(stubbed.stdout).contains("PASS hb.echo[recorded] 200 T ms\n"), stubbed.stdout)
        let validate = try CLI.run(["validate"] + layers, env: env, cwd: dir)
        XCTAssertEqual(validate.stdout, "ok: 1 file, 1 target, 4 samples\n", validate.stderr)
    }

    /// The JSON report's request for `name` is the one `call --dry-run` printed.
    func assertReportedRequest(_ report: URL, name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let results = CheckSupport.results(try CheckSupport.report(report))
        let result = try XCTUnwrap(results.first { $0["name"] as? String == name }, "no result \(name)", file: file, line: line)
        XCTAssertEqual(result["outcome"] as? String, "passed", "\(result)", file: file, line: line)
        let request = try XCTUnwrap(result["request"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(request["method"] as? String, "POST", file: file, line: line)
        XCTAssertEqual(request["url"] as? String, expectedURL, file: file, line: line)
        XCTAssertEqual(request["timeout"] as? Int, 2, file: file, line: line)
        let headers = (request["headers"] as? [[String: String]] ?? []).map { "\($0["name"] ?? ""): \($0["value"] ?? "")" }
        XCTAssertEqual(headers, expectedHeaders, file: file, line: line)
    }
}
