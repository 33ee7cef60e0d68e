import APISupport
import APIYAML
import APIJSON
import APISchema
import APITargets
import APITransport
import APIVerdict
import APISend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--json FILE`: the machine-readable report. The schema (docs/checks-and-ci.md, "JSON report") is stable:
/// fields may be added, never renamed or removed. Times are seconds.
package enum JSONReport {
    package static let schemaVersion = 1

    package static func render(_ results: [CheckResult]) -> String { render(results, run: nil) }

    /// With `run`: also the suite, the shard (or the shards merged) and each result's position.
    package static func render(_ results: [CheckResult], run: RunInfo?, coverage: Coverage? = nil) -> String {
        let summary = CheckSummary(results)
        var members: [Value.Member] = [
            member("version", .number(String(schemaVersion))),
            member("summary", .object([
                member("passed", .number(String(summary.passed))),
                member("failed", .number(String(summary.failed))),
                member("skipped", .number(String(summary.skipped))),
                member("flaky", .number(String(summary.flaky))),
            ])),
        ]
        if let run { members += runMembers(run) }
        members.append(member("results", .array(results.map { result($0, position: run?.positions[$0.service + "." + $0.target]) })))
        if let coverage { members.append(member("coverage", self.coverage(coverage))) }
        return Value.object(members).jsonText + "\n"
    }

    /// `check --coverage`: the description's operations, exercised or not, and their documented responses.
    private static func coverage(_ c: Coverage) -> Value {
        .object([
            member("spec", text(c.spec)),
            member("operations", .object([
                member("total", .number(String(c.operations.count))),
                member("exercised", .number(String(c.exercised))),
                member("percent", .number(Text.fixed(c.percent, 1))),
            ])),
            member("responses", .object([
                member("total", .number(String(c.responses))),
                member("seen", .number(String(c.responsesSeen))),
                member("percent", .number(Text.fixed(c.responsePercent, 1))),
            ])),
            member("items", .array(c.operations.map { op in
                .object([
                    member("method", text(op.method)),
                    member("path", text(op.path)),
                    member("exercised", .bool(op.exercised)),
                    member("targets", .array(op.targets.map(text))),
                    member("responses", .array(op.responses.map { .object([member("status", text($0.status)), member("seen", .bool($0.seen))]) })),
                ])
            })),
        ])
    }

    private static func runMembers(_ run: RunInfo) -> [Value.Member] {
        [
            member("suite", .object([
                member("digest", text(run.suite.digest)),
                member("targets", .number(String(run.suite.targets))),
            ])),
            member("shard", run.shard.map { s in
                .object([
                    member("index", .number(String(s.index))),
                    member("count", .number(String(s.count))),
                    member("source", text(s.source)),
                ])
            } ?? .null),
            member("merged", run.merged.map { m in
                .object([
                    member("count", .number(String(m.count))),
                    member("shards", .array(m.shards.map { .number(String($0)) })),
                ])
            } ?? .null),
        ]
    }

    private static func result(_ r: CheckResult, position: Int?) -> Value {
        guard case .object(var members) = plainResult(r, position: position), let drift = r.drift else {
            return plainResult(r, position: position)
        }
        members.append(member("drift", .array(drift.map(text))))
        return .object(members)
    }

    private static func plainResult(_ r: CheckResult, position: Int?) -> Value {
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
            member("flaky", .bool(r.flaky)),
            member("position", position.map { .number(String($0)) } ?? .null),
        ])
    }

    private static func request(_ r: CheckResult.Request) -> Value {
        .object([
            member("method", text(r.method)),
            member("url", text(r.url)),
            member("headers", .array(r.headers.map { h in .object([member("name", text(h.name)), member("value", text(h.value))]) })),
            member("timeout", .number(Text.number(r.timeout))),
        ])
    }

    private static func member(_ key: String, _ value: Value) -> Value.Member { .init(key: key, value: value) }
    private static func text(_ s: String) -> Value { .string(Template(s, mark: Mark(line: 0, column: 0))) }
    private static func seconds(_ s: Double) -> Value { .number(Text.fixed(s, 3)) }
}
