import APISupport
import APITargets
/// `apicli load --report-html FILE`: one self-contained page (no script, no external anything)
/// with two inline SVG charts — latency over time (p50, p95, p99 of the requests started in each
/// second) and throughput (requests a second, errors on top) — the percentile table per target,
/// the errors, and the thresholds.
package enum LoadHTML {
    package static func render(_ r: LoadResult, judged: [ThresholdResult]) -> String {
        let e = Markup.html
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
            <title>apicli load: \(e(r.model)), \(e(r.load))</title>
            <style>body{font:14px system-ui,sans-serif;margin:24px;background:#fff;color:#222}
            table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}
            td:first-child,th:first-child{text-align:left}.failed{color:#b00020;font-weight:bold}.passed{color:#1b7f3b}
            svg{display:block;margin:8px 0 24px;border:1px solid #ddd;background:#fff}</style>
            </head><body>
            <h1>apicli load</h1>
            <p id="summary">\(e(r.model)) model, \(e(r.load)); \(Text.fixed(r.elapsed, 2)) s; \(r.overall.requests) requests, \
            \(r.overall.errorCount) errors\(r.stopped.map { "; stopped: " + e($0) } ?? "")</p>
            <h2>Latency over time (ms)</h2>
            \(latencyChart(r))
            <h2>Throughput (requests a second)</h2>
            \(throughputChart(r))
            <h2>Percentiles (ms)</h2>
            <table id="percentiles"><thead><tr><th>target</th><th>requests</th><th>req/s</th><th>errors</th><th>p50</th><th>p90</th>\
            <th>p95</th><th>p99</th><th>p99.9</th><th>max</th><th>bytes</th></tr></thead><tbody>

            """
        for (name, s) in r.names.map({ ($0, r.targets[$0] ?? LoadStats()) }) + [("overall", r.overall)] {
            let cells = [50.0, 90, 95, 99, 99.9].map { LoadText.ms(s.latency.seconds(at: $0)) } + [LoadText.ms(s.latency.max)]
            html += "<tr><td>\(e(name))</td><td>\(s.requests)</td><td>\(Text.fixed(r.throughput(s), 1))</td><td>\(s.errorCount)</td>"
                + cells.map { "<td>\($0)</td>" }.joined() + "<td>\(s.bytes)</td></tr>\n"
        }
        html += "</tbody></table>\n<h2>Errors</h2>\n"
        let errors = r.overall.errors.sorted { $0.key < $1.key }
        html += errors.isEmpty ? "<p id=\"errors\">none</p>\n"
            : "<table id=\"errors\"><tr><th>kind</th><th>requests</th></tr>"
                + errors.map { "<tr><td>\(e($0.key))</td><td>\($0.value)</td></tr>" }.joined() + "</table>\n"
        html += "<h2>Thresholds</h2>\n"
        html += judged.isEmpty ? "<p id=\"thresholds\">none</p>\n"
            : "<table id=\"thresholds\"><tr><th>threshold</th><th>measured</th><th>result</th></tr>" + judged.map { j in
                "<tr><td>\(e(j.threshold.text))</td><td>\(e(j.measuredText))</td>"
                    + "<td class=\"\(j.passed ? "passed" : "failed")\">\(j.passed ? "passed" : "failed")</td></tr>"
            }.joined() + "</table>\n"
        return html + "</body></html>\n"
    }

    static let (width, height, pad) = (760.0, 240.0, 40.0)

    /// x of second `i` of `n`, y of `v` of `top`.
    private static func x(_ i: Int, _ n: Int) -> Double { pad + (width - 2 * pad) * (n <= 1 ? 0.5 : Double(i) / Double(n - 1)) }
    private static func y(_ v: Double, _ top: Double) -> Double { height - pad - (height - 2 * pad) * (top > 0 ? v / top : 0) }

    private static func frame(_ id: String, _ top: Double, _ unit: String, _ body: String, _ seconds: Int) -> String {
        let f = { (v: Double) in Text.fixed(v, 1) }
        return "<svg id=\"\(id)\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
            + "viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
            + "<line x1=\"\(pad)\" y1=\"\(height - pad)\" x2=\"\(width - pad)\" y2=\"\(height - pad)\" stroke=\"#888\"/>"
            + "<line x1=\"\(pad)\" y1=\"\(pad)\" x2=\"\(pad)\" y2=\"\(height - pad)\" stroke=\"#888\"/>"
            + "<text x=\"4\" y=\"\(pad)\" font-size=\"11\">\(f(top)) \(unit)</text>"
            + "<text x=\"\(width - pad)\" y=\"\(height - 8)\" font-size=\"11\" text-anchor=\"end\">\(seconds) s</text>"
            + body + "</svg>"
    }

    private static func latencyChart(_ r: LoadResult) -> String {
        let n = r.timeline.count
        let series: [(Double, String)] = [(50, "#1f77b4"), (95, "#ff7f0e"), (99, "#d62728")]
        let top = max(r.timeline.map { $0.latency.seconds(at: 99) * 1000 }.max() ?? 0, 0.001) * 1.1
        var body = ""
        for (p, color) in series {
            let points = r.timeline.enumerated().map { i, s in
                "\(Text.fixed(x(i, n), 1)),\(Text.fixed(y(s.latency.seconds(at: p) * 1000, top), 1))"
            }.joined(separator: " ")
            body += "<polyline class=\"p\(Int(p))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"4\" points=\"\(points)\"/>"
        }
        body += "<text x=\"\(width - pad)\" y=\"16\" font-size=\"11\" text-anchor=\"end\">p50 blue, p95 orange, p99 red</text>"
        return frame("latency-chart", top, "ms", body, n)
    }

    private static func throughputChart(_ r: LoadResult) -> String {
        let n = r.timeline.count
        let top = max(Double(r.timeline.map(\.requests).max() ?? 0), 1) * 1.1
        let barWidth = max(2, (width - 2 * pad) / Double(max(n, 1)) - 2)
        var body = ""
        for (i, s) in r.timeline.enumerated() {
            let left = pad + (width - 2 * pad) * Double(i) / Double(max(n, 1))
            let yOK = y(Double(s.requests), top)
            body += "<rect class=\"requests\" x=\"\(Text.fixed(left, 1))\" y=\"\(Text.fixed(yOK, 1))\" width=\"\(Text.fixed(barWidth, 1))\" "
                + "height=\"\(Text.fixed(height - pad - yOK, 1))\" fill=\"#2ca02c\"/>"
            if s.errors > 0 {
                let yErr = y(Double(s.errors), top)
                body += "<rect class=\"errors\" x=\"\(Text.fixed(left, 1))\" y=\"\(Text.fixed(yErr, 1))\" width=\"\(Text.fixed(barWidth, 1))\" "
                    + "height=\"\(Text.fixed(height - pad - yErr, 1))\" fill=\"#d62728\"/>"
            }
        }
        return frame("throughput-chart", top, "req/s", body, n)
    }
}
