import APISupport
import APIDiagnostics
import APITargets
/// A load run in words (the summary printed at the end), as JUnit (one case per threshold), and
/// merged from shards.
package enum LoadText {
    package static func ms(_ s: Double) -> String { Text.fixed(s * 1000, 2) }

    package static func summary(_ r: LoadResult, judged: [ThresholdResult]) -> String {
        var out = "load: \(r.model), \(r.load); \(Text.fixed(r.elapsed, 2)) s"
        if let stopped = r.stopped { out += " (stopped: \(stopped))" }
        if let shard = r.shard { out += "; shard \(shard.index)/\(shard.count)" }
        if r.merged > 0 { out += "; \(r.merged) reports merged" }
        out += "\n"
        let rows = r.names.map { ($0, r.targets[$0] ?? LoadStats()) } + [("overall", r.overall)]
        let width = max(8, rows.map(\.0.count).max() ?? 0)
        out += "target".padded(to: width) + "  requests    req/s  errors     p50     p90     p95     p99   p99.9     max  (ms)\n"
        for (name, s) in rows {
            let cells = [50.0, 90, 95, 99, 99.9].map { ms(s.latency.seconds(at: $0)).leftPadded(to: 7) } + [ms(s.latency.max).leftPadded(to: 7)]
            out += name.padded(to: width) + "  " + String(s.requests).leftPadded(to: 8) + " " + Text.fixed(r.throughput(s), 1).leftPadded(to: 8)
                + " " + String(s.errorCount).leftPadded(to: 7) + " " + cells.joined(separator: " ") + "\n"
        }
        let errors = r.overall.errors.sorted { $0.key < $1.key }
        if !errors.isEmpty { out += "errors: " + errors.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n" }
        out += "bytes received: \(r.overall.bytes)\n"
        if r.model == "open" {
            let late = r.late
            out += "schedule: \(r.scheduled) started; start lag p50 \(ms(r.lag.seconds(at: 50))) ms, p99 \(ms(r.lag.seconds(at: 99))) ms, "
                + "max \(ms(r.lag.max)) ms"
            out += late > 0 ? "; BEHIND SCHEDULE: \(late) requests started more than \(Int(LoadResult.lateAfter * 1000)) ms late "
                + "(latencies count from the scheduled start)\n" : "; on schedule\n"
        }
        for j in judged {
            out += "threshold \(j.passed ? "passed" : "FAILED"): \(j.threshold.text) (measured \(j.measuredText))\n"
        }
        return out
    }

    package static func junit(_ r: LoadResult, judged: [ThresholdResult]) -> String {
        let failures = judged.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"apicli load\" tests=\"\(judged.count)\" failures=\"\(failures)\">\n"
        xml += "  <testsuite name=\"thresholds\" tests=\"\(judged.count)\" failures=\"\(failures)\" time=\"\(Text.fixed(r.elapsed, 3))\">\n"
        for j in judged {
            let name = Markup.xml(j.threshold.text)
            xml += "    <testcase classname=\"\(Markup.xml(j.threshold.target ?? "overall"))\" name=\"\(name)\">"
            if j.passed {
                xml += "<system-out>measured \(Markup.xml(j.measuredText))</system-out></testcase>\n"
            } else {
                xml += "<failure message=\"measured \(Markup.xml(j.measuredText))\">\(name): measured "
                    + "\(Markup.xml(j.measuredText)) (\(Markup.xml(j.threshold.source)))</failure></testcase>\n"
            }
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }
}

/// `apicli report merge` over load reports: the shards' histograms and counts added up, the
/// thresholds (which every shard must share) judged again over the sum.
package enum LoadMerge {
    package static func merge(_ reports: [(file: String, result: LoadResult)], allowMissing: Bool) throws(APIError) -> LoadResult {
        func refuse(_ file: String?, _ message: String, _ hint: String? = nil) -> APIError {
            .invalidInput([Diagnostic(file: file, mark: nil, message: message, hint: hint)])
        }
        guard let first = reports.first else { throw refuse(nil, "no report to merge") }
        var merged = LoadResult()
        merged.model = first.result.model
        merged.load = first.result.load
        merged.thresholds = first.result.thresholds
        var seen: [Int: String] = [:]
        var total: UInt64 = 0
        for (file, r) in reports {
            // Each report's counts were bounded when read (`LoadJSON.read`); so are their sums here.
            guard let counts = LoadJSON.total(r), Double(total) + Double(counts) <= LoadJSON.maxCount else {
                throw refuse(file, "the counts of the reports add up beyond \(Int(LoadJSON.maxCount))")
            }
            total += counts
            guard r.thresholds == first.result.thresholds else {
                throw refuse(file, "its thresholds differ from \(first.file)'s", "merge the shards of one run (the same thresholds)")
            }
            guard r.model == first.result.model else { throw refuse(file, "it is a \(r.model) model run, \(first.file) \(first.result.model)") }
            if let shard = r.shard {
                guard shard.count == first.result.shard?.count else {
                    throw refuse(file, "it is shard \(shard.index)/\(shard.count); \(first.file) is of another count")
                }
                if let other = seen[shard.index] { throw refuse(file, "shard \(shard.index) is also \(other)") }
                seen[shard.index] = file
            }
            merged.add(r)
            merged.merged += max(r.merged, 1)
        }
        if let count = first.result.shard?.count, !allowMissing {
            if seen.count < count {
                // Named up to ten: a forged count of 10^15 is not walked through.
                let missing = Array((1...count).lazy.filter { seen[$0] == nil }.prefix(10))
                let more = count - seen.count - missing.count
                throw refuse(nil, "shard \(missing.map(String.init).joined(separator: ", "))\(more > 0 ? " and \(more) more" : "") of \(count) is missing",
                             "pass every shard's report, or --allow-missing")
            }
        }
        // Elapsed: from the earliest start to the latest end across shards.
        let ends = reports.map { $0.result.startedAt + $0.result.elapsed }
        if merged.startedAt > 0, let end = ends.max() { merged.elapsed = end - merged.startedAt }
        return merged
    }
}
