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
