import Foundation
import TestServers
import XCTest

/// Rows on the binary (issue 39): `check` runs a target once per CSV row against httpbin, each row
/// its own result in the console, JUnit, JSON and HTML reports; a bad row is exit 2 naming FILE:line;
/// `call` sends every row or `--row` one; `load` draws rows round-robin (and seeded random), which
/// the load server's per-path counts show.
final class DataRowsCLITests: FolderTestCase {
    private func targets(_ base: String) -> String {
        """
        baseURL: \(base)
        targets:
          user:
            path: /anything/{id}
            task: { query: { name: "{name}" } }
            each: { file: data/users.csv }
            expect:
              status: 200
              json: { "$.args.name": "{name}", "$.url": { "!=": "no {id}" } }
        """
    }

    private let users = "id,name\n1,alice\n2,\"Smith, Jane\"\n3,bob\n"

    func testACSVOfThreeRowsRunsTheTargetThreeTimesEachItsOwnResultInEveryReport() throws {
        // GIVEN a target with each: a CSV of three rows, and httpbin echoing what it gets
        let base = try CLI.httpbin()
        let dir = try folder(["targets/svc.yaml": targets(base), "targets/data/users.csv": users])
        let out = dir.path
        // WHEN it is checked with every report
        let r = try CLI.run(["check", "--targets", dir.appendingPathComponent("targets").path, "--junit", out + "/r.xml",
                             "--json", out + "/r.json", "--report-html", out + "/r.html"])
        // THEN three requests went, each with its row's parameters, judged by its row's expect:
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertEqual(CheckSupport.normalized(r.stdout), """
            PASS svc.user[alice] 200 T ms
            PASS svc.user[Smith, Jane] 200 T ms
            PASS svc.user[bob] 200 T ms

            3 passed, 0 failed

            """)
        let junit = try String(contentsOfFile: out + "/r.xml", encoding: .utf8)
        for name in ["user[alice]", "user[Smith, Jane]", "user[bob]"] {
            XCTAssertTrue(junit.contains("<testcase name=\"\(name)\" classname=\"svc\""), junit)
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/r.json"))) as? [String: Any])
        let results = try XCTUnwrap(json["results"] as? [[String: Any]])
        XCTAssertEqual(results.compactMap { $0["name"] as? String }, ["svc.user[alice]", "svc.user[Smith, Jane]", "svc.user[bob]"])
        let html = try String(contentsOfFile: out + "/r.html", encoding: .utf8)
        for name in ["user[alice]", "user[Smith, Jane]", "user[bob]"] { XCTAssertTrue(html.contains(name), name) }
    }

    func testARowWhoseExpectationFailsFailsAloneAndDataOnTheCommandLineWins() throws {
        // GIVEN rows from --data, one whose name httpbin will not echo as the expectation says
        let base = try CLI.httpbin()
        let dir = try folder(["targets/svc.yaml": targets(base), "targets/data/users.csv": users,
                              "other.json": "[{\"id\": 1, \"name\": \"x\", \"label\": \"ok\"},\n {\"id\": 2, \"name\": \"{y}\"}]"])
        // WHEN checked with --data, which replaces the target's each:
        let r = try CLI.run(["check", "--targets", dir.appendingPathComponent("targets").path, "--data", dir.path + "/other.json"])
        // THEN both rows ran, both passed: the value {y} went as written and came back the same
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertEqual(CheckSupport.normalized(r.stdout), """
            PASS svc.user[ok] 200 T ms
            PASS svc.user[{y}] 200 T ms

            2 passed, 0 failed

            """)
        // AND -p beats a row's field: every row now sends name=z, which the expectation (from the row) refuses
        let p = try CLI.run(["check", "--targets", dir.appendingPathComponent("targets").path, "-p", "name=z"])
        XCTAssertEqual(p.code, 1, p.stdout + p.stderr)
        XCTAssertTrue(p.stdout.contains("FAIL  svc.user[alice]"), p.stdout)
        XCTAssertTrue(p.stdout.contains("$.args.name is \"z\", expected \"alice\""), p.stdout)
    }

    func testAnUnsafeTargetWithRowsRunsWhenNamedWhole() throws {
        // GIVEN a POST target with two rows
        let base = try CLI.httpbin()
        let dir = try folder(["targets/post.yaml": """
            baseURL: \(base)
            targets:
              make: { path: /post, method: POST, task: { json: { n: "{n}" } }, each: [ { n: a }, { n: b } ], expect: { json: { "$.json.n": "{n}" } } }
            """])
        let t = dir.appendingPathComponent("targets").path
        // WHEN the service is swept, and when the target is named whole
        let sweep = try CLI.run(["check", "--targets", t, "post", "--allow-empty"])
        let named = try CLI.run(["check", "--targets", t, "post.make"])
        // THEN the sweep leaves both rows out, naming the target sends both
        XCTAssertTrue(sweep.stdout.contains("SKIP  post.make[1]"), sweep.stdout)
        XCTAssertEqual(named.code, 0, named.stdout + named.stderr)
        XCTAssertTrue(named.stdout.contains("PASS  post.make[1]") && named.stdout.contains("PASS  post.make[2]"), named.stdout)
    }

    func testABadRowIsExit2NamingFileAndLine() throws {
        let dir = try folder(["targets/svc.yaml": targets("http://127.0.0.1:9"),
                              "targets/data/users.csv": "id,name\n1,alice\n2,bob,extra\n",
                              "targets/other.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  o: { path: /o, each: { file: ../x.csv } }\n",
                              "x.csv": "a\n1\n"])
        let t = dir.appendingPathComponent("targets").path
        let r = try CLI.run(["check", "--targets", t, "svc"])
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("\(t)/data/users.csv:3:1: error: row 2 has 3 fields; the header (line 1) has 2\n"), r.stderr)
        XCTAssertEqual(r.stdout, "")  // nothing was sent
        let outside = try CLI.run(["check", "--targets", t, "other"])
        XCTAssertEqual(outside.code, 2)
        XCTAssertTrue(outside.stderr.contains("\(t)/other.yaml:3:32: error: each file '../x.csv' is outside the targets folder"), outside.stderr)
        let missing = try CLI.run(["check", "--targets", t, "svc", "--data", dir.path + "/none.csv"])
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.stderr.contains("none.csv: error: cannot read the data file: it does not exist"), missing.stderr)
        let absent = try CLI.run(["call", "--targets", t, "svc.user", "--data", dir.path + "/x.csv"])
        XCTAssertEqual(absent.code, 2)
        XCTAssertTrue(absent.stderr.contains("x.csv:2:1: error: row 1 has no field 'id' (nor 'name'), which svc.user uses: {id}, {name}"), absent.stderr)
    }

    func testATargetWithRowsCannotBeNeeded() throws {
        // GIVEN a target that needs one with rows
        let dir = try folder(["targets/svc.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              rows: { path: "/r/{id}", each: [ { id: 1 }, { id: 2 } ], capture: { token: { json: "$.t" } } }
              after: { path: "/a/{token}", needs: rows }
            """])
        // WHEN it is called
        let r = try CLI.run(["call", "--targets", dir.appendingPathComponent("targets").path, "svc.after"])
        // THEN nothing is sent: which row would the need be?
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("svc.yaml:4:39: error: needs 'rows', which has rows (each:); a need runs once"), r.stderr)
    }

    func testValidateReadsTheRowsAndJudgesSamplesWithTheFirstAndShowShowsIt() throws {
        // GIVEN a target whose sample uses a row's field, and one whose data file has a bad row
        let dir = try folder(["targets/svc.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              good: { path: "/g/{id}", each: [ { id: a }, { id: b } ], sample: { json: { id: "{id}" } }, expect: { json: { "$.id": "{id}" } } }
              bad: { path: "/b/{id}", each: { file: data/bad.csv } }
            """, "targets/data/bad.csv": "id\n1\n\"2\n"])
        let t = dir.appendingPathComponent("targets").path
        // WHEN validated
        let r = try CLI.run(["validate", "--targets", t])
        // THEN the bad file is the one problem: the good sample was judged with its first row
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("\(t)/data/bad.csv:3:1: error: a quoted field (opened at 3:1) is never closed\n"), r.stderr)
        XCTAssertFalse(r.stderr.contains("svc.yaml"), r.stderr)
        // AND show prints the first row's request, saying there are more
        let show = try CLI.run(["show", "--targets", t, "svc.good"])
        XCTAssertEqual(show.code, 0, show.stderr)
        XCTAssertTrue(show.stdout.hasPrefix("svc.good[1]  ("), show.stdout)
        XCTAssertTrue(show.stdout.contains("GET http://127.0.0.1:9/g/a\n"), show.stdout)
        XCTAssertTrue(show.stdout.contains("rows      2 (each:), shown with the first"), show.stdout)
    }

    func testCallSendsEveryRowInTurnOrTheOneRowPicked() throws {
        let base = try CLI.httpbin()
        let dir = try folder(["targets/svc.yaml": targets(base), "targets/data/users.csv": users])
        let t = dir.appendingPathComponent("targets").path
        let all = try CLI.run(["call", "--targets", t, "svc.user"])
        XCTAssertEqual(all.code, 0, all.stderr)
        XCTAssertEqual(all.stderr, "apicli: svc.user[alice]\napicli: svc.user[Smith, Jane]\napicli: svc.user[bob]\n")
        XCTAssertEqual(all.stdout.components(separatedBy: "\"url\": \"\(base)/anything/").count, 4, all.stdout)
        let second = try CLI.run(["call", "--targets", t, "svc.user", "--row", "2", "--dry-run"])
        XCTAssertEqual(second.stdout.split(separator: "\n").first, "GET \(base)/anything/2?name=Smith%2C%20Jane")
        let bob = try CLI.run(["call", "--targets", t, "svc.user", "--row", "bob"])
        XCTAssertEqual(bob.code, 0, bob.stderr)
        XCTAssertTrue(bob.stdout.contains("\"name\": \"bob\""), bob.stdout)
        let wrong = try CLI.run(["call", "--targets", t, "svc.user", "--row", "bobb"])
        XCTAssertEqual(wrong.code, 2)
        XCTAssertTrue(wrong.stderr.contains("--row bobb: svc.user has no row labelled 'bobb'"), wrong.stderr)
    }

    /// `record` of a target with rows records what its first row answers into the target's own
    /// `sample:` (it failed with "no value for placeholder"), and the file still validates.
    func testRecordOfATargetWithRowsRecordsTheFirstRow() throws {
        let base = try CLI.httpbin()
        let dir = try folder(["targets/svc.yaml": targets(base), "targets/data/users.csv": users])
        let t = dir.appendingPathComponent("targets").path
        let r = try CLI.run(["record", "--targets", t, "svc.user"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("svc.user has 3 rows (each:): recording what the first, user[alice], answers"), r.stderr)
        XCTAssertTrue(r.stderr.contains("apicli: recorded svc.user (200) as sample:"), r.stderr)
        let written = try String(contentsOf: dir.appendingPathComponent("targets/svc.yaml"), encoding: .utf8)
        XCTAssertTrue(written.contains("sample:") && written.contains("alice"), written)
        XCTAssertEqual(try CLI.run(["validate", "--targets", t]).code, 0)
    }

    func testLoadDrawsRowsRoundRobinOrSeededRandom() throws {
        // GIVEN a target whose two rows go to two paths the load server counts apart
        let server = try TestServer("load-server.py", ["--lifetime", "60"])
        defer { server.stop() }
        let dir = try folder(["targets/svc.yaml": """
            baseURL: \(server.url)
            targets:
              stats: { path: /stats }
              reset: { path: /reset, method: POST }
              code: { path: "/status/{code}", each: [ { code: "200" }, { code: "201" } ] }
              many: { path: "/status/{code}", each: { file: many.csv } }
            """, "targets/many.csv": "code\n" + (0..<100).map { ["202", "203"][$0 % 2] }.joined(separator: "\n")])
        let t = dir.appendingPathComponent("targets").path
        // The paths the server was sent since the last call (it forgets them then).
        func paths() throws -> [String: Int] {
            let r = try CLI.run(["call", "--targets", t, "svc.stats"])
            let stats = try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
            XCTAssertEqual(try CLI.run(["call", "--targets", t, "svc.reset"]).code, 0)
            return try XCTUnwrap(stats["paths"] as? [String: Int])
        }
        // WHEN 3 users send 10 requests
        let r = try CLI.run(["load", "--targets", t, "-q", "svc.code", "--users", "3", "--requests", "10"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        // THEN both rows were sent, in turn: 5 each, counted under the target
        XCTAssertEqual(try paths(), ["/status/200": 5, "/status/201": 5])
        XCTAssertTrue(r.stdout.contains("svc.code        10"), r.stdout)
        // AND a seeded random order (open model) sends the same rows each time, not in turn
        var runs: [[String: Int]] = []
        for _ in 0..<2 {
            let random = try CLI.run(["load", "--targets", t, "-q", "svc.code", "--rate", "200/s", "--requests", "20",
                                      "--data-order", "random", "--seed", "7"])
            XCTAssertEqual(random.code, 0, random.stdout + random.stderr)
            runs.append(try paths())
        }
        XCTAssertEqual(runs[0], runs[1])
        XCTAssertEqual(runs[0].values.reduce(0, +), 20)
        XCTAssertEqual(runs[0].count, 2, "both rows drawn: \(runs[0])")
        XCTAssertNotEqual(runs[0]["/status/200"], 10, "seed 7 draws unevenly, unlike round-robin: \(runs[0])")
        // AND a target with more rows than a user keeps built (64) sends them as well, in both models
        for model in [["--users", "3"], ["--rate", "200/s"]] {
            let many = try CLI.run(["load", "--targets", t, "-q", "svc.many", "--requests", "10"] + model)
            XCTAssertEqual(many.code, 0, many.stdout + many.stderr)
            XCTAssertEqual(try paths(), ["/status/202": 5, "/status/203": 5], "\(model)")
        }
    }
}
