import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One slice of a suite split across machines: `index` of `count`, 1-based.
package struct Shard: Sendable, Equatable {
    package var index: Int
    package var count: Int
    /// Where the numbers came from: `--shard`, or the engine and variables that set them.
    package var source: String

    package init(index: Int, count: Int, source: String) {
        self.index = index
        self.count = count
        self.source = source
    }

    /// `i/n` with 1 ≤ i ≤ n, or nil.
    package static func parse(_ text: String, source: String) -> Shard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        return Shard(index: i, count: n, source: source)
    }
}

extension Shard {
    /// What `--shard` asks for: a slice named on the command line (`i/n`), or the one the CI
    /// engine that started the job hands out (`auto`, `ShardEngine`).
    package enum Request: Sendable, Equatable {
        case fixed(Shard)
        case auto

        /// `i/n` (with 1 ≤ i ≤ n) or `auto`; nil for anything else.
        package init?(_ text: String) {
            if text == "auto" {
                self = .auto
            } else if let shard = Shard.parse(text, source: "--shard") {
                self = .fixed(shard)
            } else {
                return nil
            }
        }

        /// The shard to run: the one named, or the CI engine's read from `environment`.
        package func resolve(_ environment: [String: String]) throws(APIError) -> Shard {
            switch self {
            case .fixed(let shard): return shard
            case .auto: return try ShardEngine.detect(environment)
            }
        }
    }
}
