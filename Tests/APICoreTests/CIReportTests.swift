@testable import APITargets
import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APICheck
@testable import APIImport

final class CIReportTests: XCTestCase {
    private func result(_ name: String, _ outcome: CheckResult.Outcome, attempts: [Int?] = [200], flaky: Bool = false,
                        messages: [String] = []) -> CheckResult {
        let parts = name.split(separator: ".")
        var r = CheckResult(name: name, service: String(parts[0]), target: String(parts[1]), outcome: outcome,
                            kind: outcome == .failed ? .expectation : nil, messages: messages,
                            attempts: attempts.map { .init(status: $0, duration: 0.25, error: $0 == nil ? "network error: reset" : nil) },
                            skipReason: outcome == .skipped ? "check: false" : nil)
        r.flaky = flaky
        return r
    }

    func testTheJSONReportReadsBackAsWritten() throws {
        // GIVEN results of shard 2 of 3 of a suite
        var results = [result("a.x", .passed, attempts: [503, nil, 200], flaky: true),
                       result("a.y", .failed, messages: ["status 404, expected 200", "\"quoted\" ü\n"]),
                       result("b.z", .skipped, attempts: [])]
        let run = RunInfo(selected: ["a.w", "a.x", "a.y", "b.z"], stub: false, all: false,
                          shard: Shard(index: 2, count: 3, source: "GitLab (CI_NODE_INDEX=2, CI_NODE_TOTAL=3)"))
        results[1].request = CheckResult.Request(method: "GET", url: "http://h/x?q=1", headers: [HeaderField("Authorization", "••••")],
                                                 timeout: 2.5)
        results[1].kind = .network
        results[1].networkFailure = "refused"
        // WHEN written and read back
        let loaded = try JSONReportReader.read(Data(JSONReport.render(results, run: run).utf8), file: "r.json")
        // THEN every field survives, and the positions are those in the whole selection
        XCTAssertEqual(loaded.results, results)
        XCTAssertEqual(loaded.run?.suite, run.suite)
        XCTAssertEqual(loaded.run?.shard, run.shard)
        XCTAssertEqual(loaded.positions, [1, 2, 3])
        XCTAssertEqual(loaded.failedTargets, ["a.y"])
        XCTAssertEqual(LoadedReport.timings([loaded]), ["a.x": 0.75, "a.y": 0.25])
    }

    func testMergeRestoresDeclarationOrderAcrossShards() throws {
        let names = ["s.d", "s.c", "s.b", "s.a"]  // declared in this order: not sorted
        func shard(_ i: Int) throws -> LoadedReport {
            let shardOf = ShardAssignment.assign(names, count: 2)
            let mine = names.filter { shardOf[$0] == i }.map { result($0, .passed) }
            let run = RunInfo(selected: names, stub: true, all: false, shard: Shard(index: i, count: 2, source: "--shard"))
            return try JSONReportReader.read(Data(JSONReport.render(mine, run: run).utf8), file: "r\(i).json")
        }
        let merged = try ReportMerge.merge([try shard(2), try shard(1)])
        XCTAssertEqual(merged.results.map(\.name), names)
        XCTAssertEqual(merged.run.merged?.shards, [1, 2])
        XCTAssertEqual(merged.run.suite, SuiteIdentity(names: names, stub: true, all: false))
    }

    func testShardsDealtOutDifferentlyDoNotMergeAsComplete() throws {
        // GIVEN shard 1 of 2 dealt by a timing file, shard 2 of 2 by position
        let names = ["s.a", "s.b", "s.c", "s.d"]
        func shard(_ i: Int, _ timings: [String: Double]?) throws -> LoadedReport {
            let shardOf = ShardAssignment.assign(names, count: 2, timings: timings)
            let mine = names.filter { shardOf[$0] == i }.map { result($0, .passed) }
            let run = RunInfo(selected: names, stub: false, all: false, shard: Shard(index: i, count: 2, source: "--shard"))
            return try JSONReportReader.read(Data(JSONReport.render(mine, run: run).utf8), file: "r\(i).json")
        }
        let one = try shard(1, ["s.a": 10, "s.b": 1, "s.c": 1, "s.d": 1])  // a alone: b, c, d fill shard 2
        let two = try shard(2, nil)  // b, d
        // WHEN merged THEN refused: c is in neither
        let error = expectAPIError { () throws(APIError) in try ReportMerge.merge([one, two]) }
        XCTAssertEqual(error.map { diagnostics(of: $0).map(\.message) }, [
            "the shards hold 3 of the suite's 4 targets: were they dealt out differently (other --shard-timings files)? "
                + "(--allow-missing merges what is there)",
        ])
    }

    func testGitHubWorkflowCommandEscaping() {
        let r = result("a.y", .failed, messages: ["50% of a\r\nb", "c"])
        let text = GitHubReport.annotations([r, result("a.ok", .passed)],
                                            locations: ["a.y": SourceLocation(file: "/w/targets/a,b:c.yaml", line: 7)], workspace: "/w")
        XCTAssertEqual(text, "::error file=targets/a%2Cb%3Ac.yaml,line=7,title=a.y failed::50%25 of a%0D%0Ab%0Ac\n")
    }

    func testHTMLEscapesEverything() {
        XCTAssertEqual(Markup.html("<a href='x'>\"&\u{1}"), "&lt;a href=&#39;x&#39;&gt;&quot;&amp;\u{FFFD}")
        let page = HTMLReport.render([result("a.y", .failed, messages: ["</script><script>alert(1)</script>"])], run: nil)
        XCTAssertEqual(page.components(separatedBy: "<script>").count, 2, "one script: the page's own")
        XCTAssertTrue(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    }
}
