import Foundation
import XCTest

/// `check --coverage SPEC` (issue 39): a real description (Fixtures/specs/petstore-expanded.yaml,
/// see SOURCE.txt) imported, its targets checked against `apicli mock` of them on 127.0.0.1: the
/// report names the operations exercised and those missed, with their documented responses, on
/// stdout and in the JSON and HTML reports; `--coverage-min` fails the run below it.
final class CheckCoverageTests: FolderTestCase {
    static let spec = ImportOpenAPIRealSpecTests.specs.appendingPathComponent("petstore-expanded.yaml").path

    func testCheckAgainstTheMockReportsExercisedAndMissingOperations() throws {
        // GIVEN the petstore imported, and the mock serving its samples
        let dir = try folder()
        let i = try CLI.run(["import", "openapi", Self.spec, "--service", "pets"], cwd: dir)
        XCTAssertEqual(i.code, 0, i.stderr)
        let mock = try MockProcess([], cwd: dir)
        defer { _ = mock.stop() }
        let base = ["check", "--base-url", mock.url + "/v2", "--coverage", Self.spec]

        // WHEN check runs the GET targets only (POST and DELETE are check: false)
        let r = try CLI.run(base + ["--json", "r.json", "--report-html", "r.html"],
                            env: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": dir.appendingPathComponent("summary.md").path], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("coverage of \(Self.spec): 2 of 4 operations (50.0%), 2 of 8 documented responses (25.0%)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  exercised  GET /pets  by pets.findPets  [200 seen, default not seen]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  exercised  GET /pets/{id}  by pets.findPetById  [200 seen, default not seen]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  missing    POST /pets  [200 not seen, default not seen]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  missing    DELETE /pets/{id}  [204 not seen, default not seen]"), r.stdout)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("r.json"))) as? [String: Any])
        let coverage = try XCTUnwrap(json["coverage"] as? [String: Any])
        XCTAssertEqual((coverage["operations"] as? [String: Any])?["exercised"] as? Int, 2)
        XCTAssertEqual((coverage["operations"] as? [String: Any])?["total"] as? Int, 4)
        let items = try XCTUnwrap(coverage["items"] as? [[String: Any]])
        XCTAssertEqual(items.map { "\($0["method"]!) \($0["path"]!) \($0["exercised"]!)" },
                       ["GET /pets 1", "POST /pets 0", "GET /pets/{id} 1", "DELETE /pets/{id} 0"])
        XCTAssertEqual(items[0]["targets"] as? [String], ["pets.findPets"])
        let html = try String(contentsOf: dir.appendingPathComponent("r.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("2 of 4 operations exercised (50.0%)"), html)
        XCTAssertTrue(html.contains("<td class=\"verdict failed\">DELETE /pets/{id}</td><td>—</td>"), html)

        let summary = try String(contentsOf: dir.appendingPathComponent("summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("2 of 4 operations (50.0%), 2 of 8 documented responses (25.0%); not exercised: `POST /pets`, `DELETE /pets/{id}`."), summary)

        // THEN a minimum above what was exercised fails the run (exit 1), one at or below it does not
        let low = try CLI.run(base + ["--coverage-min", "60"], cwd: dir)
        XCTAssertEqual(low.code, 1, low.stdout + low.stderr)
        XCTAssertTrue(low.stderr.contains("coverage 50.0% of \(Self.spec)'s operations is below --coverage-min 60%"), low.stderr)
        XCTAssertTrue(low.stdout.contains("2 passed, 0 failed"), low.stdout)
        let ok = try CLI.run(base + ["--coverage-min", "50"], cwd: dir)
        XCTAssertEqual(ok.code, 0, ok.stdout + ok.stderr)
        // and a sharded run's merged reports measure the same
        for shard in ["1/2", "2/2"] {
            let part = try CLI.run(base.filter { $0 != "--coverage" && $0 != Self.spec } + ["--shard", shard, "--json", "s\(shard.first!).json"], cwd: dir)
            XCTAssertEqual(part.code, 0, part.stdout + part.stderr)
        }
        let merged = try CLI.run(["report", "merge", "s1.json", "s2.json", "--coverage", Self.spec, "--coverage-min", "60", "--json", "m.json"], cwd: dir)
        XCTAssertEqual(merged.code, 1, merged.stdout + merged.stderr)
        XCTAssertTrue(merged.stdout.contains("coverage of \(Self.spec): 2 of 4 operations (50.0%)"), merged.stdout)
        XCTAssertTrue(merged.stderr.contains("is below --coverage-min 60%"), merged.stderr)
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("m.json"), encoding: .utf8).contains("\"coverage\":{\"spec\""))
        // and with --all every operation is exercised
        let all = try CLI.run(base + ["--all", "--coverage-min", "100"], cwd: dir)
        XCTAssertEqual(all.code, 0, all.stdout + all.stderr)
        XCTAssertTrue(all.stdout.contains("4 of 4 operations (100.0%)"), all.stdout)
        XCTAssertTrue(all.stdout.contains("  exercised  DELETE /pets/{id}  by pets.deletePet  [204 seen, default not seen]"), all.stdout)
    }

    func testABadDescriptionOrThresholdIsRefusedBeforeAnythingIsSent() throws {
        let dir = try folder(["targets/s.yaml": "service: s\nbaseURL: http://127.0.0.1:9\ntargets:\n  a: { path: /a }\n"])
        let missing = try CLI.run(["check", "--coverage", "nope.yaml"], cwd: dir)
        XCTAssertEqual(missing.code, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("--coverage") && missing.stderr.contains("nope.yaml"), missing.stderr)
        XCTAssertFalse(missing.stdout.contains("FAIL"), missing.stdout)  // nothing was sent
        try "swagger: '2.0'\ninfo: { title: t, version: '1' }\npaths: {}\n".write(to: dir.appendingPathComponent("old.yaml"), atomically: true, encoding: .utf8)
        let swagger = try CLI.run(["check", "--coverage", "old.yaml"], cwd: dir)
        XCTAssertEqual(swagger.code, 2, swagger.stderr)
        XCTAssertTrue(swagger.stderr.contains("Swagger 2.0") && swagger.stderr.contains("import openapi"), swagger.stderr)
        let noSpec = try CLI.run(["check", "--coverage-min", "50"], cwd: dir)
        XCTAssertEqual(noSpec.code, 64, noSpec.stderr)
        XCTAssertTrue(noSpec.stderr.contains("--coverage-min needs --coverage SPEC"), noSpec.stderr)
        let tooMuch = try CLI.run(["check", "--coverage", Self.spec, "--coverage-min", "101"], cwd: dir)
        XCTAssertEqual(tooMuch.code, 64, tooMuch.stderr)
        XCTAssertTrue(tooMuch.stderr.contains("from 0 to 100"), tooMuch.stderr)
    }

    func testHowRequestsMatchOperationsAndStatusesMatchResponses() throws {
        // GIVEN a description with a server variable in the server's path, a template with text
        // around its parameter, a Path Item by $ref, `4XX` and `default`; and targets judged by
        // their samples (--stub: the request each would send, answered with the sample's status)
        let dir = try folder([
            "spec.yaml": """
                openapi: 3.1.0
                info: { title: t, version: "1" }
                servers: [{ url: "https://api.example.com/{ver}", variables: { ver: { default: v1 } } }]
                paths:
                  /files/{name}.json:
                    get:
                      responses: { "200": { description: ok }, "4XX": { description: client }, default: { description: other } }
                  /files/{name}:
                    $ref: "#/components/pathItems/File"
                  /never:
                    post: { responses: { "201": { description: created } } }
                components:
                  pathItems:
                    File:
                      delete: { responses: { "204": { description: gone }, "404": { description: missing } } }
                """,
            "targets/f.yaml": """
                service: f
                baseURL: http://127.0.0.1:9/v1
                targets:
                  json:
                    path: /files/{name}.json
                    params: { name: "a b" }
                    sample: { status: 200, json: {} }
                    samples: { gone: { status: 410 }, moved: { status: 301 } }
                  del: { path: "/files/{name}", method: DELETE, params: { name: x }, sample: { status: 404 } }
                  other: { path: /v2/files/x.json, sample: { status: 200 } }
                """,
        ])
        let r = try CLI.run(["check", "--stub", "--all", "--coverage", "spec.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        // 410 is a 4XX; 301 is neither 200 nor 4XX: default. /v1/v2/files/x.json is no operation's.
        XCTAssertTrue(r.stdout.contains("""
            coverage of spec.yaml: 2 of 3 operations (66.7%), 4 of 6 documented responses (66.7%)
              exercised  GET /files/{name}.json  by f.json  [200 seen, 4XX seen, default seen]
              exercised  DELETE /files/{name}  by f.del  [204 not seen, 404 seen]
              missing    POST /never  [201 not seen]

            """), r.stdout)
    }
}
