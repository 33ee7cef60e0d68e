#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Re-indents JSON text for a terminal without parsing it into objects: key order, number text
/// and escapes stay exactly as received. Returns nil when the text is not a single JSON value, so
/// the caller prints the bytes unchanged. Indentation grows with depth, so the output could be
/// quadratic in the input (12,000 nested arrays: 290 MB): past `maxDepth`, or past `maxGrowth`
/// times the input plus a MiB, it gives up (nil) and the raw bytes are printed instead.
enum JSONPretty {
    static let maxDepth = 128
    static let maxGrowth = 8

    static func format(_ data: Data, indent: Int = 2) -> Data? {
        let budget = data.count * maxGrowth + (1 << 20)
        var out = [UInt8]()
        out.reserveCapacity(data.count + data.count / 2)
        var depth = 0
        var inString = false, escaped = false
        var stack: [UInt8] = []
        var sawValue = false
        var emptyOpen = false  // just wrote '{' or '[': an immediate close stays on the same line

        func newline() {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * indent))
        }

        for byte in data {
            if inString {
                out.append(byte)
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 && sawValue { return nil }
                if emptyOpen { newline() }
                out.append(byte)
                stack.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                depth += 1
                if depth > maxDepth || out.count > budget { return nil }
                emptyOpen = true
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard stack.popLast() == byte else { return nil }
                depth -= 1
                if !emptyOpen { newline() }
                out.append(byte)
                if depth == 0 { sawValue = true }
            case UInt8(ascii: ","):
                guard depth > 0 else { return nil }
                out.append(byte)
                newline()
                if out.count > budget { return nil }
            case UInt8(ascii: ":"):
                guard depth > 0 else { return nil }
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            default:
                if depth == 0 && sawValue { return nil }
                if emptyOpen { newline() }
                if byte == UInt8(ascii: "\"") { inString = true }
                out.append(byte)
                if depth == 0 { sawValue = true }
            }
            emptyOpen = false
        }
        guard stack.isEmpty, !inString, sawValue, let first = out.first,
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        out.append(UInt8(ascii: "\n"))
        return Data(out)
    }
}
