import APISupport
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--report-html FILE`: one self-contained page — no external script, style, font or image, and
/// a Content-Security-Policy that forbids loading any — with one row per check (its failed
/// expectations listed) and buttons that filter the rows by status. The filter is an inline
/// script; without it (a CSP that blocks inline code) every row still shows. `#failed`, `#flaky`,
/// `#passed`, `#skipped` in the address pick the filter on load.
package enum HTMLReport {
    package static func render(_ results: [CheckResult], run: RunInfo?, title: String = "apicli check", coverage: Coverage? = nil) -> String {
        let s = CheckSummary(results)
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)): \(escape(s.line))</title>
            <style>\(style)</style>
            </head><body>
            <h1>\(escape(title))</h1>
            <p id="summary">\(escape(s.line))\(escape(scope(run)))</p>
            <div id="filters">
            """
        for (key, label, n) in [("all", "All", results.count), ("failed", "Failed", s.failed), ("flaky", "Flaky", s.flaky),
                                ("passed", "Passed", s.passed), ("skipped", "Skipped", s.skipped)] {
            html += "<button type=\"button\" data-filter=\"\(key)\">\(label) (\(n))</button>"
        }
        html += "</div>\n<p id=\"showing\"></p>\n"
        html += "<table id=\"checks\"><thead><tr><th>result</th><th>check</th><th>status</th><th>time</th><th>attempts</th>"
            + "<th>details</th></tr></thead><tbody>\n"
        for r in results { html += row(r) }
        html += "</tbody></table>\n"
        if let coverage { html += self.coverage(coverage) }
        html += "<script>\(script)</script>\n</body></html>\n"
        return html
    }

    /// `check --coverage`: a table of the description's operations after the checks.
    private static func coverage(_ c: Coverage) -> String {
        var html = "<h2 id=\"coverage\">Coverage of \(escape(c.spec))</h2>\n<p id=\"coverage-summary\">"
            + "\(c.exercised) of \(c.operations.count) operations exercised (\(Coverage.percentText(c.percent))), "
            + "\(c.responsesSeen) of \(c.responses) documented responses seen (\(Coverage.percentText(c.responsePercent)))</p>\n"
            + "<table id=\"operations\"><thead><tr><th>operation</th><th>exercised by</th><th>responses</th></tr></thead><tbody>\n"
        for op in c.operations {
            let state = op.exercised ? "passed" : "failed"
            let responses = op.responses.map { "<span class=\"\($0.seen ? "seen" : "unseen")\">\(escape($0.status))</span>" }.joined(separator: " ")
            html += "<tr class=\"operation\" data-exercised=\"\(op.exercised)\"><td class=\"verdict \(state)\">\(escape(op.method)) \(escape(op.path))</td>"
                + "<td>\(op.targets.isEmpty ? "—" : escape(op.targets.joined(separator: ", ")))</td><td>\(responses)</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    private static func scope(_ run: RunInfo?) -> String {
        if let shard = run?.shard { return " — shard \(shard.index)/\(shard.count) of \(run!.suite.targets) targets" }
        if let m = run?.merged { return " — merged from shards \(m.shards.map(String.init).joined(separator: ", ")) of \(m.count)" }
        return ""
    }

    private static func row(_ r: CheckResult) -> String {
        let state = r.outcome == .passed && r.flaky ? "flaky" : r.outcome.rawValue
        let label = state == "flaky" ? "FLAKY" : r.outcome == .passed ? "PASS" : r.outcome == .failed ? "FAIL" : "SKIP"
        var details: [String] = []
        switch r.outcome {
        case .failed: details = r.messages
        case .skipped: details = r.skipReason.map { [$0] } ?? []
        case .passed:
            if r.failedAsExpected { details = r.messages.map { "failed as expected: \($0)" } }
            if r.flaky { details += r.attempts.dropLast().enumerated().map { "attempt \($0 + 1): \(GitHubReport.attemptText($1))" } }
        }
        let list = details.isEmpty ? "" : "<ul>" + details.map { "<li>\(escape($0))</li>" }.joined() + "</ul>"
        return "<tr class=\"check\" data-status=\"\(state)\"><td class=\"verdict \(state)\">\(label)</td>"
            + "<td>\(escape(r.name))</td><td>\(r.status.map(String.init) ?? "—")</td>"
            + "<td>\(r.duration.map(Text.milliseconds) ?? "—")</td><td>\(r.attempts.count)</td><td>\(list)</td></tr>\n"
    }

    private static func escape(_ s: String) -> String { Markup.html(s) }

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
        h1{font-size:1.4em;margin:0 0 .3em}
        table{border-collapse:collapse;width:100%}
        th,td{border-bottom:1px solid #ddd;padding:.35em .6em;text-align:left;vertical-align:top}
        td ul{margin:0;padding-left:1.2em}
        .verdict{font-weight:bold;color:#fff;text-align:center;width:4.5em}
        .verdict.passed{background:#2e7d32}.verdict.failed{background:#c62828}
        .verdict.flaky{background:#ef8f00}.verdict.skipped{background:#5c6bc0}
        #filters button{margin:0 .4em .6em 0;padding:.3em .8em;border:1px solid #888;background:#f4f4f4;cursor:pointer}
        #filters button.on{background:#222;color:#fff}
        tr[hidden]{display:none}
        #operations .verdict{width:auto;text-align:left}
        .seen{color:#2e7d32;font-weight:bold}.unseen{color:#c62828;text-decoration:line-through}
        """

    static let script = """
        (function () {
          var rows = Array.prototype.slice.call(document.querySelectorAll('tr.check'));
          var buttons = Array.prototype.slice.call(document.querySelectorAll('#filters button'));
          function show(filter) {
            if (!buttons.some(function (b) { return b.getAttribute('data-filter') === filter; })) filter = 'all';
            var shown = 0;
            rows.forEach(function (row) {
              var on = filter === 'all' || row.getAttribute('data-status') === filter;
              row.hidden = !on;
              if (on) shown++;
            });
            buttons.forEach(function (b) { b.className = b.getAttribute('data-filter') === filter ? 'on' : ''; });
            document.getElementById('showing').textContent = 'showing ' + shown + ' of ' + rows.length + ' (' + filter + ')';
            document.body.setAttribute('data-filter', filter);
          }
          buttons.forEach(function (b) {
            b.addEventListener('click', function () { history.replaceState(null, '', '#' + b.getAttribute('data-filter')); show(b.getAttribute('data-filter')); });
          });
          show(location.hash.slice(1) || 'all');
        })();
        """
}
