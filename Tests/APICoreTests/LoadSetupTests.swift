import Foundation
import XCTest
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APISend
@testable import APILoad

/// `LoadSetup`: what `apicli load` runs, decided from the files and what the command asked.
final class LoadSetupTests: TemporaryFolderTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("apicli.yaml", """
            load: { thresholds: { p99: 500ms } }
            environments: { staging: { baseURL: "https://staging.example.com" } }
            """)
        try write("s.yaml", """
            baseURL: http://127.0.0.1:9
            environments: { prod: { baseURL: "https://api.example.com" } }
            targets:
              fast: { path: /fast, load: { weight: 3 } }
              slow: { path: /slow, load: { thresholds: { errors: 0% } } }
              login: { path: /login, method: POST }
              me: { path: /me, needs: [login] }
            """)
        try write("other.yaml", """
            baseURL: https://elsewhere.example.org
            targets:
              ping: { path: /ping }
              local: { path: "http://localhost:8080/x" }
            """)
    }

    private func setup(_ request: LoadSetup.Request, variables: [String: String] = [:]) throws -> LoadSetup {
        let workspace = try Workspace(Workspace.Options(directory: dir.path), process: variables)
        return try LoadSetup(workspace, request)
    }

    private func threshold(_ text: String) throws -> LoadThreshold { try LoadThreshold.parse(text, source: "test").get() }

    func testWeightsFromTheFilesUnlessTheRequestSetsThem() throws {
        let files = try setup(.init(patterns: ["s.fast", "s.slow"]))
        XCTAssertEqual(files.plan.items.map(\.weight), [3, 1])
        let asked = try setup(.init(patterns: ["s.fast", "s.slow"], weights: ["s.fast": 1, "s.slow": 5]))
        XCTAssertEqual(asked.plan.items.map(\.weight), [1, 5])
        XCTAssertNil(asked.problem)
    }

    func testThresholdsAreTheProjectsTheTargetsThenTheRequests() throws {
        let mine = try threshold("s.fast:p95<200ms")
        let setup = try setup(.init(patterns: ["s.fast", "s.slow"], thresholds: [mine]))
        XCTAssertEqual(setup.thresholds.map(\.target), [nil, "s.slow", "s.fast"])
        XCTAssertEqual(setup.thresholds.map(\.metric), [.p99, .errors, .p95])
        XCTAssertEqual(setup.thresholds.last, mine)
    }

    func testAWeightOrThresholdForATargetNotSelectedStopsTheRun() throws {
        XCTAssertEqual(try setup(.init(patterns: ["s.fast"], weights: ["s.slow": 2])).problem, .weight("s.slow"))
        XCTAssertEqual(try setup(.init(patterns: ["s.fast"], thresholds: [try threshold("s.me:p95<1s")])).problem, .threshold("s.me"))
        // both: the threshold's is told
        XCTAssertEqual(try setup(.init(patterns: ["s.fast"], weights: ["s.slow": 2], thresholds: [try threshold("s.me:p95<1s")])).problem,
                       .threshold("s.me"))
    }

    func testWithoutADurationOrACountARunLastsTheRampOrTenSeconds() throws {
        XCTAssertEqual(try setup(.init(patterns: ["s.fast"])).plan.duration, 10)
        XCTAssertNil(try setup(.init(patterns: ["s.fast"], requests: 5)).plan.duration)
        XCTAssertEqual(try setup(.init(patterns: ["s.fast"], duration: 3)).plan.duration, 3)
        let ramp = try RateSchedule.parseRamp("0:10/s 2s, 10:20/s 3s").get()
        XCTAssertEqual(try setup(.init(patterns: ["s.fast"], model: .open(ramp, maxInFlight: 10))).plan.duration, 5)
        XCTAssertEqual(try setup(.init(patterns: ["s.fast"], model: .open(RateSchedule(constant: 5), maxInFlight: 10))).plan.duration, 10)
    }

    func testForeignHostsAreThoseOutsideLoopbackAndTheFilesBaseURLs() throws {
        // the files' own hosts (a service's, an environment's, the project's) and loopback are not foreign
        XCTAssertEqual(try setup(.init(patterns: ["s", "other"])).foreignHosts, [])
        // a base URL from the environment that no file names is, once, for the target and what it needs
        let moved = try setup(.init(patterns: ["s.me", "s.fast"]), variables: ["APICLI_BASE_URL_S": "https://Evil.example.net"])
        XCTAssertEqual(moved.foreignHosts, ["evil.example.net"])
        XCTAssertTrue(LoadSetup.isLoopback("localhost"))
        XCTAssertTrue(LoadSetup.isLoopback("api.localhost"))
        XCTAssertTrue(LoadSetup.isLoopback("127.1.2.3"))
        XCTAssertTrue(LoadSetup.isLoopback("[::1]"))
        XCTAssertFalse(LoadSetup.isLoopback("localhost.example.com"))
        XCTAssertFalse(LoadSetup.isLoopback("10.0.0.1"))
    }

    func testAbortOnFailStopsAtTheFirstFailingThresholdOnceARequestCameBack() throws {
        let setup = try setup(.init(patterns: ["s.fast"], requests: 100))
        let workspace = Workspace(variables: [:])
        let runner = LoadRunner(plan: setup.plan, start: 0, template: LoadResult()) { Caller(workspace: workspace, mode: .stub) }
        let thresholds = [try threshold("p95<1s"), try threshold("errors<10%")]
        runner.stopIfFailing(thresholds, requests: 0)
        XCTAssertNil(runner.stopReason)
        runner.recorder.record("s.fast", due: 0, end: 0.01, error: nil, bytes: 1)
        runner.stopIfFailing(thresholds, requests: 1)
        XCTAssertNil(runner.stopReason, "both hold")
        runner.recorder.record("s.fast", due: 0.1, end: 0.11, error: "503", bytes: 1)
        runner.stopIfFailing(thresholds, requests: 2)
        XCTAssertEqual(runner.stopReason, "threshold failed (--abort-on-fail): errors < 10.00%, measured 50.00%")
        runner.stopIfFailing([], requests: 2)  // the first reason stays
        XCTAssertEqual(runner.stopReason, "threshold failed (--abort-on-fail): errors < 10.00%, measured 50.00%")
    }
}
