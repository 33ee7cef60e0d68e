import APISupport
import APITargets
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--junit FILE`: JUnit XML as Jenkins and GitLab read it (Tests/junit-10.xsd). One `testsuite`
/// per service, one `testcase` per check; a failure's message is its first failed expectation and
/// its text all of them; `system-out` has the status, time and every attempt.
package enum JUnitReport {
    package static func render(_ results: [CheckResult]) -> String {
        var services: [String] = []
        for r in results where !services.contains(r.service) { services.append(r.service) }
        let all = CheckSummary(results)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"apicli check\" tests=\"\(results.count)\" failures=\"\(all.failed)\" errors=\"0\" "
            + "time=\"\(seconds(total(results)))\">\n"
        for service in services {
            let mine = results.filter { $0.service == service }
            let s = CheckSummary(mine)
            xml += "  <testsuite name=\"\(escape(service))\" tests=\"\(mine.count)\" failures=\"\(s.failed)\" errors=\"0\" "
                + "skipped=\"\(s.skipped)\" time=\"\(seconds(total(mine)))\">\n"
            xml += mine.map(testcase).joined()
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func testcase(_ r: CheckResult) -> String {
        let caseName = r.target + (r.sample.map { "[\($0)]" } ?? "")
        var xml = "    <testcase name=\"\(escape(caseName))\" classname=\"\(escape(r.service))\" "
            + "time=\"\(seconds(r.duration ?? 0))\">\n"
        switch r.outcome {
        case .skipped:
            xml += "      <skipped message=\"\(escape(r.skipReason ?? ""))\"/>\n"
        case .failed:
            xml += "      <failure message=\"\(escape(r.messages.first ?? "failed"))\" type=\"\(r.kind?.rawValue ?? "expectation")\">"
                + escape(r.messages.joined(separator: "\n")) + "</failure>\n"
        case .passed:
            if r.flaky { xml += flakyFailures(r) }
        }
        if !r.attempts.isEmpty || r.failedAsExpected {
            xml += "      <system-out>" + escape(systemOut(r)) + "</system-out>\n"
        }
        return xml + "    </testcase>\n"
    }

    /// A check that passed on a retry: one `<flakyFailure>` per failed attempt, as Maven Surefire
    /// writes a test that passed on a rerun (Jenkins and GitLab read it; the test counts as passed).
    static func flakyFailures(_ r: CheckResult) -> String {
        r.attempts.dropLast().enumerated().map { i, a in
            let what = a.status.map { "status \($0)" } ?? a.error ?? "no response"
            let type = a.status == nil ? "network" : "status"
            return "      <flakyFailure message=\"\(escape("attempt \(i + 1): \(what)"))\" type=\"\(type)\">"
                + "<stackTrace>" + escape("attempt \(i + 1) of \(r.attempts.count): \(what), \(Text.milliseconds(a.duration))")
                + "</stackTrace></flakyFailure>\n"
        }.joined()
    }

    static func systemOut(_ r: CheckResult) -> String {
        var lines = ["status \(r.status.map(String.init) ?? "none"), time \(Text.milliseconds(r.duration ?? 0)), "
                     + "attempts \(r.attempts.count)"]
        for (i, a) in r.attempts.enumerated() {
            lines.append("attempt \(i + 1): " + (a.status.map { "status \($0)" } ?? a.error ?? "no response")
                         + ", \(Text.milliseconds(a.duration))")
        }
        if r.failedAsExpected { lines += r.messages.map { "failed as expected: \($0)" } }
        lines += (r.drift ?? []).map { "drift: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func total(_ results: [CheckResult]) -> Double {
        results.reduce(0) { $0 + ($1.duration ?? 0) }
    }

    private static func seconds(_ s: Double) -> String { Text.fixed(s, 3) }

    private static func escape(_ s: String) -> String { Markup.xml(s) }
}
