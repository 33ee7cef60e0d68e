import Foundation
import TestServers
import XCTest

/// `needs:` and `capture:`: a login whose token the next target uses, a need that runs once per
/// run however many targets need it, offline on samples, and every mistake reported by validate.
final class FlowTests: XCTestCase {
    var dir: URL!
    var httpbin = ""
    var counter: TestServer!
    let key = UUID().uuidString.prefix(8).lowercased()

    override func setUpWithError() throws {
        httpbin = try CLI.httpbin()
        counter = try TestServer("faultserver.py", ["--lifetime", "120"])
        dir = try CLI.folder([
            "targets/flow.yaml": """
                baseURL: ${HB_URL}
                validate: success
                targets:
                  login:
                    path: /anything/login
                    method: POST
                    task: { json: { user: ada, access_token: t0k-s3cret, profile: { id: 7 } } }
                    capture:
                      token: { json: "$.json.access_token", secret: true }
                      userId: { json: "$.json.profile.id" }
                      echoed: { header: Content-Type }
                    sample: { json: { json: { access_token: stub-t0ken, profile: { id: 8 } } } }
                  me:
                    path: /bearer
                    needs: [login]
                    auth: { bearer: "{token}" }
                    expect: { json: { "$.authenticated": true } }
                    sample: { json: { authenticated: true } }
                  user:
                    path: /anything/users/{userId}
                    needs: login
                    expect: { json: { "$.url": { "~": "/users/7" } } }
                    sample: { json: { url: "/users/{userId}" } }
                  missing:
                    path: /get
                    needs: [nothing]
                """,
            "targets/count.yaml": """
                baseURL: \(counter.url)
                targets:
                  first:
                    path: /count/\(key)
                    check: false
                    capture: { n: { json: "$.count" }, apiToken: { json: "$.token" } }
                  a: { path: /anything/a, needs: [first], headers: { X-N: "{n}" }, expect: { status: 404 } }
                  b: { path: /anything/b, needs: [first], headers: { X-N: "{n}" }, expect: { status: 404 } }
                  c: { path: "/count/{n}-{apiToken}", needs: [first], check: false }
                """,
        ])
        // `missing` is for validate; the other tests leave it out of their selection
    }

    override func tearDownWithError() throws {
        counter?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    var env: [String: String] { ["HB_URL": httpbin] }

    func testACapturedTokenAuthenticatesTheTargetThatNeedsIt() throws {
        let r = try CLI.run(["call", "flow.me", "-v"], env: env, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"authenticated\": true"), r.stdout)
        // -v shows every step, the secret capture hidden
        XCTAssertTrue(r.stderr.contains("> POST \(httpbin)/anything/login"), r.stderr)
        XCTAssertTrue(r.stderr.contains("> GET \(httpbin)/bearer\n> User-Agent: \(CLI.defaultUserAgent)\n> Authorization: ••••\n"), r.stderr)
        // AND a capture fills a path placeholder
        let user = try CLI.run(["call", "flow.user"], env: env, cwd: dir)
        XCTAssertEqual(user.code, 0, user.stderr)
        XCTAssertTrue(user.stdout.contains("/anything/users/7"), user.stdout)
        // AND -p beats a capture
        let p = try CLI.run(["call", "flow.user", "-p", "userId=9"], env: env, cwd: dir)
        XCTAssertTrue(p.stdout.contains("/anything/users/9"), p.stdout)
    }

    func testOfflineTheChainRunsOnSamples() throws {
        let r = try CLI.run(["call", "flow.user", "--stub"], env: env, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"{"url":"/users/8"}"#)
        let check = try CLI.run(["check", "flow.me", "flow.user", "--stub"], env: env, cwd: dir)
        XCTAssertEqual(check.code, 1, check.stdout)  // user's sample says /users/8, expect wants /users/7
        XCTAssertTrue(check.stdout.contains("PASS  flow.me"), check.stdout)
        XCTAssertTrue(check.stdout.contains("FAIL  flow.user"), check.stdout)
    }

    func testANeedRunsOncePerRunHoweverManyNeedIt() throws {
        // a and b both need `first`, which counts how often it is asked for
        let json = dir.appendingPathComponent("r.json")
        let r = try CLI.run(["check", "count.a", "count.b", "--json", json.path], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        let results = CheckSupport.results(try CheckSupport.report(json))
        for result in results {
            let headers = (result["request"] as? [String: Any])?["headers"] as? [[String: String]] ?? []
            XCTAssertEqual(headers.first { $0["name"] == "X-N" }?["value"], "1", "\(result)")
        }
        // AND a dry run sends nothing: captures show as their {names}
        let dry = try CLI.run(["call", "count.c", "--dry-run"], cwd: dir)
        XCTAssertEqual(dry.code, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.hasPrefix("GET \(counter.url)/count/%7Bn%7D-%7BapiToken%7D\n"), dry.stdout)
        // AND a capture with a secret name (apiToken), issued by the server, is hidden wherever it goes
        let sent = try CLI.run(["call", "count.c", "-v"], cwd: dir)
        XCTAssertEqual(sent.code, 0, sent.stderr)
        XCTAssertTrue(sent.stderr.contains("> GET \(counter.url)/count/2-••••\n"), sent.stderr)
        XCTAssertFalse(sent.stderr.contains("tok-\(key)"), sent.stderr)
        // … in --curl, in check's reports, on stdout's text lines and in error lines alike
        let curl = try CLI.run(["call", "count.c", "--curl"], cwd: dir)
        XCTAssertTrue(curl.stderr.contains("/count/3-••••'"), curl.stderr)
        let cJSON = dir.appendingPathComponent("c.json"), cJUnit = dir.appendingPathComponent("c.xml")
        let cCheck = try CLI.run(["check", "count.c", "--all", "--json", cJSON.path, "--junit", cJUnit.path], cwd: dir)
        let everything = curl.stderr + cCheck.stdout + cCheck.stderr  // (curl.stdout is the server's body: it echoes the path)
            + (try String(contentsOf: cJSON, encoding: .utf8)) + (try String(contentsOf: cJUnit, encoding: .utf8))
        XCTAssertFalse(everything.contains("tok-\(key)"), everything)
        XCTAssertTrue(try String(contentsOf: cJSON, encoding: .utf8).contains("••••"))
    }

    /// A POST that is checked itself and needed by two others: `before` (listed ahead of it, so at
    /// --jobs 1 it reaches the need first) and `after`.
    func onceFolder() throws -> URL {
        let folder = dir.appendingPathComponent("once")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            baseURL: \(counter.url)
            validate: success
            targets:
              before: { path: /anything/before, needs: [create], headers: { X-N: "{n}" }, expect: { status: 404 },
                        sample: { status: 404 } }
              create: { path: "/count/{run}", method: POST, check: true, capture: { n: { json: "$.count" } },
                        expect: { status: 200 }, sample: { json: { count: 1 } } }
              after:  { path: /anything/after, needs: [create], headers: { X-N: "{n}" }, expect: { status: 404 },
                        sample: { status: 404 } }
              peek:   { path: "/count/{run}", check: false }
              flakyBefore: { path: /anything/fb, needs: [flaky], headers: { X-A: "{attempt}" }, expect: { status: 404 },
                             sample: { status: 404 } }
              flaky:  { path: "/flaky/1/{run}", method: POST, check: true, capture: { attempt: { json: "$.attempt" } },
                        sample: { json: { attempt: 2 } } }
              flakyAfter:  { path: /anything/fa, needs: [flaky], headers: { X-A: "{attempt}" }, expect: { status: 404 },
                             sample: { status: 404 } }
              flakyPeek: { path: "/flaky/1/{run}", check: false }
              downBefore: { path: /anything/db, needs: [down], expect: { status: 404 } }
              down:   { path: "/flaky/2/{run}", method: POST, check: true, capture: { attempt: { json: "$.attempt" } } }
              downAfter:  { path: /anything/da, needs: [down], expect: { status: 404 } }
            """.write(to: folder.appendingPathComponent("once.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    private func header(_ result: [String: Any], _ name: String) -> String? {
        let headers = (result["request"] as? [String: Any])?["headers"] as? [[String: String]] ?? []
        return headers.first { $0["name"] == name }?["value"]
    }

    private func summary(_ results: [[String: Any]]) -> [String] {
        results.map { "\($0["name"] ?? "") \($0["outcome"] ?? "")" }
    }

    func testASelectedNeedIsSentOncePerCheckRunWhateverTheJobs() throws {
        let folder = try onceFolder()
        for jobs in ["1", "8"] {
            let run = "\(key)-once-j\(jobs)"
            let json = dir.appendingPathComponent("once-\(jobs).json")
            let r = try CLI.run(["check", "once.before", "once.create", "once.after", "--targets", folder.path,
                                 "--jobs", jobs, "-p", "run=\(run)", "--json", json.path])
            XCTAssertEqual(r.code, 0, "--jobs \(jobs): " + r.stdout + r.stderr)
            let results = CheckSupport.results(try CheckSupport.report(json))
            XCTAssertEqual(summary(results), ["once.before passed", "once.create passed", "once.after passed"], "--jobs \(jobs)")
            // both dependents captured from the one POST, which the item reports with its one attempt
            XCTAssertEqual(results.map { header($0, "X-N") }, ["1", nil, "1"], "--jobs \(jobs)")
            XCTAssertEqual((results[1]["attempts"] as? [Any])?.count, 1, "--jobs \(jobs)")
            XCTAssertEqual((results[1]["request"] as? [String: Any])?["method"] as? String, "POST")
            // AND the server saw it once: the next ask is the second
            let peek = try CLI.run(["call", "once.peek", "--targets", folder.path, "-p", "run=\(run)"])
            XCTAssertEqual(peek.code, 0, peek.stderr)
            XCTAssertTrue(peek.stdout.hasPrefix(#"{"count": 2,"#), "--jobs \(jobs): " + peek.stdout)
        }
        // AND --stub reports the same items, the captures from the sample
        let json = dir.appendingPathComponent("once-stub.json")
        let stub = try CLI.run(["check", "once.before", "once.create", "once.after", "--targets", folder.path, "--stub",
                                "--jobs", "1", "-p", "run=x", "--json", json.path])
        XCTAssertEqual(stub.code, 0, stub.stdout + stub.stderr)
        let results = CheckSupport.results(try CheckSupport.report(json))
        XCTAssertEqual(summary(results), ["once.before passed", "once.create passed", "once.after passed"])
        XCTAssertEqual(results.map { header($0, "X-N") }, ["1", nil, "1"])
    }

    func testASelectedNeedIsRetriedAsAnItemAndItsDependentsCaptureTheFinalResponse() throws {
        let folder = try onceFolder()
        for jobs in ["1", "8"] {
            let run = "\(key)-flaky-j\(jobs)"
            let json = dir.appendingPathComponent("flaky-\(jobs).json")
            let r = try CLI.run(["check", "once.flakyBefore", "once.flaky", "once.flakyAfter", "--targets", folder.path,
                                 "--jobs", jobs, "--retries", "1", "-p", "run=\(run)", "--json", json.path])
            XCTAssertEqual(r.code, 0, "--jobs \(jobs): " + r.stdout + r.stderr)
            XCTAssertTrue(r.stdout.contains("(2 attempts, flaky)"), r.stdout)
            XCTAssertTrue(r.stdout.contains("3 passed, 0 failed, 1 flaky"), r.stdout)
            let results = CheckSupport.results(try CheckSupport.report(json))
            XCTAssertEqual(summary(results), ["once.flakyBefore passed", "once.flaky passed", "once.flakyAfter passed"])
            XCTAssertEqual(results.map { $0["flaky"] as? Bool }, [false, true, false], "--jobs \(jobs)")
            XCTAssertEqual((results[1]["attempts"] as? [[String: Any]])?.map { $0["status"] as? Int }, [503, 200])
            XCTAssertEqual(results.map { header($0, "X-A") }, ["2", nil, "2"], "--jobs \(jobs)")
            // AND the server saw two requests (the 503 and its retry), no third
            let peek = try CLI.run(["call", "once.flakyPeek", "--targets", folder.path, "-p", "run=\(run)"])
            XCTAssertEqual(peek.stdout, #"{"attempt": 3}"#, "--jobs \(jobs)")
        }
        // AND --stub reports the same items
        let json = dir.appendingPathComponent("flaky-stub.json")
        let stub = try CLI.run(["check", "once.flakyBefore", "once.flaky", "once.flakyAfter", "--targets", folder.path,
                                "--stub", "--retries", "1", "-p", "run=x", "--json", json.path])
        XCTAssertEqual(stub.code, 0, stub.stdout + stub.stderr)
        let results = CheckSupport.results(try CheckSupport.report(json))
        XCTAssertEqual(summary(results), ["once.flakyBefore passed", "once.flaky passed", "once.flakyAfter passed"])
        XCTAssertEqual(results.map { header($0, "X-A") }, ["2", nil, "2"])
    }

    func testAFailedSelectedNeedFailsItsItemAndItsDependentsFromOneExchange() throws {
        let folder = try onceFolder()
        for (jobs, failFast) in [("16", false), ("16", true), ("1", true)] {
            let run = "\(key)-down-j\(jobs)-\(failFast)"
            let json = dir.appendingPathComponent("down.json")
            let r = try CLI.run(["check", "once.downBefore", "once.down", "once.downAfter", "--targets", folder.path,
                                 "--jobs", jobs, "--retries", "1", "-p", "run=\(run)", "--json", json.path]
                                + (failFast ? ["--fail-fast"] : []))
            XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
            let results = CheckSupport.results(try CheckSupport.report(json))
            let dependency = "needs: once.down, which it needs, failed: status 503 is not accepted by validate: success (200-299)"
            if jobs == "1" {
                // the dependent, first, runs the need (both attempts) and fails; nothing else starts
                XCTAssertEqual(summary(results), ["once.downBefore failed", "once.down skipped", "once.downAfter skipped"])
                XCTAssertEqual(results[0]["messages"] as? [String], [dependency])
            } else {
                XCTAssertEqual(summary(results), ["once.downBefore failed", "once.down failed", "once.downAfter failed"])
                XCTAssertEqual(results.map { $0["kind"] as? String }, ["dependency", "expectation", "dependency"])
                XCTAssertEqual(results.map { $0["messages"] as? [String] ?? [] }[0], [dependency])
                XCTAssertEqual((results[1]["attempts"] as? [[String: Any]])?.map { $0["status"] as? Int }, [503, 503])
            }
            // the server saw the 503 and its one retry, no more
            let peek = try CLI.run(["call", "once.flakyPeek", "--targets", folder.path, "-p", "run=\(run)"])
            XCTAssertEqual(peek.stdout, #"{"attempt": 3}"#, "--jobs \(jobs) --fail-fast \(failFast)")
        }
    }

    func testAFailedNeedOrAMissingCaptureFailsTheTargetThatNeedsIt() throws {
        let broken = dir.appendingPathComponent("targets/broken.yaml")
        try """
            baseURL: \(httpbin)
            targets:
              login: { path: /status/401, validate: success, capture: { token: { json: "$.token" } } }
              empty: { path: /json, capture: { token: { json: "$.nope" } } }
              me: { path: /get, needs: login }
              other: { path: /get, needs: empty }
            """.write(to: broken, atomically: true, encoding: .utf8)
        let me = try CLI.run(["call", "broken.me"], cwd: dir)
        XCTAssertEqual(me.code, 1)
        XCTAssertEqual(me.stderr, "apicli: broken.me: needs: broken.login, which it needs, failed: "
                       + "status 401 is not accepted by validate: success (200-299)\n")
        let other = try CLI.run(["call", "broken.other"], cwd: dir)
        XCTAssertEqual(other.code, 1)
        XCTAssertEqual(other.stderr, "apicli: broken.other: needs: capture 'token' of broken.empty found nothing: "
                       + "$.nope is not in the body (the response was 200)\n")
        let check = try CLI.run(["check", "broken.me", "broken.other"], cwd: dir)
        XCTAssertEqual(check.code, 1)
        XCTAssertTrue(check.stdout.contains("FAIL  broken.me     ---"), check.stdout)
    }

    func testValidateReportsEveryMistakeInFlowKeys() throws {
        try """
            baseURL: https://api.test
            targets:
              a: { needs: [b] }
              b: { needs: [a] }
              c: { needs: [logn], capture: { t: { json: "token" }, u: { secret: true }, v: { json: "$.a", header: X } } }
              login: {}
            """.write(to: dir.appendingPathComponent("targets/bad.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "targets/bad.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 2)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains("hint:") }.map(String.init)
        XCTAssertEqual(errors, [
            "targets/bad.yaml:5:45: error: capture 't': 'token' is not a JSONPath: a JSONPath starts with '$'",
            "    hint: write json: \"$.field\", \"$.items[0].id\" or \"$['odd name']\"",
            "targets/bad.yaml:5:59: error: capture 'u' needs a source",
            "    hint: write { json: \"$.token\" }, { header: Location } or { body: \"id=([0-9]+)\" }",
            "targets/bad.yaml:5:95: error: capture 'v' takes one of json:, header:, body:",
        ])
    }

    func testValidateReportsUnknownNeedsAndCycles() throws {
        try """
            baseURL: https://api.test
            targets:
              a: { needs: [b] }
              b: { needs: [a] }
              c: { needs: [logn] }
              login: {}
            """.write(to: dir.appendingPathComponent("targets/bad.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "targets/bad.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 2)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains("hint:") }.map(String.init)
        XCTAssertEqual(errors, [
            "targets/bad.yaml:5:16: error: bad.c needs 'logn', which is no target",
            "    hint: did you mean 'bad.login'?",
            "targets/bad.yaml:3:16: error: needs: form a cycle: bad.a → bad.b → bad.a",
            "    hint: a target cannot need itself, directly or through others",
        ])
    }

    // MARK: until:

    func jobs() throws -> URL {
        let folder = dir.appendingPathComponent("jobs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            baseURL: \(counter.url)
            targets:
              done:
                path: /job/3/\(key)
                until: { expect: { json: { "$.state": done } }, failIf: { json: { "$.state": failed } }, every: 100ms, within: 10s }
                sample: { json: { state: done } }
              doneToo:
                path: /job/3/\(key)-check
                until: { expect: { json: { "$.state": done } }, failIf: { json: { "$.state": failed } }, every: 100ms, within: 10s }
                sample: { json: { state: done } }
              failing:
                path: /job-fail/1/\(key)
                until: { expect: { json: { "$.state": done } }, failIf: { json: { "$.state": failed } }, every: 100ms, within: 10s }
                sample: { json: { state: running } }
              slow:
                path: /job/1000/\(key)
                until: { expect: { json: { "$.state": done } }, every: 200ms, within: 1s }
            """.write(to: folder.appendingPathComponent("job.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    func testUntilPollsUntilTheConditionHolds() throws {
        let folder = try jobs()
        let r = try CLI.run(["call", "job.done", "-v", "--targets", folder.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"{"state": "done", "polls": 4}"#)
        XCTAssertEqual(r.stderr.components(separatedBy: "> GET ").count - 1, 4, r.stderr)
        // AND check reports every attempt
        let json = dir.appendingPathComponent("job.json")
        let check = try CLI.run(["check", "job.doneToo", "--targets", folder.path, "--json", json.path])
        XCTAssertEqual(check.code, 0, check.stdout)
        XCTAssertTrue(check.stdout.contains("(4 attempts)"), check.stdout)
        XCTAssertEqual((CheckSupport.results(try CheckSupport.report(json)).first?["attempts"] as? [Any])?.count, 4)
    }

    func testFailIfStopsAtOnceAndWithinEndsInATimeout() throws {
        let folder = try jobs()
        let failing = try CLI.run(["call", "job.failing", "--targets", folder.path])
        XCTAssertEqual(failing.code, 1)
        XCTAssertEqual(failing.stderr, "apicli: job.failing: failIf: holds after 2 attempts "
                       + "(until: still waits for: $.state is \"failed\", expected \"done\")\n")
        let slow = try CLI.run(["call", "job.slow", "--targets", folder.path])
        XCTAssertEqual(slow.code, 4, slow.stderr)
        XCTAssertEqual(slow.stderr, "apicli: job.slow: timed out after 1 s\n")
        XCTAssertLessThan(slow.seconds, 3)
    }

    func testUntilOnSamplesAndItsMistakes() throws {
        let folder = try jobs()
        XCTAssertEqual(try CLI.run(["call", "job.done", "--stub", "--targets", folder.path]).code, 0)
        let stub = try CLI.run(["call", "job.failing", "--stub", "--targets", folder.path])
        XCTAssertEqual(stub.code, 1)
        XCTAssertEqual(stub.stderr, "apicli: job.failing: the sample does not meet until: $.state is \"running\", expected \"done\"\n")
        try "baseURL: https://api.test\ntargets:\n  j: { until: { every: 1s } }\n"
            .write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "--targets", folder.path, folder.appendingPathComponent("bad.yaml").path])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("bad.yaml:3:15: error: until: needs expect: and within: (expect: is the condition "
                                        + "that ends the polling, within: how long it may take in all)"), r.stderr)
    }
}
