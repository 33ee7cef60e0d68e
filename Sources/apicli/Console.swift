import APISupport
import Dispatch
import APIDiagnostics
import APISecrets
import APIEndpoint
import APITransport
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text for stdout and stderr, with the secrets of the command's workspace hidden by its
/// redactor (passed in: `--show-secrets` gives `.off`), and the failure lines that pick the exit code.
/// The redactor is asked for at each write: secrets met later (a captured token) are hidden too.
struct Console: Sendable {
    private let source: @Sendable () -> Redactor

    init(_ workspace: Workspace) {
        source = { workspace.redactor }
    }

    private init(fixed: Redactor) {
        source = { fixed }
    }

    var redactor: Redactor { source() }

    /// Before a workspace exists (bad arguments, an unreadable project file): nothing to hide yet.
    static let plain = Console(fixed: Redactor(secrets: []))

    func out(_ text: String) { Terminal.write(Self.visible(redactor.text(text))) }
    func err(_ text: String) { Terminal.write(Self.visible(redactor.text(text)), to: STDERR_FILENO) }

    /// A progress line our own code composed (`\r`, then the line, then erase-to-end): the one
    /// writer that may send control sequences to the terminal.
    func progress(_ text: String) { Terminal.write(redactor.text(text), to: STDERR_FILENO) }

    /// Text as a terminal may be shown it: control characters (ESC, BEL, CR, other C0, DEL and
    /// the C1 range, U+009B CSI included) written as `\xHH`, so a target file, a report or a
    /// server's header cannot retitle the window, clear the screen or rewrite a line. Newlines and
    /// tabs stay.
    static func visible(_ text: String) -> String {
        guard mayHoldControl(text), text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars {
            if isControl(c) {
                out.append(contentsOf: "\\x\(Text.hexByte(UInt8(c.value)))".unicodeScalars)
            } else {
                out.append(c)
            }
        }
        return String(out)
    }

    /// A byte scan first (`list` writes hundreds of kilobytes): every control character's UTF-8
    /// holds a byte below 0x20, 0x7F, or 0xC2 (the lead byte of U+0080…U+009F).
    private static func mayHoldControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            func suspect(_ b: UInt8) -> Bool { (b < 0x20 && b != 0x0A && b != 0x09) || b == 0x7F || b == 0xC2 }
            // Eight bytes at a time (`list` writes hundreds of kilobytes): a word none of whose bytes is
            // below 0x20, 0x7F or 0xC2 is passed over whole; any other is looked at byte by byte.
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            func hasZero(_ w: UInt64) -> Bool { (w &- ones) & ~w & highs != 0 }
            let raw = UnsafeRawBufferPointer(bytes)
            var i = 0
            while i + 8 <= raw.count {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // A byte below 0x20: (b - 0x20) borrows into its high bit while b's own is clear.
                if (w &- 0x20 &* ones) & ~w & highs != 0 || hasZero(w ^ (0x7F &* ones)) || hasZero(w ^ (0xC2 &* ones)) {
                    for j in i..<i + 8 where suspect(raw[j]) { return true }
                }
                i += 8
            }
            while i < raw.count {
                if suspect(raw[i]) { return true }
                i += 1
            }
            return false
        }
    }

    private static func isControl(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\n" && c != "\t") || (0x7F...0x9F).contains(c.value)
    }

    /// Warnings from target files, on stderr; they change no exit code.
    func warn(_ warnings: [Diagnostic]) {
        guard !warnings.isEmpty else { return }
        var renderer = DiagnosticRenderer()
        for d in warnings { err(renderer.render(d)) }
    }

    /// Prints the failure and returns its exit code (`ExitStatus`) to throw: a target-file
    /// problem with every diagnostic and its source line, anything else as its one-line summary.
    func fail(_ error: APIError, target: String?) -> ExitCode {
        switch error {
        case .invalidInput(let diagnostics):
            var renderer = DiagnosticRenderer()
            for d in diagnostics { err(renderer.render(d)) }
            if diagnostics.count > 1 { err("\(diagnostics.count) errors\n") }
        case .stopped:
            err("apicli: \(error.summary)\n")  // it names the target itself
        default:
            err("apicli: \(target.map { "\($0): " } ?? "")\(error.summary)\n")
        }
        return ExitStatus(error.kind).code
    }
}

