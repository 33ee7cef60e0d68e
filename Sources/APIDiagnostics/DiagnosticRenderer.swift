import APIYAML
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Draws diagnostics the way compilers do:
///
///     targets/github.yaml:12:5: error: unknown key 'pth' in target 'zen'
///        12 |     pth: /zen
///           |     ^
///       hint: did you mean 'path'?
///
/// Source lines are read from the named files once and cached.
package struct DiagnosticRenderer {
    private var sources: [String: [Substring]] = [:]

    package init() {}

    /// Renders diagnostics of `file` from `bytes` instead of reading the file (stdin, the fuzzer).
    package mutating func setSource(_ bytes: [UInt8], for file: String) {
        sources[file] = Self.lines(String(decoding: bytes, as: UTF8.self))
    }

    /// Lines as libyaml counts them: CR LF, LF, CR, and YAML 1.1's NEL, LS and PS all end a line.
    private static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { lineBreaks.contains($0) })
    }

    private static let lineBreaks: Set<Character> = ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]

    package mutating func render(_ d: Diagnostic) -> String {
        var out = "\(location(d.file, d.mark))\(d.isWarning ? "warning" : "error"): \(d.message)\n"
        out += excerpt(d.file, d.mark)
        for note in d.notes {
            out += "\(location(d.file, note.mark))note: \(note.message)\n"
            out += excerpt(d.file, note.mark)
        }
        if let hint = d.hint { out += "    hint: \(hint)\n" }
        return out
    }

    private func location(_ file: String?, _ mark: Mark?) -> String {
        switch (file, mark) {
        case let (file?, mark?): return "\(file):\(mark.line):\(mark.column): "
        case let (file?, nil): return "\(file): "
        default: return ""
        }
    }

    private mutating func excerpt(_ file: String?, _ mark: Mark?) -> String {
        guard let file, let mark, let line = sourceLine(file, mark.line) else { return "" }
        let number = String(mark.line)
        let gutter = String(repeating: " ", count: number.count)
        // Marks count code points (as libyaml does). Keep tabs so the caret lines up under them;
        // every other character before the column is one space.
        let before = String(String.UnicodeScalarView(line.unicodeScalars.prefix(mark.column - 1)))
        let lead = String(before.map { $0 == "\t" ? "\t" : " " })
        let shown = line.count > 200 ? String(line.prefix(200)) + "…" : String(line)
        return "  \(number) | \(shown)\n  \(gutter) | \(lead)^\n"
    }

    private mutating func sourceLine(_ file: String, _ line: Int) -> Substring? {
        if sources[file] == nil {
            guard let data = FileManager.default.contents(atPath: file), data.count <= 64 << 20 else { return nil }
            sources[file] = Self.lines(String(decoding: data, as: UTF8.self))
        }
        guard let lines = sources[file], line >= 1, line <= lines.count else { return nil }
        var text = lines[line - 1]
        if text.hasSuffix("\r") { text = text.dropLast() }
        return text
    }
}
