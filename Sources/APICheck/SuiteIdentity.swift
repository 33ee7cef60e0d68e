import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What identifies a suite, so that `report merge` can tell shards of one run from reports of
/// different runs: every selected target (before sharding) and the mode (`--stub`, `--all`).
package struct SuiteIdentity: Sendable, Equatable {
    /// 16 hex digits: FNV-1a (64 bit) of the mode and the sorted `service.target` names.
    package var digest: String
    /// Targets selected before sharding.
    package var targets: Int

    package init(digest: String, targets: Int) {
        self.digest = digest
        self.targets = targets
    }

    package init(names: [String], stub: Bool, all: Bool) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func feed(_ s: String) {
            for byte in s.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash ^= 0x0a
            hash = hash &* 0x0000_0100_0000_01b3
        }
        feed("apicli suite 1 stub=\(stub) all=\(all)")
        let sorted = names.sorted()
        sorted.forEach(feed)
        let hex = String(hash, radix: 16)
        self.init(digest: String(repeating: "0", count: 16 - hex.count) + hex, targets: sorted.count)
    }
}
