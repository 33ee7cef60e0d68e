import Foundation
import XCTest

/// Issue 34 item 3 end to end: a pattern that backtracks without end (`^(a+)+$` over "aaaa…a!")
/// is stopped at the regex work limit and said so, promptly, and nothing keeps a core busy after
/// the answer: `mock --validate` answers 400 naming the limit and stays idle and responsive;
/// `matches:` fails naming the limit.
final class RegexLimitCLITests: XCTestCase {
    private var mock: MockProcess?

    override func tearDown() { mock?.stop() }

    /// CPU seconds process `pid` has used (/proc/PID/stat: utime + stime, in clock ticks).
    private func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks
    }

    func testMockValidateAnswersARunawayPatternPromptlyAndStaysIdle() throws {
        let dir = try CLI.folder([
            // One operation whose request body's `name` has the runaway pattern (JSON is YAML).
            "targets/contracts/openapi.yaml": #"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/names": {"post": {"#
                + #""operationId": "createName", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "#
                + #""properties": {"name": {"type": "string", "pattern": "^(a+)+$"}}}}}}, "responses": {"201": {"description": "made"}}}}}}"#,
            "targets/names.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  create:
                    method: POST
                    path: /names
                    expect:
                      schema: { openapi: contracts/openapi.yaml, operation: createName }
                    sample: { status: 201, headers: { Content-Type: application/json }, json: {} }
                  hello:
                    path: /hello
                    sample: { status: 200, body: hi }
                """,
        ])
        let m = try MockProcess(["--targets", dir.appendingPathComponent("targets").path, "--validate"])
        mock = m
        let evil = #"{"name":""# + String(repeating: "a", count: 40) + #"!"}"#
        for _ in 0..<4 {
            let start = Date()
            let r = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", evil, m.url + "/names"])
            XCTAssertLessThan(Date().timeIntervalSince(start), 3, "the answer came late")
            XCTAssertEqual(r.status, 400, r.body)
            XCTAssertTrue(r.body.contains("exceeded the regex work limit"), r.body)
            XCTAssertTrue(r.body.contains("^(a+)+$"), r.body)
        }
        let good = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"name":"aaa"}"#, m.url + "/names"])
        XCTAssertEqual(good.status, 201, good.body)
        let pid = m.process.processIdentifier
        let cpu = cpuSeconds(pid)
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertLessThan(cpuSeconds(pid) - cpu, 0.3, "a runaway match kept running in the mock after its answer")
        let start = Date()
        let hello = try Curl.run([m.url + "/hello"])
        XCTAssertEqual(hello.status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    func testMatchesFailsNamingTheLimit() throws {
        let body = String(repeating: "a", count: 40) + "!"
        let dir = try CLI.folder(["targets/api.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              greedy:
                path: /x
                expect:
                  body: { matches: "^(a+)+$" }
                sample: { status: 200, body: "\(body)" }
            """])
        let start = Date()
        let r = try CLI.run(["check", "--stub"], cwd: dir, timeout: 20)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("/^(a+)+$/ exceeded the regex work limit"), r.stdout)
    }
}
