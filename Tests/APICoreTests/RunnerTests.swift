import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APIVerdict
@testable import APISend
@testable import APICheck
@testable import APIImport

/// A transport that answers from a script: per URL path, a list of answers used in turn.
private final class ScriptedTransport: Transport, @unchecked Sendable {
    enum Answer { case status(Int, delay: Double, headers: [HeaderField]), fail(APIError) }
    private let lock = NSLock()
    private var script: [String: [Answer]]
    private(set) var finished: [String] = []
    private(set) var sent: [String] = []

    init(_ script: [String: [Answer]]) { self.script = script }

    nonisolated(nonsending) func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        let path = request.url.path
        let answer: Answer = lock.withLock {
            sent.append(path)
            let list = script[path] ?? [.status(200, delay: 0, headers: [])]
            if list.count > 1 { script[path] = Array(list.dropFirst()) }
            return list[0]
        }
        switch answer {
        case .fail(let e):
            lock.withLock { finished.append(path) }
            throw e
        case let .status(code, delay, headers):
            if delay > 0 { try? await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
            lock.withLock { finished.append(path) }
            return Response(status: code, headers: headers, body: Data(), duration: delay)
        }
    }

    func didFinish(_ path: String) -> Bool { lock.withLock { finished.contains(path) } }
    var sentPaths: [String] { lock.withLock { sent } }
}

final class RunnerTests: XCTestCase {
    /// An item that GETs http://127.0.0.1:9/NAME, accepted by `validate: success`.
    private func item(_ name: String) -> CheckItem {
        let service = try! decodeService("""
            baseURL: http://127.0.0.1:9
            validate: success
            targets:
              \(name): { path: /\(name), timeout: 5 }
            """, defaultName: "s")
        let call = try! Workspace(variables: [:]).build(service.targets[0], in: service)
        return CheckItem(name: "s.\(name)", service: "s", target: name, sample: nil,
                         work: .send(call, answer: nil, expectFailure: false))
    }

    /// A runner whose caller sends through `transport`, with `retries`.
    private func runner(_ transport: any Transport, jobs: Int = 8, retries: Int = 0, backoff: Double = 0.5,
                        failFast: Bool = false, mode: Caller.Mode = .live) -> CheckRunner {
        CheckRunner(options: .init(jobs: jobs, failFast: failFast),
                    caller: Caller(workspace: Workspace(variables: [:]), mode: mode,
                                   policy: SendPolicy(retries: retries, backoff: backoff), transport: transport))
    }

    func testItemsMadeAsTheRunGoesAreMadeOnceAndAllBeforeTheFirstResultIsEmitted() async {
        // GIVEN 200 items made on demand, counting how often each is made
        let names = (0..<200).map { "t\($0)" }
        let template = item("t")
        let made = Locked([Int](repeating: 0, count: names.count))
        let items = CheckItems(names: names.map { "s.\($0)" }) { i in
            made.withLock { $0[i] += 1 }
            var item = template
            item.name = "s.\(names[i])"
            return item
        }
        // WHEN they run on 8 workers (the planning task making them too)
        var emitted: [Int] = []
        var madeWhenPlanned: [Int]?
        var emittedWhenPlanned: Int?
        let results = await runner(ScriptedTransport([:]), jobs: 8).run(items, planned: {
            madeWhenPlanned = made.current
            emittedWhenPlanned = emitted.count
        }, emit: { i, _ in emitted.append(i) })
        // THEN each item was made exactly once, all of them before `planned`, which came before any result
        XCTAssertEqual(made.current, [Int](repeating: 1, count: names.count))
        XCTAssertEqual(madeWhenPlanned, [Int](repeating: 1, count: names.count))
        XCTAssertEqual(emittedWhenPlanned, 0)
        // AND every result came, in order, named as its item
        XCTAssertEqual(emitted, Array(0..<names.count))
        XCTAssertEqual(results.map(\.name), names.map { "s.\($0)" })
        XCTAssertEqual(Set(results.map(\.outcome)), [.passed])
    }

    func testResultsStreamInOrderAsSoonAsTheirPredecessorsAreDone() async {
        // GIVEN a fast first item and a slow second one
        let transport = ScriptedTransport(["/slow": [.status(200, delay: 0.5, headers: [])]])
        let runner = runner(transport, jobs: 4)
        var order: [Int] = []
        var slowDoneWhenFirstEmitted: Bool?
        // WHEN they run
        let results = await runner.run([item("fast"), item("slow"), item("third")]) { i, _ in
            if i == 0 { slowDoneWhenFirstEmitted = transport.didFinish("/slow") }
            order.append(i)
        }
        // THEN results come in declaration order, the first before the slow one finished
        XCTAssertEqual(order, [0, 1, 2])
        XCTAssertEqual(slowDoneWhenFirstEmitted, false)
        XCTAssertEqual(results.map(\.outcome), [.passed, .passed, .passed])
    }

    func testJobsBoundsTheRequestsInFlight() async {
        // GIVEN jobs 1 WHEN three items run THEN they are sent one after the other, in order
        let transport = ScriptedTransport([:])
        let runner = runner(transport, jobs: 1)
        _ = await runner.run([item("a"), item("b"), item("c")]) { _, _ in }
        XCTAssertEqual(transport.sentPaths, ["/a", "/b", "/c"])
    }

    func testRetriesNetworkFailuresAnd5xxButNot4xx() async {
        let transport = ScriptedTransport([
            "/flaky": [.status(503, delay: 0, headers: [HeaderField("Retry-After", "0")]), .fail(.network(.reset(host: "h"))), .status(200, delay: 0, headers: [])],
            "/missing": [.status(404, delay: 0, headers: [])],
            "/down": [.status(500, delay: 0, headers: [])],
        ])
        let runner = runner(transport, retries: 2, backoff: 0.01)
        let results = await runner.run([item("flaky"), item("missing"), item("down")]) { _, _ in }
        XCTAssertEqual(results[0].attempts.map(\.status), [503, nil, 200])
        XCTAssertEqual(results[0].attempts.map(\.error), [nil, "network error: the connection to h was lost", nil])
        XCTAssertEqual(results[0].outcome, .passed)
        XCTAssertEqual(results[1].attempts.count, 1)
        XCTAssertEqual(results[1].messages, ["status 404 is not accepted by validate: success (200-299)"])
        XCTAssertEqual(results[2].attempts.map(\.status), [500, 500, 500])
        XCTAssertEqual(results[2].kind, .expectation)
    }

    func testTimeoutsAreNotRetriedAndKeepTheirKind() async {
        let transport = ScriptedTransport(["/t": [.fail(.timedOut(0.5))], "/n": [.fail(.network(.refused(host: "h")))]])
        let runner = runner(transport, retries: 3, backoff: 0)
        let results = await runner.run([item("t"), item("n")]) { _, _ in }
        XCTAssertEqual(results.map(\.kind), [.timeout, .network])
        XCTAssertEqual(results.map(\.attempts.count), [1, 4])
        XCTAssertEqual(results[0].messages, ["timed out after 500 ms"])
    }

    func testFailFastStartsNothingAfterTheFirstFailure() async {
        let transport = ScriptedTransport(["/bad": [.status(500, delay: 0, headers: [])]])
        let runner = runner(transport, jobs: 1, failFast: true)
        let results = await runner.run([item("ok"), item("bad"), item("never")]) { _, _ in }
        XCTAssertEqual(results.map(\.outcome), [.passed, .failed, .skipped])
        XCTAssertEqual(results[2].skipReason, "not run: --fail-fast stopped at the first failure")
        XCTAssertEqual(transport.sentPaths, ["/ok", "/bad"])
    }

    func testExpectFailureSamplesPassWhenTheyFail() async throws {
        let service = try decodeService("""
            baseURL: http://127.0.0.1:9
            validate: success
            targets:
              t:
                sample: { status: 200 }
                samples:
                  gone: { status: 404, expectFailure: true }
                  wrong: { status: 200, expectFailure: true }
            """)
        let stubbed = runner(ScriptedTransport([:]), mode: .stub)
        let planner = CheckPlanner(caller: stubbed.caller, includeAll: false)
        let items = planner.items(for: service.targets.map { (service, $0) })
        let results = await stubbed.run(items) { _, _ in }
        XCTAssertEqual(results.map(\.name), ["demo.t", "demo.t[gone]", "demo.t[wrong]"])
        XCTAssertEqual(results.map(\.outcome), [.passed, .passed, .failed])
        XCTAssertEqual(results[1].failedAsExpected, true)
        XCTAssertEqual(results[2].messages, ["expectFailure: true, but the sample passed its expectations"])
    }

    func testUnsafeMethodsAndCheckFalseAreSkippedUnlessAll() throws {
        let service = try decodeService("""
            baseURL: http://127.0.0.1:9
            targets:
              get: { path: /a }
              off: { path: /b, check: false }
              post: { path: /c, method: POST }
              postOn: { path: /d, method: POST, check: true }
            """)
        let pairs = service.targets.map { (service, $0) }
        func reasons(all: Bool) -> [String?] {
            CheckPlanner(caller: Caller(workspace: Workspace(variables: [:])), includeAll: all).items(for: pairs).map {
                if case .skip(let r) = $0.work { return r }
                return nil
            }
        }
        XCTAssertEqual(reasons(all: false), [nil, "check: false (name it or pass --all to send it)", "POST runs only when named, with check: true, or with --all", nil])
        XCTAssertEqual(reasons(all: true), [nil, nil, nil, nil])
    }

    func testATargetThatIsCheckedAndNeededIsSentOnceWhicheverComesFirst() async throws {
        // GIVEN create, checked itself and needed by a target listed before it and one after it
        let service = try decodeService("""
            baseURL: http://127.0.0.1:9
            validate: success
            targets:
              before: { path: /before, needs: [create] }
              create: { path: /create, method: POST, check: true, capture: { id: { header: X-Id } } }
              after: { path: "/after/{id}", needs: [create] }
            """)
        let find: @Sendable (String) throws(APIError) -> (Service, Target) = { name throws(APIError) in
            guard let t = service.targets.first(where: { $0.qualifiedName == name }) else { throw .output("no \(name)") }
            return (service, t)
        }
        for jobs in [1, 4] {
            // AND a create that answers 503, then 201 after a while
            let transport = ScriptedTransport([
                "/create": [.status(503, delay: 0, headers: [HeaderField("Retry-After", "0")]),
                            .status(201, delay: 0.05, headers: [HeaderField("X-Id", "7")])],
            ])
            let caller = Caller(workspace: Workspace(variables: [:]), mode: .live, policy: SendPolicy(retries: 1, backoff: 0.01),
                                plugins: { _ in [] }, transport: transport, find: find)
            let runner = CheckRunner(options: .init(jobs: jobs), caller: caller)
            let planner = CheckPlanner(caller: caller, includeAll: false)
            // WHEN the three are checked
            let results = await runner.run(planner.items(for: service.targets.map { (service, $0) })) { _, _ in }
            // THEN create is one request sequence (the 503 and its retry), its item reports both and is flaky,
            // and both dependents captured from its final response
            XCTAssertEqual(transport.sentPaths.filter { $0 == "/create" }.count, 2, "jobs \(jobs): \(transport.sentPaths)")
            XCTAssertEqual(results.map(\.outcome), [.passed, .passed, .passed], "jobs \(jobs): \(results.map(\.messages))")
            XCTAssertEqual(results[1].attempts.map(\.status), [503, 201])
            XCTAssertEqual(results.map(\.flaky), [false, true, false])
            XCTAssertEqual(results[2].request?.url, "http://127.0.0.1:9/after/7")
        }
    }

    func testRetryAfterSecondsOrHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        XCTAssertEqual(SendPolicy.retryAfter(" 3 ", now: now), 3)
        XCTAssertEqual(SendPolicy.retryAfter("Tue, 14 Nov 2023 22:13:25 GMT", now: now), 5)
        XCTAssertEqual(SendPolicy.retryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now), 0)
        XCTAssertNil(SendPolicy.retryAfter("soon", now: now))
        XCTAssertNil(SendPolicy.retryAfter("-1", now: now))
    }
}
