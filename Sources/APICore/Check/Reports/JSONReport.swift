#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--json FILE`: the machine-readable report. The schema (README, "JSON report") is stable:
/// fields may be added, never renamed or removed. Times are seconds.
public enum JSONReport {
    public static let schemaVersion = 1

    public static func render(_ results: [CheckResult]) -> String {
        let summary = CheckSummary(results)
        let root: Value = .object([
            member("version", .number(String(schemaVersion))),
            member("summary", .object([
                member("passed", .number(String(summary.passed))),
                member("failed", .number(String(summary.failed))),
                member("skipped", .number(String(summary.skipped))),
            ])),
            member("results", .array(results.map(result))),
        ])
        return root.jsonText + "\n"
    }

    private static func result(_ r: CheckResult) -> Value {
        guard case .object(var members) = plainResult(r), let drift = r.drift else { return plainResult(r) }
        members.append(member("drift", .array(drift.map(text))))
        return .object(members)
    }

    private static func plainResult(_ r: CheckResult) -> Value {
        .object([
            member("name", text(r.name)),
            member("service", text(r.service)),
            member("target", text(r.target)),
            member("sample", r.sample.map(text) ?? .null),
            member("outcome", text(r.outcome.rawValue)),
            member("kind", r.kind.map { text($0.rawValue) } ?? .null),
            member("networkFailure", r.networkFailure.map(text) ?? .null),
            member("status", r.status.map { .number(String($0)) } ?? .null),
            member("time", r.duration.map(seconds) ?? .null),
            member("messages", .array(r.messages.map(text))),
            member("failedAsExpected", .bool(r.failedAsExpected)),
            member("skipReason", r.skipReason.map(text) ?? .null),
            member("request", r.request.map(request) ?? .null),
            member("attempts", .array(r.attempts.map { a in
                .object([
                    member("status", a.status.map { .number(String($0)) } ?? .null),
                    member("time", seconds(a.duration)),
                    member("error", a.error.map(text) ?? .null),
                ])
            })),
        ])
    }

    private static func request(_ r: CheckResult.Request) -> Value {
        .object([
            member("method", text(r.method)),
            member("url", text(r.url)),
            member("headers", .array(r.headers.map { h in .object([member("name", text(h.name)), member("value", text(h.value))]) })),
            member("timeout", .number(LogFormat.number(r.timeout))),
        ])
    }

    private static func member(_ key: String, _ value: Value) -> Value.Member { .init(key: key, value: value) }
    private static func text(_ s: String) -> Value { .string(Template(s, mark: Mark(line: 0, column: 0))) }
    private static func seconds(_ s: Double) -> Value { .number(Text.fixed(s, 3)) }
}
