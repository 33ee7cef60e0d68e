import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONParser {
    /// JSON read through the YAML layer (for its lines and columns) as JSON reads it: a raw DEL
    /// (0x7F) is a character like any other in a JSON string (RFC 8259 §7), where YAML refuses it
    /// unescaped, so in a file that is JSON each one inside a string becomes the escape `\u007F`
    /// (the same character; a column after it on its line moves by 5). YAML input is left alone.
    /// The one rule of every reader of JSON files through the YAML layer: collections, OpenAPI
    /// descriptions (`import openapi` and the contracts of `expect: schema:`).
    package static func escapingDEL(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0x7F), parse(Data(bytes)) != nil else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var inString = false, escaped = false
        for b in bytes {
            if inString, b == 0x7F {
                out += Array("\\u007F".utf8)
                continue
            }
            out.append(b)
            if escaped { escaped = false } else if inString, b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString.toggle() }
        }
        return out
    }
}
