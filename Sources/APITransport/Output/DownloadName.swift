import APISupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The file name `--download` saves to: from the response's `Content-Disposition` (`filename*`,
/// RFC 6266/8187, then `filename`), else the last segment of the URL's path, else `download`.
/// Server-chosen names are reduced to a plain name in the current folder: no folders, no leading
/// dots, no control characters (C0, DEL, C1) nor bidirectional controls.
package enum DownloadName {
    package static func derive(contentDisposition: String?, url: URL) -> String {
        if let header = contentDisposition {
            let params = parameters(header)
            if let extended = params["filename*"], let name = decodeExtended(extended).flatMap(sanitize) { return name }
            if let plain = params["filename"], let name = sanitize(plain) { return name }
        }
        let last = url.path.split(separator: "/").last.map(String.init) ?? ""
        return sanitize(last.removingPercentEscapes() ?? last) ?? "download"
    }

    /// A plain file name, or nil when nothing usable is left.
    static func sanitize(_ raw: String) -> String? {
        var name = raw.split(whereSeparator: Path.isSeparator).last.map(String.init) ?? ""
        name = String(String.UnicodeScalarView(name.unicodeScalars.filter { !Path.isHidden($0) }))
        name = name.trimmingSpaces()
        while name.hasPrefix(".") { name.removeFirst() }
        return name.isEmpty ? nil : name
    }

    /// `attachment; filename="a b.txt"; filename*=UTF-8''a%20b.txt` → lower-cased names → values
    /// (quotes and backslash escapes removed).
    static func parameters(_ header: String) -> [String: String] {
        var out: [String: String] = [:]
        var i = header.startIndex
        func skipSpaces() { while i < header.endIndex, header[i] == " " || header[i] == "\t" { i = header.index(after: i) } }
        // The disposition type.
        while i < header.endIndex, header[i] != ";" { i = header.index(after: i) }
        while i < header.endIndex {
            i = header.index(after: i)  // past ';'
            skipSpaces()
            var name = ""
            while i < header.endIndex, header[i] != "=", header[i] != ";" { name.append(header[i]); i = header.index(after: i) }
            guard i < header.endIndex, header[i] == "=" else { continue }
            i = header.index(after: i)
            skipSpaces()
            var value = ""
            if i < header.endIndex, header[i] == "\"" {
                i = header.index(after: i)
                while i < header.endIndex, header[i] != "\"" {
                    if header[i] == "\\", header.index(after: i) < header.endIndex { i = header.index(after: i) }
                    value.append(header[i])
                    i = header.index(after: i)
                }
                if i < header.endIndex { i = header.index(after: i) }
                while i < header.endIndex, header[i] != ";" { i = header.index(after: i) }
            } else {
                while i < header.endIndex, header[i] != ";" { value.append(header[i]); i = header.index(after: i) }
                value = value.trimmingSpaces()
            }
            out[name.trimmingSpaces().lowercased()] = value
        }
        return out
    }

    /// `UTF-8''na%C3%AFve.txt` → `naïve.txt` (RFC 8187; only UTF-8 and ISO-8859-1 are read).
    static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        let encoded = String(parts[2])
        if charset == "utf-8" { return encoded.removingPercentEscapes() }
        guard charset == "iso-8859-1" else { return nil }
        var bytes: [UInt8] = []
        var it = encoded.utf8.makeIterator()
        while let b = it.next() {
            if b == UInt8(ascii: "%"), let h = it.next(), let l = it.next(),
               let v = UInt8(String(decoding: [h, l], as: UTF8.self), radix: 16) {
                bytes.append(v)
            } else {
                bytes.append(b)
            }
        }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }
}
