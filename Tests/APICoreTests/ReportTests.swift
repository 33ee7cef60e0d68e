import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APICheck

final class ReportTests: XCTestCase {
    private let results = [
        CheckResult(name: "gh.zen", service: "gh", target: "zen", outcome: .passed,
                    attempts: [.init(status: 503, duration: 0.01, error: nil), .init(status: 200, duration: 0.0124, error: nil)]),
        CheckResult(name: "gh.user[gone]", service: "gh", target: "user", sample: "gone", outcome: .failed, kind: .expectation,
                    messages: ["status 404, expected <2xx> & \"ok\"", "body does not contain \"x\""],
                    attempts: [.init(status: 404, duration: 0.002, error: nil)]),
        CheckResult(name: "hb.down", service: "hb", target: "down", outcome: .failed, kind: .network,
                    messages: ["network error: refused"], attempts: [.init(status: nil, duration: 0.001, error: "network error: refused")]),
        CheckResult(name: "hb.post", service: "hb", target: "post", outcome: .skipped, skipReason: "check: false"),
    ]

    func testTextLinesAndSummary() {
        XCTAssertEqual(results.map { TextReport.line($0, nameWidth: 13) }.joined(), """
            PASS  gh.zen         200     12 ms  (2 attempts)
            FAIL  gh.user[gone]  404      2 ms  status 404, expected <2xx> & "ok"
            FAIL  hb.down        ---      1 ms  network error: refused
            SKIP  hb.post        check: false

            """)
        XCTAssertEqual(TextReport.summary(results), """

            failures:
              gh.user[gone]
                - status 404, expected <2xx> & "ok"
                - body does not contain "x"
              hb.down
                - network error: refused

            1 passed, 2 failed, 1 skipped

            """)
        XCTAssertEqual(TextReport.summary([results[0]]), "\n1 passed, 0 failed\n")
    }

    func testJUnitOneSuitePerServiceOneCasePerCheck() {
        XCTAssertEqual(JUnitReport.render(results), """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="apicli check" tests="4" failures="2" errors="0" time="0.015">
              <testsuite name="gh" tests="2" failures="1" errors="0" skipped="0" time="0.014">
                <testcase name="zen" classname="gh" time="0.012">
                  <system-out>status 200, time 12 ms, attempts 2&#10;attempt 1: status 503, 10 ms&#10;attempt 2: status 200, 12 ms&#10;</system-out>
                </testcase>
                <testcase name="user[gone]" classname="gh" time="0.002">
                  <failure message="status 404, expected &lt;2xx&gt; &amp; &quot;ok&quot;" type="expectation">status 404, expected &lt;2xx&gt; &amp; &quot;ok&quot;&#10;body does not contain &quot;x&quot;</failure>
                  <system-out>status 404, time 2 ms, attempts 1&#10;attempt 1: status 404, 2 ms&#10;</system-out>
                </testcase>
              </testsuite>
              <testsuite name="hb" tests="2" failures="1" errors="0" skipped="1" time="0.001">
                <testcase name="down" classname="hb" time="0.001">
                  <failure message="network error: refused" type="network">network error: refused</failure>
                  <system-out>status none, time 1 ms, attempts 1&#10;attempt 1: network error: refused, 1 ms&#10;</system-out>
                </testcase>
                <testcase name="post" classname="hb" time="0.000">
                  <skipped message="check: false"/>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    func testJUnitEscapesControlCharacters() {
        XCTAssertEqual(Markup.xml("a\u{1}b\tc\n"), "a\u{FFFD}b\tc&#10;")
    }

    func testJSONSchema() {
        XCTAssertEqual(JSONReport.render([results[1], results[3]]), """
            {"version":1,"summary":{"passed":0,"failed":1,"skipped":1,"flaky":0},"results":[\
            {"name":"gh.user[gone]","service":"gh","target":"user","sample":"gone","outcome":"failed","kind":"expectation","networkFailure":null,\
            "status":404,"time":0.002,"messages":["status 404, expected <2xx> & \\"ok\\"","body does not contain \\"x\\""],\
            "failedAsExpected":false,"skipReason":null,"request":null,"attempts":[{"status":404,"time":0.002,"error":null}],"flaky":false,"position":null},\
            {"name":"hb.post","service":"hb","target":"post","sample":null,"outcome":"skipped","kind":null,"networkFailure":null,"status":null,\
            "time":null,"messages":[],"failedAsExpected":false,"skipReason":"check: false","request":null,"attempts":[],"flaky":false,"position":null}]}

            """)
    }
}
