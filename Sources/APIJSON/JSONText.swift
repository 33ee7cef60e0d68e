/// JSON text for strings: the one escaping every writer of JSON uses (bodies, reports, redaction).
package enum JSONText {
    package static func writeString(_ s: String, into out: inout String) {
        out += "\""
        // Nothing to escape (no byte of a C0 control, a quote, a backslash, DEL, nor 0xC2, the lead byte of a
        // C1 control): the text as it is, in one go.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C0, and DEL and C1 too: valid raw in JSON, but a terminal acts on them (and the
            // console would show them as `\xHH`, which is not JSON)
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
