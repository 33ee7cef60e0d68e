import APISupport
import APIDiagnostics
import APITransport
import APICheck
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The report files a run writes (check, and `report merge` of check or load reports), each
/// through the one atomic write; a failure to write is the run's error, rendered by its console.
struct ReportFiles {
    var junit: String?
    var json: String?
    var html: String?

    /// `text` into `path` when one was asked for.
    static func write(_ text: @autoclosure () -> String, to path: String?, _ console: Console) throws {
        guard let path else { return }
        do {
            try OutputFile.write(Data(text().utf8), to: path)
        } catch {
            throw console.fail(error, target: nil)
        }
    }

    /// A check run's JUnit, JSON and HTML reports, and GitHub Actions' step summary when it runs there.
    /// `run` is made only when a report needs it.
    func write(_ results: [CheckResult], run make: @autoclosure () -> RunInfo, coverage: Coverage? = nil, _ console: Console) throws {
        let environment = ProcessEnvironment.all()
        let summary = environment["GITHUB_ACTIONS"] == "true" ? environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 } : nil
        guard junit != nil || json != nil || html != nil || summary != nil else { return }
        let run = make()
        try Self.write(JUnitReport.render(results), to: junit, console)
        try Self.write(JSONReport.render(results, run: run, coverage: coverage), to: json, console)
        try Self.write(HTMLReport.render(results, run: run, coverage: coverage), to: html, console)
        if let path = summary {
            do {
                try OutputFile.append(Data(GitHubReport.summary(results, run: run, coverage: coverage).utf8), to: path)
            } catch {
                throw console.fail(error, target: nil)
            }
        }
    }
}
