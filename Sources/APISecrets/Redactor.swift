import APISupport
import APIJSON
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hides credentials in anything printed: the values of credential headers, and every value that
/// came from a secret `${VAR}` (as written, percent-encoded in a URL or form body, escaped in JSON).
/// `Redactor.off` (`--show-secrets`) shows everything.
package struct Redactor: Sendable, Equatable {
    package static let mask = "••••"
    /// Header names (lower-cased) whose values are credentials, whatever their origin.
    package static let credentialHeaders = Credentials.headers

    /// The shortest secret hidden wherever it stands in a text: shorter ones (`API_TOKEN=e`) would
    /// garble every message, masking each `e`, and so give the secret away. They are hidden only
    /// as a whole value (a header's, a query parameter's). `record` uses the same floor.
    package static let shortestSecret = 4

    /// Longest first, so a secret that contains another is hidden whole.
    package private(set) var secrets: [String]
    /// Secrets under `shortestSecret`, hidden only as whole values.
    private var short: Set<String>
    package private(set) var enabled: Bool

    package init(secrets: [String], enabled: Bool = true) {
        var forms: [String] = []
        var short = Set<String>()
        for secret in secrets where !secret.isEmpty {
            for form in [secret, URLBuilder.escapeQuery(secret), URLBuilder.encodeSegment(secret), Self.jsonEscaped(secret)] {
                if form.count < Self.shortestSecret { short.insert(form) } else if !forms.contains(form) { forms.append(form) }
            }
        }
        self.secrets = forms.sorted { $0.count > $1.count }
        self.short = short
        self.enabled = enabled
    }

    /// The secret as it stands inside a JSON string.
    static func jsonEscaped(_ secret: String) -> String {
        var out = ""
        JSONText.writeString(secret, into: &out)
        return String(out.dropFirst().dropLast())
    }

    /// Shows everything (`--show-secrets`).
    package static let off = Redactor(secrets: [], enabled: false)

    package func isCredential(_ name: String) -> Bool {
        Self.credentialHeaders.contains(name.lowercased())
    }

    /// The header as it may be shown.
    package func header(_ field: HeaderField) -> HeaderField {
        guard enabled else { return field }
        return HeaderField(field.name, isCredential(field.name) || short.contains(field.value) ? Self.mask : text(field.value))
    }

    /// A URL as it may be shown: every secret value hidden, and the value of every query parameter
    /// whose name marks a credential (`api_key`, `token`, a credential header's name) too.
    package func url(_ url: String) -> String {
        let shown = text(url)
        guard enabled else { return shown }
        if short.isEmpty, shown.utf8.withContiguousStorageIfAvailable(Self.hidesNoParameter) == true { return shown }
        guard let q = shown.firstIndex(of: "?") else { return shown }
        let pairs = shown[shown.index(after: q)...].split(separator: "&", omittingEmptySubsequences: false)
        let hidden = pairs.map { pair -> String? in
            guard let eq = pair.firstIndex(of: "=") else { return nil }
            let name = String(pair[..<eq])
            let decoded = name.removingPercentEscapes() ?? name
            let value = String(pair[pair.index(after: eq)...])
            return Secrets.isSecretName(decoded) || isCredential(decoded) || short.contains(value) ? name + "=" + Self.mask : nil
        }
        guard hidden.contains(where: { $0 != nil }) else { return shown }  // the usual URL: as it is
        return shown[...q] + zip(pairs, hidden).map { pair, hidden in hidden ?? String(pair) }.joined(separator: "&")
    }

    /// Whether `url` certainly has no query parameter `url(_:)` hides by its name, told by its
    /// bytes (every reported URL is asked): an ASCII URL without CR (so its bytes are its
    /// characters) whose parameter names hold no `%` escape and neither mark a secret nor name a
    /// credential header. False when unsure: `url(_:)` then looks as it always did.
    static func hidesNoParameter(_ url: UnsafeBufferPointer<UInt8>) -> Bool {
        if url.contains(where: { $0 >= 0x80 || $0 == 13 }) { return false }
        guard let q = url.firstIndex(of: UInt8(ascii: "?")) else { return true }
        var start = q + 1
        while start <= url.count {
            let end = url[start...].firstIndex(of: UInt8(ascii: "&")) ?? url.count
            if let eq = url[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                let name = url[start..<eq]
                if name.contains(UInt8(ascii: "%")) || Secrets.isSecretName(ascii: name) { return false }
                if credentialHeaders.contains(where: {  // the length first: most names differ in it
                    $0.utf8.count == name.count && $0.utf8.elementsEqual(name.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 })
                }) {
                    return false
                }
            }
            start = end + 1
        }
        return true
    }

    /// `text` with every secret value replaced by `••••`.
    package func text(_ text: String) -> String {
        guard enabled, !secrets.isEmpty else { return text }
        var out = text
        for secret in secrets where out.contains(secret) {
            out = out.replacing(secret, with: Self.mask)
        }
        return out
    }
}
