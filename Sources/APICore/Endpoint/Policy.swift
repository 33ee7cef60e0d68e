#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a target's response is judged and how long it may take.
public struct Policy: Sendable, Equatable {
    public var validation: Validation
    /// Seconds.
    public var timeout: Double
}
