import APISupport
import APITransport
import APIVerdict
import APISend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a target is declared: its file (as the catalog names it) and line.
package struct SourceLocation: Sendable, Equatable {
    package var file: String
    package var line: Int

    package init(file: String, line: Int) {
        self.file = file
        self.line = line
    }
}

/// Under GitHub Actions (`GITHUB_ACTIONS=true`): workflow-command annotations at each failed
/// target's line, and the Markdown appended to `$GITHUB_STEP_SUMMARY`.
package enum GitHubReport {
    /// One `::error file=…,line=…,title=…::message` per failed check and one `::warning …` per
    /// flaky one. Files under `workspace` (`GITHUB_WORKSPACE`) are named relative to it, as GitHub
    /// expects; a check without a known location is annotated without a file.
    package static func annotations(_ results: [CheckResult], locations: [String: SourceLocation], workspace: String?) -> String {
        var out = ""
        for r in results where r.outcome == .failed || r.flaky {
            let level = r.outcome == .failed ? "error" : "warning"
            var properties: [String] = []
            if let at = locations[r.service + "." + r.target] {
                properties.append("file=" + property(relative(at.file, to: workspace)))
                properties.append("line=\(at.line)")
            }
            properties.append("title=" + property(r.name + (r.outcome == .failed ? " failed" : " is flaky")))
            let message = r.outcome == .failed
                ? r.messages.joined(separator: "\n")
                : "passed after \(r.attempts.count) attempts: " + r.attempts.dropLast().map(attemptText).joined(separator: ", ")
            out += "::\(level) \(properties.joined(separator: ","))::\(data(message.isEmpty ? "failed" : message))\n"
        }
        return out
    }

    /// The step summary: the totals, the shard, then a table of every failed and flaky check
    /// (at most `limit` rows; the rest are counted).
    package static func summary(_ results: [CheckResult], run: RunInfo?, coverage: Coverage? = nil, limit: Int = 200) -> String {
        let s = CheckSummary(results)
        var md = "### apicli check: \(s.line)\n\n"
        if let c = coverage {
            let missing = c.operations.filter { !$0.exercised }.map { "`\($0.method) \($0.path)`" }
            md += "Coverage of \(cell(c.spec)): \(c.exercised) of \(c.operations.count) operations (\(Coverage.percentText(c.percent))), "
                + "\(c.responsesSeen) of \(c.responses) documented responses (\(Coverage.percentText(c.responsePercent)))"
                + (missing.isEmpty ? ".\n\n" : "; not exercised: " + missing.prefix(limit).joined(separator: ", ") + (missing.count > limit ? ", …" : "") + ".\n\n")
        }
        if let shard = run?.shard {
            md += "Shard \(shard.index)/\(shard.count) (\(cell(shard.source))) of a suite of \(run!.suite.targets) targets.\n\n"
        } else if let merged = run?.merged {
            md += "Merged from shards \(merged.shards.map(String.init).joined(separator: ", ")) of \(merged.count).\n\n"
        }
        let notable = results.filter { $0.outcome == .failed || $0.flaky }
        guard !notable.isEmpty else { return md + (s.failed == 0 ? "Every check passed.\n\n" : "") }
        md += "| result | check | status | time | failed expectations |\n| --- | --- | --- | --- | --- |\n"
        for r in notable.prefix(limit) {
            let verdict = r.outcome == .failed ? "❌ failed" : "⚠️ flaky"
            let status = r.status.map(String.init) ?? "—"
            let time = r.duration.map(Text.milliseconds) ?? "—"
            let why = r.outcome == .failed ? r.messages.map(cell).joined(separator: "<br>")
                : "passed after " + r.attempts.dropLast().map { cell(attemptText($0)) }.joined(separator: ", ")
            md += "| \(verdict) | \(cell(r.name)) | \(status) | \(time) | \(why) |\n"
        }
        if notable.count > limit { md += "\n… and \(notable.count - limit) more (see the JUnit or HTML report).\n" }
        return md + "\n"
    }

    static func attemptText(_ a: CheckResult.Attempt) -> String {
        a.status.map { "status \($0)" } ?? a.error ?? "no response"
    }

    /// `file` relative to the workspace when it is inside it (an absolute path, or `./x`), as is otherwise.
    static func relative(_ file: String, to workspace: String?) -> String {
        var path = file
        while path.hasPrefix("./") { path.removeFirst(2) }
        guard let workspace, !workspace.isEmpty else { return path }
        let root = workspace.hasSuffix("/") ? workspace : workspace + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// Workflow-command escaping (as @actions/core does): the message…
    static func data(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// …and a property value, where `:` and `,` are separators too.
    static func property(_ s: String) -> String {
        data(s).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }

    /// A Markdown table cell: no HTML, no pipes, no line breaks, no emphasis or code by accident.
    static func cell(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "|": out += "\\|"
            case "\n", "\r": out += " "
            case "\\", "`", "*", "_", "[", "]", "~": out += "\\" + String(c)
            default: out.append(c)
            }
        }
        return out
    }
}
