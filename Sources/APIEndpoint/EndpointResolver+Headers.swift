import APISupport
import APIYAML
import APIDiagnostics
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Header values expanded and checked: no line break or control character reaches the wire.
extension EndpointResolver {
    /// Expands a header value; one that would break the request head (a line break or another
    /// control character, from a `{param}` or `${VAR}`) is bad input, reported before anything is sent.
    func headerValue(_ template: Template, _ bindings: Bindings, in place: String, file: String) throws(APIError) -> String {
        let value = try bindings.expand(template, in: place, file: file)
        try Self.checkHeaderValue(value, in: place, comesFrom: template.references, file: file, mark: template.mark)
        return value
    }

    static func checkHeaderValue(_ value: String, in place: String, comesFrom references: [String], file: String?,
                                 mark: Mark?) throws(APIError) {
        guard let bad = HeaderField.forbiddenCharacter(in: value) else { return }
        let hex = String(bad.value, radix: 16, uppercase: true)
        let what = bad == "\n" || bad == "\r" ? "a line break"
            : "a control character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
        let source = references.isEmpty ? "" : " (from " + references.joined(separator: ", ") + ")"
        throw .invalid(Diagnostic(file: file, mark: mark, message: "the value of \(place) holds \(what)\(source)",
                                  hint: "a header value is one line of text: fix the value of the parameter or variable"))
    }
}
