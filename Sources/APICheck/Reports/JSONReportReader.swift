import APITargets
import APISupport
import APIJSON
import APIDiagnostics
import APISchema
import APITransport
import APISend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON report read back (`--json FILE` of an earlier run): for `report merge`,
/// `--shard-timings` and `--rerun-failed`.
package struct LoadedReport: Sendable {
    package var file: String
    package var results: [CheckResult]
    /// nil for a report written before suites were recorded.
    package var run: RunInfo?
    /// Each result's position in the whole selection, when the report has it (same order as `results`).
    package var positions: [Int?]

    /// Seconds per `service.target`: every attempt of every check of that target (all its samples
    /// under `--stub`), summed; a target in several reports counts its longest time.
    package static func timings(_ reports: [LoadedReport]) -> [String: Double] {
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
    package var failedTargets: [String] {
        var names: [String] = []
        for r in results where r.outcome == .failed || (r.outcome == .skipped && r.skipReason?.hasPrefix("not run: --fail-fast") == true) {
            let name = r.service + "." + r.target
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}

package enum JSONReportReader {
    package static func read(file: String) throws(APIError) -> LoadedReport {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw problem(file, "cannot read the report (\(String(cString: strerror(errno))))")
        }
        return try read(data, file: file)
    }

    package static func read(_ data: Data, file: String) throws(APIError) -> LoadedReport {
        guard let parsed = JSONValue.parse(data), case .object = parsed else {
            throw problem(file, "not a JSON report of apicli check (not a JSON object)")
        }
        let root = Field(parsed)
        guard root["version"].int == JSONReport.schemaVersion, let list = root["results"].array else {
            throw problem(file, "not a JSON report of apicli check (version \(JSONReport.schemaVersion) with results expected)")
        }
        var results: [CheckResult] = []
        var positions: [Int?] = []
        for (i, item) in list.enumerated() {
            guard let r = result(item) else { throw problem(file, "result \(i + 1) is incomplete or malformed") }
            results.append(r)
            positions.append(item["position"].int)
        }
        var report = LoadedReport(file: file, results: results, run: nil, positions: positions)
        if let digest = root["suite"]["digest"].string, let targets = root["suite"]["targets"].int {
            var run = RunInfo(suite: SuiteIdentity(digest: digest, targets: targets))
            let s = root["shard"]
            if let i = s["index"].int, let n = s["count"].int {
                run.shard = Shard(index: i, count: n, source: s["source"].string ?? "")
            }
            let m = root["merged"]
            if let n = m["count"].int, let shards = m["shards"].array?.compactMap(\.int) {
                run.merged = (n, shards)
            }
            for (r, p) in zip(results, positions) {
                if let p { run.positions[r.service + "." + r.target] = p }
            }
            report.run = run
        }
        return report
    }

    private static func result(_ o: Field) -> CheckResult? {
        guard let name = o["name"].string, let service = o["service"].string, let target = o["target"].string,
              let outcome = o["outcome"].string.flatMap(CheckResult.Outcome.init(rawValue:)) else { return nil }
        var r = CheckResult(name: name, service: service, target: target, sample: o["sample"].string, outcome: outcome,
                            kind: o["kind"].string.flatMap(CheckResult.FailureKind.init(rawValue:)),
                            messages: o["messages"].array?.compactMap(\.string) ?? [],
                            failedAsExpected: o["failedAsExpected"].bool ?? false,
                            skipReason: o["skipReason"].string)
        r.attempts = (o["attempts"].array ?? []).map { a in
            CheckResult.Attempt(status: a["status"].int, duration: a["time"].double ?? 0, error: a["error"].string)
        }
        r.flaky = o["flaky"].bool ?? false
        r.networkFailure = o["networkFailure"].string
        let q = o["request"]
        if let method = q["method"].string, let url = q["url"].string {
            let headers = (q["headers"].array ?? []).compactMap { h in h["name"].string.map { HeaderField($0, h["value"].string ?? "") } }
            r.request = CheckResult.Request(method: method, url: url, headers: headers, timeout: q["timeout"].double ?? 0)
        }
        return r
    }

    static func problem(_ file: String, _ message: String) -> APIError {
        .invalidInput([Diagnostic(file: file, mark: nil, message: message)])
    }

    /// A place in the parsed report: a member or element that may be missing or of another type.
    struct Field {
        var value: JSONValue?

        init(_ value: JSONValue?) { self.value = value }

        subscript(key: String) -> Field {
            guard case .object(let members)? = value else { return Field(nil) }
            return Field(members.last { $0.key == key }?.value)
        }

        var string: String? { if case .string(let s)? = value { return s } else { return nil } }
        var double: Double? { if case .number(let d)? = value { return d } else { return nil } }
        var bool: Bool? { if case .bool(let b)? = value { return b } else { return nil } }
        var int: Int? {
            guard let d = double, d == d.rounded(), abs(d) < 9e15 else { return nil }
            return Int(d)
        }
        var array: [Field]? { if case .array(let items)? = value { return items.map(Field.init) } else { return nil } }
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
