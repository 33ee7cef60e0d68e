import Foundation
import XCTest

/// `check --shard auto`, `--shard-timings`, `--rerun-failed` and `apicli report merge`.
final class CheckShardMergeTests: FolderTestCase {

    /// Every variable `--shard auto` reads, emptied, so that the CI running these tests (GitLab
    /// sets CI_NODE_INDEX in a parallel job) cannot leak into them.
    static let noEngine: [String: String] = Dictionary(uniqueKeysWithValues: [
        "CI_NODE_INDEX", "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB",
        "BUILDKITE_PARALLEL_JOB_COUNT", "JOB_COMPLETION_INDEX", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY",
    ].map { ($0, "") })

    /// The environment each engine gives shard `i` (1-based) of 4.
    static let engines: [(name: String, env: @Sendable (Int) -> [String: String])] = [
        ("GitLab", { ["CI_NODE_INDEX": "\($0)", "CI_NODE_TOTAL": "4"] }),
        ("CircleCI", { ["CIRCLE_NODE_INDEX": "\($0 - 1)", "CIRCLE_NODE_TOTAL": "4"] }),
        ("Buildkite", { ["BUILDKITE_PARALLEL_JOB": "\($0 - 1)", "BUILDKITE_PARALLEL_JOB_COUNT": "4"] }),
        ("Kubernetes Indexed Job", { ["JOB_COMPLETION_INDEX": "\($0 - 1)", "APICLI_SHARD_COUNT": "4"] }),
        ("APICLI_SHARD", { ["APICLI_SHARD": "\($0)/4"] }),
    ]

    /// Eleven live targets over two services: passes, failures of three kinds, a skip.
    private let live = [
        "alpha.yaml": """
            baseURL: http://127.0.0.1:9
            validate: success
            targets:
              get: { path: /get, expect: { status: 200, json: { "$.url": { exists: true } } } }
              uuid: { path: /uuid }
              missing: { path: /status/404 }
              teapot: { path: /status/418, expect: { status: 200 } }
              json: { path: /json, expect: { json: { "$.slideshow.author": Nobody } } }
              post: { path: /post, method: POST }
            """,
        "beta.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              headers: { path: /headers }
              html: { path: /html, expect: { headers: { Content-Type: "~html" } } }
              robots: { path: /robots.txt, expect: { body: { contains: Moya } } }
              ip: { path: /ip }
              created: { path: /status/201 }
            """,
    ]

    /// JUnit without what differs between runs: times.
    private func junitShape(_ url: URL) throws -> String {
        let xml = try String(contentsOf: url, encoding: .utf8)
        return xml.replacingOccurrences(of: "time=\"[0-9.]+\"", with: "time=\"T\"", options: .regularExpression)
            .replacingOccurrences(of: "[0-9]+ ms", with: "T ms", options: .regularExpression)
    }

    /// Each result without its times.
    private func resultShape(_ report: [String: Any]) -> [String] {
        CheckSupport.results(report).map { r in
            let messages = (r["messages"] as? [String] ?? []).joined(separator: "; ")
            return "\(r["name"] ?? "") \(r["outcome"] ?? "") \(r["status"] ?? "-") \(r["kind"] ?? "-") \(messages)"
        }
    }

    func testFourShardsOfEachEngineMergeIntoTheUnshardedRun() throws {
        // GIVEN a suite against the local httpbin, and its unsharded run
        let base = try CLI.httpbin()
        let dir = try folder(live)
        let out = try folder([:])
        let wholeJSON = out.appendingPathComponent("whole.json"), wholeXML = out.appendingPathComponent("whole.xml")
        let whole = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "--json", wholeJSON.path, "--junit", wholeXML.path],
                                env: Self.noEngine)
        XCTAssertEqual(whole.code, 1, whole.stderr)
        let wholeReport = try CheckSupport.report(wholeJSON)
        let everyName = CheckSupport.results(wholeReport).map { $0["name"] as? String ?? "" }
        XCTAssertEqual(everyName.count, 11)
        for engine in Self.engines {
            // WHEN four jobs run with that engine's variables, then their reports are merged
            var shardFiles: [String] = []
            var seen: [String] = []
            for i in 1...4 {
                let json = out.appendingPathComponent("\(engine.name)-\(i).json")
                let r = try CLI.run(["check", "--targets", dir.path, "--base-url", base, "--shard", "auto", "--json", json.path],
                                    env: Self.noEngine.merging(engine.env(i)) { _, new in new })
                XCTAssertTrue([0, 1].contains(r.code), "\(engine.name) \(i): \(r.stderr)")
                XCTAssertTrue(r.stderr.hasPrefix("shard \(i)/4 from \(engine.name)"), r.stderr)
                let report = try CheckSupport.report(json)
                XCTAssertEqual((report["shard"] as? [String: Any])?["index"] as? Int, i)
                seen += CheckSupport.results(report).map { $0["name"] as? String ?? "" }
                shardFiles.append(json.path)
            }
            // THEN every target ran exactly once
            XCTAssertEqual(seen.sorted(), everyName.sorted(), engine.name)
            let mergedJSON = out.appendingPathComponent("\(engine.name)-merged.json")
            let mergedXML = out.appendingPathComponent("\(engine.name)-merged.xml")
            let m = try CLI.run(["report", "merge"] + shardFiles.reversed() + ["--json", mergedJSON.path, "--junit", mergedXML.path],
                                env: Self.noEngine)
            // AND the merge has the unsharded run's exit code, totals, results (in order) and JUnit
            XCTAssertEqual(m.code, whole.code, m.stderr)
            XCTAssertEqual(m.stdout.split(separator: "\n").last, whole.stdout.split(separator: "\n").last)
            let merged = try CheckSupport.report(mergedJSON)
            XCTAssertEqual(merged["summary"] as? [String: Int], wholeReport["summary"] as? [String: Int])
            XCTAssertEqual(resultShape(merged), resultShape(wholeReport), engine.name)
            XCTAssertEqual((merged["suite"] as? [String: Any])?["digest"] as? String,
                           (wholeReport["suite"] as? [String: Any])?["digest"] as? String)
            XCTAssertEqual((merged["merged"] as? [String: Any])?["shards"] as? [Int], [1, 2, 3, 4])
            XCTAssertEqual(try junitShape(mergedXML), try junitShape(wholeXML), engine.name)
        }
    }

    func testMergeRefusesOtherSuitesOverlapsAndMissingShards() throws {
        // GIVEN shard reports of two different selections of one folder
        let dir = try folder(["s.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              a: { sample: { status: 200 } }
              b: { sample: { status: 200 } }
              c: { sample: { status: 200 } }
            """])
        func shard(_ spec: String, _ patterns: [String] = []) throws -> String {
            let json = dir.appendingPathComponent("r-\(spec.replacingOccurrences(of: "/", with: "of"))-\(patterns.count).json")
            let r = try CLI.run(["check", "--stub", "--targets", dir.path, "--shard", spec, "--json", json.path] + patterns,
                                env: Self.noEngine)
            XCTAssertEqual(r.code, 0, r.stderr)
            return json.path
        }
        let one = try shard("1/2"), two = try shard("2/2"), other = try shard("2/2", ["s.a", "s.b"])
        let ofThree = try shard("2/3")
        // WHEN merged wrongly THEN exit 2 and a line that says why
        let cases: [([String], String)] = [
            ([one, other], "\(other): error: belongs to another suite than \(one) "),
            ([one, one], "\(one): error: overlaps \(one): both hold shard 1/2"),
            ([one, ofThree], "\(ofThree): error: is a shard of 3, but \(one) is a shard of 2"),
            ([one], "error: shard 2/2 missing (--allow-missing merges what is there)"),
        ]
        for (files, message) in cases {
            let r = try CLI.run(["report", "merge"] + files, env: Self.noEngine)
            XCTAssertEqual(r.code, 2, "\(files)")
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(r.stderr) does not start with \(message)")
        }
        let partial = try CLI.run(["report", "merge", one, "--allow-missing"], env: Self.noEngine)
        XCTAssertEqual(partial.code, 0, partial.stderr)
        // AND the right set merges; under GitHub Actions its summary goes to the step summary
        let summary = dir.appendingPathComponent("summary.md")
        let good = try CLI.run(["report", "merge", two, one],
                               env: Self.noEngine.merging(["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path]) { _, n in n })
        XCTAssertEqual(good.stdout, "\n3 passed, 0 failed\n")
        XCTAssertEqual(try String(contentsOf: summary, encoding: .utf8),
                       "### apicli check: 3 passed, 0 failed\n\nMerged from shards 1, 2 of 2.\n\nEvery check passed.\n\n")
        let notAReport = dir.appendingPathComponent("s.yaml").path
        let bad = try CLI.run(["report", "merge", notAReport], env: Self.noEngine)
        XCTAssertEqual(bad.code, 2)
        XCTAssertTrue(bad.stderr.hasPrefix("\(notAReport): error: not a JSON report of apicli check"), bad.stderr)
    }

    func testShardAutoWithoutAnEngineIsExit2ListingTheVariables() throws {
        let r = try CLI.run(["check", "--stub", "--shard", "auto"], env: Self.noEngine)
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "error: --shard auto found no shard in the environment; it reads APICLI_SHARD, CI_NODE_INDEX, "
                       + "CI_NODE_TOTAL, CIRCLE_NODE_INDEX, CIRCLE_NODE_TOTAL, BUILDKITE_PARALLEL_JOB, BUILDKITE_PARALLEL_JOB_COUNT, "
                       + "JOB_COMPLETION_INDEX, APICLI_SHARD_COUNT\n")
    }

    /// Issue 16's "done when": 10,000 targets, four `--shard auto` jobs and `report merge` give the
    /// totals of one run. Offline (`--stub`), so it is fast.
    func testTenThousandTargetsSplitFourWaysMergeToTheTotalsOfOneRun() throws {
        // GIVEN 10 services of 1,000 targets: every 7th fails its expectation, every 13th has no sample
        var files: [String: String] = [:]
        for s in 0..<10 {
            var yaml = "baseURL: http://127.0.0.1:9\ntargets:\n"
            for t in 0..<1000 {
                let n = s * 1000 + t
                if n % 13 == 0 {
                    yaml += "  t\(t): { path: /t }\n"
                } else {
                    yaml += "  t\(t): { path: /t, expect: { status: \(n % 7 == 0 ? 201 : 200) }, sample: { status: 200 } }\n"
                }
            }
            files["svc\(s).yaml"] = yaml
        }
        let dir = try folder(files)
        let out = try folder([:])
        let wholeJSON = out.appendingPathComponent("whole.json")
        let whole = try CLI.run(["check", "--stub", "--targets", dir.path, "--jobs", "32", "--json", wholeJSON.path],
                                env: Self.noEngine, timeout: 120)
        XCTAssertEqual(whole.code, 1, whole.stderr)
        // WHEN four GitLab jobs run a shard each, and the reports are merged
        var shards: [String] = []
        for i in 1...4 {
            let json = out.appendingPathComponent("s\(i).json")
            let r = try CLI.run(["check", "--stub", "--targets", dir.path, "--jobs", "32", "--shard", "auto", "--json", json.path],
                                env: Self.noEngine.merging(["CI_NODE_INDEX": "\(i)", "CI_NODE_TOTAL": "4"]) { _, new in new },
                                timeout: 120)
            XCTAssertEqual(r.code, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("shard \(i)/4 from GitLab (CI_NODE_INDEX=\(i), CI_NODE_TOTAL=4): 2500 of 10000 targets"),
                          r.stderr)
            shards.append(json.path)
        }
        let mergedJSON = out.appendingPathComponent("merged.json")
        let m = try CLI.run(["report", "merge"] + shards + ["--json", mergedJSON.path], env: Self.noEngine, timeout: 120)
        // THEN the same totals (computed here, independently) and exit code as the one run
        let failing = (0..<10000).filter { $0 % 13 != 0 && $0 % 7 == 0 }.count
        let skipped = (0..<10000).filter { $0 % 13 == 0 }.count
        let totals = ["passed": 10000 - failing - skipped, "failed": failing, "skipped": skipped, "flaky": 0]
        XCTAssertEqual(m.code, whole.code)
        XCTAssertEqual(try CheckSupport.report(wholeJSON)["summary"] as? [String: Int], totals)
        let merged = try CheckSupport.report(mergedJSON)
        XCTAssertEqual(merged["summary"] as? [String: Int], totals)
        XCTAssertEqual(resultShape(merged), resultShape(try CheckSupport.report(wholeJSON)))
        XCTAssertEqual(m.stdout.split(separator: "\n").last, "\(totals["passed"]!) passed, \(failing) failed, \(skipped) skipped")
    }

    func testShardTimingsBalanceTheShardsByTime() throws {
        // GIVEN 8 targets and a timing report in which two take 10 s and six take 1 s
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"]
        let dir = try folder(["s.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n"
                              + names.map { "  \($0): { sample: { status: 200 } }\n" }.joined()])
        let slow: Set = ["a", "c"]  // by position both land in shard 1 of 2
        let results = names.map { n in
            "{\"name\":\"s.\(n)\",\"service\":\"s\",\"target\":\"\(n)\",\"sample\":null,\"outcome\":\"passed\",\"kind\":null,"
                + "\"status\":200,\"time\":\(slow.contains(n) ? 10 : 1),\"messages\":[],\"failedAsExpected\":false,\"skipReason\":null,"
                + "\"attempts\":[{\"status\":200,\"time\":\(slow.contains(n) ? 10 : 1),\"error\":null}]}"
        }
        let timings = dir.appendingPathComponent("timings.json")
        try Data(("{\"version\":1,\"summary\":{\"passed\":8,\"failed\":0,\"skipped\":0},\"results\":[" + results.joined(separator: ",") + "]}").utf8)
            .write(to: timings)
        func shard(_ i: Int, _ extra: [String]) throws -> [String] {
            let json = dir.appendingPathComponent("r\(i).json")
            let r = try CLI.run(["check", "--stub", "--targets", dir.path, "--shard", "\(i)/2", "--json", json.path] + extra,
                                env: Self.noEngine)
            XCTAssertEqual(r.code, 0, r.stderr)
            return CheckSupport.results(try CheckSupport.report(json)).map { $0["target"] as? String ?? "" }
        }
        // WHEN sharded by position, and by the timings
        XCTAssertEqual(try shard(1, []), ["a", "c", "e", "g"])
        // THEN each shard gets one slow target and three fast ones (13 s each, not 23 and 3)
        XCTAssertEqual(try shard(1, ["--shard-timings", timings.path]), ["a", "b", "e", "g"])
        XCTAssertEqual(try shard(2, ["--shard-timings", timings.path]), ["c", "d", "f", "h"])
    }

    func testRerunFailedRunsOnlyTheFailuresAndWhatFailFastLeftOut() throws {
        // GIVEN a run that failed at b, stopped by --fail-fast before c, d and e
        let dir = try folder(["s.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              a: { sample: { status: 200 } }
              b: { expect: { status: 201 }, sample: { status: 200 } }
              c: { sample: { status: 200 } }
              d: { sample: { status: 200 } }
              e: { expect: { status: 201 }, sample: { status: 200 } }
            """])
        let first = dir.appendingPathComponent("first.json")
        let r1 = try CLI.run(["check", "--stub", "--targets", dir.path, "--jobs", "1", "--fail-fast", "--json", first.path], env: Self.noEngine)
        XCTAssertEqual(r1.code, 1)
        // WHEN rerun from that report
        let r2 = try CLI.run(["check", "--stub", "--targets", dir.path, "--rerun-failed", first.path], env: Self.noEngine)
        // THEN only b and what never ran are checked
        XCTAssertEqual(r2.stderr, "rerun: 4 targets that failed in \(first.path)\n")
        XCTAssertEqual(CheckSupport.normalized(r2.stdout).split(separator: "\n").prefix(4), [
            "FAIL s.b 200 T ms status 200, expected 201", "PASS s.c 200 T ms", "PASS s.d 200 T ms",
            "FAIL s.e 200 T ms status 200, expected 201",
        ])
        XCTAssertEqual(r2.code, 1)
        // AND a report in which nothing failed reruns nothing, successfully
        let clean = dir.appendingPathComponent("clean.json")
        _ = try CLI.run(["check", "--stub", "--targets", dir.path, "s.a", "--json", clean.path], env: Self.noEngine)
        let r3 = try CLI.run(["check", "--stub", "--targets", dir.path, "--rerun-failed", clean.path], env: Self.noEngine)
        XCTAssertEqual(r3.code, 0)
        XCTAssertEqual(r3.stdout, "\n0 passed, 0 failed\n")
        XCTAssertEqual(r3.stderr, "rerun: nothing failed in \(clean.path)\n")
    }
}
