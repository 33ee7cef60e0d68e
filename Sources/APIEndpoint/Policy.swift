import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a target's response is judged and how long it may take.
package struct Policy: Sendable, Equatable {
    package var validation: Validation
    /// Seconds.
    package var timeout: Double
}
