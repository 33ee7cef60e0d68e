import Foundation
import XCTest

/// `apicli check --stub`, `--shard` and target-file errors: offline, no server anywhere.
final class CheckStubTests: FolderTestCase {

    func testShippedTargetsPassOfflineWithAnUnreachableBaseURL() throws {
        // GIVEN the shipped targets and a base URL nothing answers on
        // WHEN every sample is judged offline
        let r = try CLI.run(["check", "--stub", "--jobs", "32"],
                            env: ["APICLI_BASE_URL_GITHUB": "http://127.0.0.1:9", "APICLI_BASE_URL_HTTPBIN": "http://127.0.0.1:9"])
        // THEN every sample passes, the failure samples as expected
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        let lines = CheckSupport.normalized(r.stdout).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.filter { $0.hasPrefix("PASS github.userProfile") }, [
            "PASS github.userProfile 200 T ms",
            "PASS github.userProfile[notFound] 404 T ms failed as expected: status 404, expected 200",
            "PASS github.userProfile[offline] --- T ms failed as expected: network error: The Internet connection appears to be offline.",
            "PASS github.userProfile[slow] 200 T ms",
        ])
        XCTAssertEqual(lines.suffix(2), ["18 passed, 0 failed", ""])
    }

    func testTenThousandChecksGrowTheirHeapsInLargeSteps() throws {
        // Transparent huge pages given when asked (`madvise`) or always: else nothing to check.
        let setting = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        try XCTSkipUnless(setting.contains("[madvise]") || setting.contains("[always]"), "no transparent huge pages: \(setting)")
        // GIVEN 10,000 targets with samples (the bench's check suite, judged offline)
        var yaml = "baseURL: http://127.0.0.1:9\ntargets:\n"
        for i in 0..<10_000 {
            yaml += "  t\(i): { path: /hello, task: { query: { i: \(i) } }, expect: { status: 200, json: { \"$.hello\": world } }, "
                + "sample: { status: 200, json: { hello: world } } }\n"
        }
        let dir = try folder(["suite.yaml": yaml])
        // WHEN checked
        var before = rusage(), after = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &before)
        let r = try CLI.run(["check", "--stub", "--targets", dir.path, "--jobs", "16"], timeout: 300)
        getrusage(RUSAGE_CHILDREN.rawValue, &after)
        // THEN every check passes, its memory faulted in 2 MiB at a time in every thread that builds
        // requests or judges them (about 5,000 in a debug build; 20,000 a 4 KiB page at a time)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("10000 passed, 0 failed\n"), String(r.stdout.suffix(200)))
        XCTAssertLessThan(after.ru_minflt - before.ru_minflt, 10_000, "page faults of `check`")
    }

    func testStubFailuresAndUnexpectedPasses() throws {
        let dir = try folder(["s.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              t:
                method: POST
                expect: { status: 200, json: { "$.id": { ">": 0 } } }
                sample: { json: { id: 0 } }
                samples:
                  good: { json: { id: 7 } }
                  alsoGood: { json: { id: 1 }, expectFailure: true }
              bare: { path: /x }
            """])
        let json = dir.appendingPathComponent("r.json")
        let r = try CLI.run(["check", "--stub", "--targets", dir.path, "--json", json.path])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(CheckSupport.normalized(r.stdout), """
            FAIL s.t 200 T ms $.id is 0, expected > 0
            PASS s.t[good] 200 T ms
            FAIL s.t[alsoGood] 200 T ms expectFailure: true, but the sample passed its expectations
            SKIP s.bare no sample to judge

            failures:
             s.t
             - $.id is 0, expected > 0
             s.t[alsoGood]
             - expectFailure: true, but the sample passed its expectations

            1 passed, 2 failed, 1 skipped

            """)
        let results = CheckSupport.results(try CheckSupport.report(json))
        XCTAssertEqual(results.map { $0["sample"] as? String }, [nil, "good", "alsoGood", nil])
    }

    func testShardsAreDisjointAndCoverEveryTarget() throws {
        // GIVEN the shipped targets split three ways
        var seen: [[String]] = []
        for i in 1...3 {
            let dir = try folder([:])
            let json = dir.appendingPathComponent("r.json")
            let r = try CLI.run(["check", "--stub", "--shard", "\(i)/3", "--json", json.path])
            XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
            seen.append(Set(CheckSupport.results(try CheckSupport.report(json)).compactMap {
                guard let s = $0["service"] as? String, let t = $0["target"] as? String else { return nil }
                return "\(s).\(t)"
            }).sorted())
        }
        // THEN every target is in exactly one shard
        let all = try CLI.run(["list", "--json"])
        let names = (try JSONSerialization.jsonObject(with: all.stdoutData) as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertEqual(names.count, 12)
        XCTAssertEqual(seen.flatMap { $0 }.sorted(), names.sorted())
        XCTAssertEqual(seen.map(\.count), [4, 4, 4])
    }

    func testBadShardAndUnknownPattern() throws {
        let bad = try CLI.run(["check", "--shard", "4/3"])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains("--shard takes i/n with 1 ≤ i ≤ n, like 2/4, or auto, got '4/3'"), bad.stderr)
        let unknown = try CLI.run(["check", "--stub", "githb", "httpbin.stat*"])
        XCTAssertEqual(unknown.code, 2)
        XCTAssertEqual(unknown.stderr, "error: 'githb' matches no target\n    hint: did you mean 'github'?\n")
    }

    func testTargetFileErrorsAndUnresolvableTargetsExit2() throws {
        let broken = try folder(["b.yaml": "baseURL: http://x\ntargets:\n  t: { pth: /x }\n"])
        let r = try CLI.run(["check", "--targets", broken.path])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, """
            \(broken.path)/b.yaml:3:8: error: unknown key 'pth' in target 't'
              3 |   t: { pth: /x }
                |        ^
                hint: did you mean 'path'?

            """)
        let unresolved = try folder(["u.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  t: { path: \"/${APICLI_TEST_NOPE}\" }\n"])
        let u = try CLI.run(["check", "--targets", unresolved.path])
        XCTAssertEqual(u.code, 2, u.stdout)
        XCTAssertEqual(CheckSupport.normalized(u.stdout).split(separator: "\n").first.map(String.init),
                       "FAIL u.t --- - \(unresolved.path)/u.yaml:3:14: environment variable APICLI_TEST_NOPE is not set (used in the path of u.t)")
        XCTAssertEqual(u.stderr.split(separator: "\n").prefix(3), [
            "\(unresolved.path)/u.yaml:3:14: error: environment variable APICLI_TEST_NOPE is not set (used in the path of u.t)",
            "  3 |   t: { path: \"/${APICLI_TEST_NOPE}\" }",
            "    |              ^",
        ])
    }

    func testFailFastSkipsWhatDidNotStart() throws {
        let dir = try folder(["f.yaml": """
            baseURL: http://127.0.0.1:9
            validate: success
            targets:
              a: { sample: { status: 200 } }
              b: { sample: { status: 500 } }
              c: { sample: { status: 200 } }
            """])
        let r = try CLI.run(["check", "--stub", "--fail-fast", "--jobs", "1", "--targets", dir.path])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(CheckSupport.normalized(r.stdout), """
            PASS f.a 200 T ms
            FAIL f.b 500 T ms status 500 is not accepted by validate: success (200-299)
            SKIP f.c not run: --fail-fast stopped at the first failure

            failures:
             f.b
             - status 500 is not accepted by validate: success (200-299)

            1 passed, 1 failed, 1 skipped

            """)
    }

    func testAReportThatCannotBeWrittenIsExit5() throws {
        let r = try CLI.run(["check", "--stub", "github.zen", "--json", "/nonexistent-apicli-dir/r.json"])
        XCTAssertEqual(r.code, 5)
        XCTAssertTrue(r.stderr.hasPrefix("apicli: cannot write /nonexistent-apicli-dir/r.json: "), r.stderr)
    }
}
