import Foundation
import XCTest
@testable import APIDiagnostics
@testable import APITargets
@testable import APICheck

/// `CheckScope.narrow`: what `check --rerun-failed`, `--shard` and `--shard-timings` keep of the
/// selection, and what the run's reports and notes say.
final class CheckScopeTests: TemporaryFolderTestCase {
    private func selection() throws -> [(Service, Target)] {
        let service = try decodeService("""
            service: s
            baseURL: http://127.0.0.1
            targets:
              a: { path: /a }
              b: { path: /b }
              c: { path: /c, needs: [b] }
              d: { path: /d }
            """)
        return service.targets.map { (service, $0) }
    }

    /// A JSON report of a run where `failed` failed and the others of `names` passed, `seconds` each.
    private func report(_ name: String, _ names: [String], failed: Set<String> = [], seconds: [String: Double] = [:]) throws -> String {
        let results = names.map { full -> CheckResult in
            let parts = full.split(separator: ".").map(String.init)
            return CheckResult(name: full, service: parts[0], target: parts[1], outcome: failed.contains(full) ? .failed : .passed,
                               kind: failed.contains(full) ? .expectation : nil, messages: [],
                               attempts: [.init(status: 200, duration: seconds[full] ?? 0.1, error: nil)], skipReason: nil)
        }
        return try write(name, JSONReport.render(results, run: RunInfo(selected: names, stub: false, all: false, shard: nil)))
    }

    private func names(_ selected: [(Service, Target)]) -> [String] { selected.map(\.1.qualifiedName) }

    func testNothingAskedKeepsTheSelection() throws {
        let (kept, scope) = try CheckScope.narrow(try selection(), .init(), environment: [:])
        XCTAssertEqual(names(kept), ["s.a", "s.b", "s.c", "s.d"])
        XCTAssertNil(scope.shard)
        XCTAssertEqual(scope.notes, [])
        XCTAssertEqual(scope.run, RunInfo(selected: ["s.a", "s.b", "s.c", "s.d"], stub: false, all: false, shard: nil))
    }

    func testARerunKeepsTheFailuresOfTheReport() throws {
        let file = try report("r.json", ["s.a", "s.b", "s.c", "s.d", "t.gone"], failed: ["s.b", "s.d", "t.gone"])
        let (kept, scope) = try CheckScope.narrow(try selection(), .init(rerunFailed: file), environment: [:])
        XCTAssertEqual(names(kept), ["s.b", "s.d"])
        XCTAssertEqual(scope.rerun, .init(file: file, failed: 3, kept: 2))
        XCTAssertEqual(scope.notes, ["rerun: 2 targets that failed in \(file)"])
        // the suite the reports name is what the rerun runs
        XCTAssertEqual(scope.run.suite, SuiteIdentity(names: ["s.b", "s.d"], stub: false, all: false))

        let clean = try report("clean.json", ["s.a"])
        let (none, quiet) = try CheckScope.narrow(try selection(), .init(rerunFailed: clean), environment: [:])
        XCTAssertEqual(names(none), [])
        XCTAssertEqual(quiet.notes, ["rerun: nothing failed in \(clean)"])
    }

    func testAnUnreadableRerunReportIsAnError() throws {
        let missing = dir.appendingPathComponent("missing.json").path
        let error = expectAPIError { () throws(APIError) in
            _ = try CheckScope.narrow(try! self.selection(), .init(rerunFailed: missing), environment: [:])
        }
        XCTAssertEqual(error?.kind, .invalid)
    }

    func testShardsPartitionTheSelectionAndKeepANeedWithItsTarget() throws {
        var seen: [String] = []
        for i in 1...2 {
            let (kept, scope) = try CheckScope.narrow(try selection(), .init(shard: Shard.Request("\(i)/2")), environment: [:])
            seen += names(kept)
            XCTAssertEqual(scope.shard, Shard(index: i, count: 2, source: "--shard"))
            XCTAssertEqual(scope.notes, ["shard \(i)/2 from --shard: \(kept.count) of 4 targets"])
            // c needs b: the two are in one shard
            XCTAssertEqual(names(kept).contains("s.b"), names(kept).contains("s.c"))
            // the suite is the whole selection, the shard this one
            XCTAssertEqual(scope.run.suite, SuiteIdentity(names: ["s.a", "s.b", "s.c", "s.d"], stub: false, all: false))
        }
        XCTAssertEqual(seen.sorted(), ["s.a", "s.b", "s.c", "s.d"])
    }

    func testAutoReadsTheEnvironmentAndTimingsBalance() throws {
        // a took 10 s, the others 1 s: a alone in one shard, the rest in the other
        let timings = try report("t.json", ["s.a", "s.b", "s.c", "s.d"], seconds: ["s.a": 10, "s.b": 1, "s.c": 1, "s.d": 1])
        let request = CheckScope.Request(shard: .auto, shardTimings: [timings], stub: true)
        let (one, scope) = try CheckScope.narrow(try selection(), request, environment: ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"])
        let (two, _) = try CheckScope.narrow(try selection(), request, environment: ["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"])
        XCTAssertEqual(Set([names(one), names(two)]), [["s.a"], ["s.b", "s.c", "s.d"]])
        XCTAssertEqual(scope.shard?.source, "GitLab (CI_NODE_INDEX=1, CI_NODE_TOTAL=2)")
        XCTAssertEqual(scope.dealt?.balanced, true)
        XCTAssertTrue(scope.notes[0].hasSuffix(", balanced by time"), scope.notes[0])
        XCTAssertEqual(scope.run.suite, SuiteIdentity(names: ["s.a", "s.b", "s.c", "s.d"], stub: true, all: false))
        // auto without an engine: the engine's error
        let error = expectAPIError { () throws(APIError) in
            _ = try CheckScope.narrow(try! self.selection(), .init(shard: .auto), environment: [:])
        }
        XCTAssertEqual(error?.kind, .invalid)
    }
}
