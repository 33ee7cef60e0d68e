import Foundation

/// A JSON report read back (`--json FILE` of an earlier run): for `report merge`,
/// `--shard-timings` and `--rerun-failed`.
public struct LoadedReport: Sendable {
    public var file: String
    public var results: [CheckResult]
    /// nil for a report written before suites were recorded.
    public var run: RunInfo?
    /// Each result's position in the whole selection, when the report has it (same order as `results`).
    public var positions: [Int?]

    /// Seconds per `service.target`: every attempt of every check of that target (all its samples
    /// under `--stub`), summed; a target in several reports counts its longest time.
    public static func timings(_ reports: [LoadedReport]) -> [String: Double] {
        var best: [String: Double] = [:]
        for report in reports {
            var mine: [String: Double] = [:]
            for r in report.results where r.outcome != .skipped {
                mine[r.service + "." + r.target, default: 0] += r.attempts.reduce(0) { $0 + $1.duration }
            }
            best.merge(mine) { max($0, $1) }
        }
        return best
    }

    /// `service.target` names that failed, or were not run because `--fail-fast` stopped the run.
    public var failedTargets: [String] {
        var names: [String] = []
        for r in results where r.outcome == .failed || (r.outcome == .skipped && r.skipReason?.hasPrefix("not run: --fail-fast") == true) {
            let name = r.service + "." + r.target
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}

public enum JSONReportReader {
    public static func read(file: String) throws(APIError) -> LoadedReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw problem(file, "cannot read the report: \(error.localizedDescription)")
        }
        return try read(data, file: file)
    }

    public static func read(_ data: Data, file: String) throws(APIError) -> LoadedReport {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw problem(file, "not a JSON report of apicli check (not a JSON object)")
        }
        guard root["version"] as? Int == JSONReport.schemaVersion, let list = root["results"] as? [[String: Any]] else {
            throw problem(file, "not a JSON report of apicli check (version \(JSONReport.schemaVersion) with results expected)")
        }
        var results: [CheckResult] = []
        var positions: [Int?] = []
        for (i, item) in list.enumerated() {
            guard let r = result(item) else { throw problem(file, "result \(i + 1) is incomplete or malformed") }
            results.append(r)
            positions.append(item["position"] as? Int)
        }
        var report = LoadedReport(file: file, results: results, run: nil, positions: positions)
        if let suite = root["suite"] as? [String: Any], let digest = suite["digest"] as? String,
           let targets = suite["targets"] as? Int {
            var run = RunInfo(suite: SuiteIdentity(digest: digest, targets: targets))
            if let s = root["shard"] as? [String: Any], let i = s["index"] as? Int, let n = s["count"] as? Int {
                run.shard = Shard(index: i, count: n, source: s["source"] as? String ?? "")
            }
            if let m = root["merged"] as? [String: Any], let n = m["count"] as? Int, let shards = m["shards"] as? [Int] {
                run.merged = (n, shards)
            }
            for (r, p) in zip(results, positions) {
                if let p { run.positions[r.service + "." + r.target] = p }
            }
            report.run = run
        }
        return report
    }

    private static func result(_ o: [String: Any]) -> CheckResult? {
        guard let name = o["name"] as? String, let service = o["service"] as? String, let target = o["target"] as? String,
              let outcome = (o["outcome"] as? String).flatMap(CheckResult.Outcome.init(rawValue:)) else { return nil }
        var r = CheckResult(name: name, service: service, target: target, sample: o["sample"] as? String, outcome: outcome,
                            kind: (o["kind"] as? String).flatMap(CheckResult.FailureKind.init(rawValue:)),
                            messages: o["messages"] as? [String] ?? [],
                            failedAsExpected: o["failedAsExpected"] as? Bool ?? false,
                            skipReason: o["skipReason"] as? String)
        r.attempts = (o["attempts"] as? [[String: Any]] ?? []).map { a in
            CheckResult.Attempt(status: a["status"] as? Int, duration: (a["time"] as? NSNumber)?.doubleValue ?? 0,
                                error: a["error"] as? String)
        }
        r.flaky = o["flaky"] as? Bool ?? false
        r.networkFailure = o["networkFailure"] as? String
        if let q = o["request"] as? [String: Any], let method = q["method"] as? String, let url = q["url"] as? String {
            let headers = (q["headers"] as? [[String: Any]] ?? []).compactMap { h in
                (h["name"] as? String).map { HeaderField($0, h["value"] as? String ?? "") }
            }
            r.request = CheckResult.Request(method: method, url: url, headers: headers,
                                            timeout: (q["timeout"] as? NSNumber)?.doubleValue ?? 0)
        }
        return r
    }

    static func problem(_ file: String, _ message: String) -> APIError {
        .invalidInput([Diagnostic(file: file, mark: nil, message: message)])
    }
}

extension CheckResult.Request {
    /// A request as a JSON report shows it (its header values already hidden where secret).
    init(method: String, url: String, headers: [HeaderField], timeout: Double) {
        self.method = method
        self.url = url
        self.headers = headers
        self.timeout = timeout
    }
}
