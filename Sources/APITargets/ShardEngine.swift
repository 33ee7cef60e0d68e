import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--shard auto`: the shard the CI engine that started this job asks for, read from its
/// environment. Checked in this order; the first engine whose variables are set wins.
package enum ShardEngine {
    struct Source {
        var name: String
        var indexVariable: String
        var countVariable: String
        /// The first index the engine hands out (GitLab counts from 1, the others from 0).
        var base: Int
    }

    static let sources: [Source] = [
        Source(name: "GitLab", indexVariable: "CI_NODE_INDEX", countVariable: "CI_NODE_TOTAL", base: 1),
        Source(name: "CircleCI", indexVariable: "CIRCLE_NODE_INDEX", countVariable: "CIRCLE_NODE_TOTAL", base: 0),
        Source(name: "Buildkite", indexVariable: "BUILDKITE_PARALLEL_JOB", countVariable: "BUILDKITE_PARALLEL_JOB_COUNT", base: 0),
        Source(name: "Kubernetes Indexed Job", indexVariable: "JOB_COMPLETION_INDEX", countVariable: "APICLI_SHARD_COUNT", base: 0),
    ]

    /// Every variable `--shard auto` reads, for the error that lists them.
    package static let variables: [String] = ["APICLI_SHARD"] + sources.flatMap { [$0.indexVariable, $0.countVariable] }

    /// The shard from `environment`: `APICLI_SHARD=i/n` first (set it from a GitHub Actions matrix,
    /// or anywhere), then GitLab, CircleCI, Buildkite, a Kubernetes Indexed Job. An engine whose
    /// index is set but whose numbers are unusable is an error, not a reason to look further.
    package static func detect(_ environment: [String: String]) throws(APIError) -> Shard {
        if let text = value("APICLI_SHARD", environment) {
            guard let shard = Shard.parse(text, source: "APICLI_SHARD") else {
                throw problem("APICLI_SHARD is '\(text)'; it takes i/n with 1 ≤ i ≤ n, like 2/4")
            }
            return shard
        }
        for s in sources {
            guard let indexText = value(s.indexVariable, environment) else { continue }
            let countText = value(s.countVariable, environment)
            guard let raw = Int(indexText), let countText, let count = Int(countText), count >= 1,
                  (s.base..<(s.base + count)).contains(raw) else {
                throw problem("\(s.name): \(s.indexVariable)=\(indexText) and \(s.countVariable)=\(countText ?? "(unset)") "
                              + "do not name a shard (the index counts from \(s.base), the count must be at least 1)")
            }
            return Shard(index: raw - s.base + 1, count: count,
                         source: "\(s.name) (\(s.indexVariable)=\(indexText), \(s.countVariable)=\(countText))")
        }
        throw problem("--shard auto found no shard in the environment; it reads " + variables.joined(separator: ", "))
    }

    private static func value(_ name: String, _ environment: [String: String]) -> String? {
        guard let v = environment[name]?.trimmingSpaces(), !v.isEmpty else { return nil }
        return v
    }

    private static func problem(_ message: String) -> APIError {
        .invalidInput([Diagnostic(file: nil, mark: nil, message: message, hint: nil)])
    }
}
