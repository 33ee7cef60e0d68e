import APISupport
import APITransport
import APIVerdict
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The terminal report: one line per check as it completes, then the summary.
///
///     PASS  httpbin.get            200     12 ms
///     FAIL  httpbin.status         404      9 ms  status 404, expected 200
///     SKIP  httpbin.post           POST runs only when named, with check: true, or with --all
package enum TextReport {
    package static func line(_ r: CheckResult, nameWidth: Int) -> String {
        let pad = max(0, nameWidth - characters(r.name))
        if r.outcome == .skipped {
            return "SKIP  " + r.name + String(repeating: " ", count: pad) + "  \(r.skipReason ?? "")\n"
        }
        let status = r.status.map(String.init) ?? "---"
        let time = r.duration.map(Text.milliseconds) ?? "-"
        // The line's bytes gathered in one array and made a String once (a line per check,
        // thousands a run: a String grown piece by piece checks its capacity and form on every append).
        var line: [UInt8] = []
        line.reserveCapacity(r.name.utf8.count + pad + 32)
        line.append(contentsOf: (r.outcome == .passed ? "PASS  " : "FAIL  ").utf8)
        line.append(contentsOf: r.name.utf8)
        line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pad + 2))
        line.append(contentsOf: status.utf8)
        line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 + max(0, 8 - characters(time))))
        line.append(contentsOf: time.utf8)
        // The usual line (one attempt, no message after it) ended in its bytes: one string made.
        if r.attempts.count <= 1, r.messages.isEmpty || !(r.failedAsExpected || r.outcome == .failed) {
            line.append(UInt8(ascii: "\n"))
            return String(decoding: line, as: UTF8.self)
        }
        var text = String(decoding: line, as: UTF8.self)
        if r.attempts.count > 1 { text += "  (\(r.attempts.count) attempts\(r.flaky ? ", flaky" : ""))" }
        if r.failedAsExpected, let first = r.messages.first {
            text += "  failed as expected: \(first)"
        } else if r.outcome == .failed, let first = r.messages.first {
            text += "  \(first)"
        }
        text += "\n"
        return text
    }

    /// The characters of `text`: its byte count when it is ASCII (nearly every name and time),
    /// without walking grapheme clusters.
    private static func characters(_ text: String) -> Int {
        if text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy { $0 < 0x80 } }) == true { return text.utf8.count }
        return text.count
    }

    /// The failures again, each with every failed expectation, then `N passed, N failed[, N flaky][, N skipped]`.
    package static func summary(_ results: [CheckResult]) -> String {
        var text = ""
        let failed = results.filter { $0.outcome == .failed }
        if !failed.isEmpty {
            text += "\nfailures:\n"
            for r in failed {
                text += "  \(r.name)\n" + capped(r.messages).map { "    - \($0)\n" }.joined()
            }
        }
        return text + "\n" + CheckSummary(results).line + "\n"
    }


    /// Schema violations beyond the first three of an item as one count (JSON, JUnit and HTML
    /// reports keep every one).
    static func capped(_ messages: [String], schemaLimit: Int = 3) -> [String] {
        var out: [String] = []
        var schema = 0
        for m in messages {
            if m.hasPrefix("schema: ") {
                schema += 1
                if schema > schemaLimit { continue }
            }
            out.append(m)
        }
        if schema > schemaLimit { out.append("… and \(schema - schemaLimit) more schema violations") }
        return out
    }
}
