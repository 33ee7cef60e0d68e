import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The values of `${VAR}`s whose names mark them as secret (TOKEN, SECRET, PASSWORD, KEY, in any
/// case), recorded by `Bindings.expand` so every output can print them as `••••`. A reference
/// type: copies of `Bindings` share one collection.
package final class Secrets: Sendable {
    private let collected: Locked<[String]>

    package init(_ values: [String] = []) {
        collected = Locked(values.filter { !$0.isEmpty })
    }

    /// Whether a variable named `name` holds a secret.
    package static func isSecretName(_ name: some StringProtocol) -> Bool {
        // ASCII, the usual name, byte by byte (`Redactor.url` asks for every query parameter of
        // every reported URL); anything else as Unicode upper-cases it (`ſ` is an `S`).
        if name.utf8.contains(where: { $0 >= 0x80 }) { return secretWords.contains { name.uppercased().contains($0) } }
        return isSecretName(ascii: name.utf8)
    }

    /// `isSecretName` of an ASCII name, by its bytes, allocating nothing.
    static func isSecretName<Bytes: Collection<UInt8>>(ascii name: Bytes) -> Bool {
        secretWordBytes.contains { word in
            var start = name.startIndex
            var left = name.count
            while left >= word.count {
                if zip(name[start...], word).allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) == $1 }) { return true }
                name.formIndex(after: &start)
                left -= 1
            }
            return false
        }
    }

    private static let secretWords = ["TOKEN", "SECRET", "PASSWORD", "KEY"]
    private static let secretWordBytes = secretWords.map { Array($0.utf8) }

    /// A redactor for every value recorded so far, made again only after a new one was recorded
    /// (values are only added, so their count names the set): outputs ask for it at every write.
    package var redactor: Redactor {
        let values = self.values
        return made.withLock { made in
            if let made, made.count == values.count { return made.redactor }
            let redactor = Redactor(secrets: values)
            made = (values.count, redactor)
            return redactor
        }
    }

    private let made = Locked<(count: Int, redactor: Redactor)?>(nil)

    package func record(_ value: String) {
        guard !value.isEmpty else { return }
        collected.withLock { if !$0.contains(value) { $0.append(value) } }
    }

    /// Every recorded value, in the order first seen.
    package var values: [String] { collected.current }
}
