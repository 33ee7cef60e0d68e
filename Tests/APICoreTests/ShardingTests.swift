@testable import APITargets
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APICheck

final class ShardingTests: XCTestCase {
    // MARK: --shard (check and load)

    func testAShardRequestIsIOfNOrAuto() throws {
        XCTAssertEqual(Shard.Request("2/4"), .fixed(Shard(index: 2, count: 4, source: "--shard")))
        XCTAssertEqual(Shard.Request("auto"), .auto)
        for bad in ["", "0/4", "5/4", "2/0", "2", "2/4/6", "a/b", "Auto", " 2/4"] { XCTAssertNil(Shard.Request(bad), bad) }
        XCTAssertEqual(try Shard.Request("2/4")!.resolve(["APICLI_SHARD": "1/2"]), Shard(index: 2, count: 4, source: "--shard"))
        XCTAssertEqual(try Shard.Request("auto")!.resolve(["APICLI_SHARD": "1/2"]), Shard(index: 1, count: 2, source: "APICLI_SHARD"))
        XCTAssertNotNil(expectAPIError { () throws(APIError) in try Shard.Request.auto.resolve([:]) })
    }

    // MARK: --shard auto

    func testEachEngineNamesItsShardOneBased() throws {
        let cases: [([String: String], Int, Int, String)] = [
            (["APICLI_SHARD": "3/4"], 3, 4, "APICLI_SHARD"),
            (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], 1, 4, "GitLab (CI_NODE_INDEX=1, CI_NODE_TOTAL=4)"),
            (["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "4"], 1, 4, "CircleCI (CIRCLE_NODE_INDEX=0, CIRCLE_NODE_TOTAL=4)"),
            (["BUILDKITE_PARALLEL_JOB": "3", "BUILDKITE_PARALLEL_JOB_COUNT": "4"], 4, 4,
             "Buildkite (BUILDKITE_PARALLEL_JOB=3, BUILDKITE_PARALLEL_JOB_COUNT=4)"),
            (["JOB_COMPLETION_INDEX": "2", "APICLI_SHARD_COUNT": "4"], 3, 4,
             "Kubernetes Indexed Job (JOB_COMPLETION_INDEX=2, APICLI_SHARD_COUNT=4)"),
            // APICLI_SHARD wins over an engine's own variables
            (["APICLI_SHARD": "2/2", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], 2, 2, "APICLI_SHARD"),
        ]
        for (environment, index, count, source) in cases {
            XCTAssertEqual(try ShardEngine.detect(environment), Shard(index: index, count: count, source: source), "\(environment)")
        }
    }

    func testNoEngineListsEveryVariableItReads() {
        let error = expectAPIError { () throws(APIError) in try ShardEngine.detect(["PATH": "/bin", "CI_NODE_TOTAL": "4"]) }
        XCTAssertEqual(error.map { diagnostics(of: $0).map(\.message) }, [
            "--shard auto found no shard in the environment; it reads APICLI_SHARD, CI_NODE_INDEX, CI_NODE_TOTAL, "
                + "CIRCLE_NODE_INDEX, CIRCLE_NODE_TOTAL, BUILDKITE_PARALLEL_JOB, BUILDKITE_PARALLEL_JOB_COUNT, "
                + "JOB_COMPLETION_INDEX, APICLI_SHARD_COUNT",
        ])
    }

    func testUnusableNumbersAreErrorsNotFallThrough() {
        let cases: [([String: String], String)] = [
            (["APICLI_SHARD": "5/4"], "APICLI_SHARD is '5/4'; it takes i/n with 1 ≤ i ≤ n, like 2/4"),
            (["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4"],
             "GitLab: CI_NODE_INDEX=0 and CI_NODE_TOTAL=4 do not name a shard (the index counts from 1, the count must be at least 1)"),
            (["JOB_COMPLETION_INDEX": "1"],
             "Kubernetes Indexed Job: JOB_COMPLETION_INDEX=1 and APICLI_SHARD_COUNT=(unset) do not name a shard "
                + "(the index counts from 0, the count must be at least 1)"),
            (["CIRCLE_NODE_INDEX": "4", "CIRCLE_NODE_TOTAL": "4"],
             "CircleCI: CIRCLE_NODE_INDEX=4 and CIRCLE_NODE_TOTAL=4 do not name a shard (the index counts from 0, the count must be at least 1)"),
        ]
        for (environment, message) in cases {
            let error = expectAPIError { () throws(APIError) in try ShardEngine.detect(environment) }
            XCTAssertEqual(error.map { diagnostics(of: $0).map(\.message) }, [message])
        }
    }

    // MARK: assignment

    /// Without timings, shard i holds the names at sorted positions i-1, i-1+n, …: disjoint, every
    /// name once, the same whatever order the names come in.
    func testWithoutTimingsTheSortedPositionsDecide() {
        let names = (0..<23).map { "s\($0 % 3).t\($0)" }
        let sorted = names.sorted()
        for n in [1, 4, 10, 30] {
            let shardOf = ShardAssignment.assign(names, count: n)
            let reversed = ShardAssignment.assign(names.reversed(), count: n)
            XCTAssertEqual(shardOf, reversed, "n=\(n)")
            for i in 1...n {
                let expected = Set(stride(from: i - 1, to: sorted.count, by: n).map { sorted[$0] })
                XCTAssertEqual(Set(shardOf.filter { $0.value == i }.keys), expected, "n=\(n) shard \(i)")
            }
        }
    }

    /// GIVEN 200 targets whose times are very uneven (a few take 20–40 s, most well under one)
    /// WHEN dealt onto 4 shards by position, and by time
    /// THEN by position the slowest shard is far above the mean, by time within 10 % of it
    func testBalancedShardsOnUnevenTimes() {
        var timings: [String: Double] = [:]
        var seed: UInt64 = 42
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let names = (0..<200).map { String(format: "svc.t%03d", $0) }
        for (i, name) in names.enumerated() {
            timings[name] = i % 4 == 0 && i < 40 ? 20 + 20 * random() : 0.05 + 0.9 * random()
        }
        func loads(_ shardOf: [String: Int]) -> [Double] {
            (1...4).map { s in shardOf.filter { $0.value == s }.keys.reduce(0) { $0 + timings[$1]! } }
        }
        let mean = timings.values.reduce(0, +) / 4
        let byPosition = loads(ShardAssignment.assign(names, count: 4))
        XCTAssertGreaterThan(byPosition.max()!, mean * 1.5, "the synthetic suite is not uneven enough to show anything")
        let balanced = ShardAssignment.assign(names, count: 4, timings: timings)
        XCTAssertEqual(balanced.count, 200)
        XCTAssertLessThanOrEqual(loads(balanced).max()!, mean * 1.10, "\(loads(balanced)) vs mean \(mean)")
        // deterministic: the same inputs, in another order, give the same assignment
        XCTAssertEqual(ShardAssignment.assign(names.reversed(), count: 4, timings: timings), balanced)
    }

    func testUnknownTargetsGoByPositionAndTheLongestKnownOnesFillTheLightestShards() {
        let timings = ["a.big": 10.0, "a.mid": 6, "a.small": 4]
        let shardOf = ShardAssignment.assign(["a.big", "a.mid", "a.small", "b.new1", "b.new2"], count: 2, timings: timings)
        // unknowns first, by position, each weighing the mean (6.67): new1 → 1, new2 → 2;
        // then big → 1 (tie, lowest), mid → 2, small → 2 (12.67 vs 16.67)
        XCTAssertEqual(shardOf, ["b.new1": 1, "b.new2": 2, "a.big": 1, "a.mid": 2, "a.small": 2])
    }

    func testTargetsThatGoTogetherShareAShardWithAndWithoutTimings() {
        // GIVEN a flow (login → profile → logout) and another pair, among other targets
        let names = (0..<20).map { String(format: "s.t%02d", $0) } + ["s.login", "s.profile", "s.logout", "s.a", "s.b"]
        let together = [["s.login", "s.profile"], ["s.profile", "s.logout"], ["s.a", "s.b", "s.gone"]]
        var timings = Dictionary(uniqueKeysWithValues: names.map { ($0, 1.0) })
        timings["s.profile"] = 8
        for t in [nil, timings] {
            // WHEN dealt onto 4 shards
            let shardOf = ShardAssignment.assign(names, count: 4, timings: t, together: together)
            // THEN each group is in one shard, and every name in some shard
            XCTAssertEqual(Set(["s.login", "s.profile", "s.logout"].map { shardOf[$0] }).count, 1, "\(String(describing: t))")
            XCTAssertEqual(shardOf["s.a"], shardOf["s.b"])
            XCTAssertEqual(Set(shardOf.keys), Set(names))
        }
        // AND without groups the assignment is the plain one
        XCTAssertEqual(ShardAssignment.assign(names, count: 4, timings: timings, together: []),
                       ShardAssignment.assign(names, count: 4, timings: timings))
    }

    // MARK: suite identity

    func testSuiteIdentityIgnoresOrderButNotTargetsOrMode() {
        let a = SuiteIdentity(names: ["x.a", "x.b"], stub: false, all: false)
        XCTAssertEqual(a, SuiteIdentity(names: ["x.b", "x.a"], stub: false, all: false))
        XCTAssertEqual(a.digest.count, 16)
        XCTAssertNotEqual(a, SuiteIdentity(names: ["x.a", "x.c"], stub: false, all: false))
        XCTAssertNotEqual(a.digest, SuiteIdentity(names: ["x.a", "x.b"], stub: true, all: false).digest)
        XCTAssertNotEqual(a.digest, SuiteIdentity(names: ["x.a", "x.b"], stub: false, all: true).digest)
    }
}
