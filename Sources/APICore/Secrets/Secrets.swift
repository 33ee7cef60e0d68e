#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The values of `${VAR}`s whose names mark them as secret (TOKEN, SECRET, PASSWORD, KEY, in any
/// case), recorded by `Bindings.expand` so every output can print them as `••••`. A reference
/// type: copies of `Bindings` share one collection.
public final class Secrets: Sendable {
    private let collected: Locked<[String]>

    public init(_ values: [String] = []) {
        collected = Locked(values.filter { !$0.isEmpty })
    }

    /// Whether a variable named `name` holds a secret.
    public static func isSecretName(_ name: some StringProtocol) -> Bool {
        let upper = name.uppercased()
        return ["TOKEN", "SECRET", "PASSWORD", "KEY"].contains { upper.contains($0) }
    }

    public func record(_ value: String) {
        guard !value.isEmpty else { return }
        collected.withLock { if !$0.contains(value) { $0.append(value) } }
    }

    /// Every recorded value, in the order first seen.
    public var values: [String] { collected.current }
}
