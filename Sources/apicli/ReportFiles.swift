import APICore
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
    func write(_ results: [CheckResult], run: RunInfo, _ console: Console) throws {
        try Self.write(JUnitReport.render(results), to: junit, console)
        try Self.write(JSONReport.render(results, run: run), to: json, console)
        try Self.write(HTMLReport.render(results, run: run), to: html, console)
        let environment = ProcessInfo.processInfo.environment
        if environment["GITHUB_ACTIONS"] == "true", let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            do {
                try OutputFile.append(Data(GitHubReport.summary(results, run: run).utf8), to: path)
            } catch {
                throw console.fail(error, target: nil)
            }
        }
    }
}
