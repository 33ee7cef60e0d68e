import APISupport
import APISecrets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Text renderings of requests and responses, with credentials hidden by a `Redactor`: what `-v`,
/// `-i` and `show` print. Text only; the caller decides where it goes.
package enum LogFormat {
    /// `> GET url`, the headers, and a text body (binary and large bodies as a size).
    package static func request(_ r: PreparedRequest, redactor: Redactor, prefix: String = "> ") -> String {
        var lines = ["\(prefix)\(r.method) \(redactor.url(r.url.absoluteString))"]
        lines += r.headers.map { prefix + line(redactor.header($0)) }
        var text = lines.joined(separator: "\n") + "\n"
        switch r.body {
        case .data(let data)?: text += prefix + "\n" + redactor.text(preview(data)) + "\n"
        case .file(let path)?:
            text += prefix + "\n[body from \(path)\(sizeNote(path))]\n"
        case .multipart(let body)?:
            text += prefix + "\n[multipart/form-data, \(body.parts.count) part\(body.parts.count == 1 ? "" : "s")]\n"
            for part in body.parts {
                switch part.content {
                case .text(let value):
                    text += "  \(part.name): \(redactor.text(preview(Data(value.utf8), limit: 200)))\n"
                case .file(let path):
                    let type = part.effectiveType.map { " (\($0))" } ?? ""
                    text += "  \(part.name): \(part.effectiveFilename ?? "")\(type) from \(path)\(sizeNote(path))\n"
                }
            }
        case nil: break
        }
        return text
    }

    /// `, 1234 bytes`, or nothing when the file cannot be read.
    static func sizeNote(_ path: String) -> String {
        let size = Path.size(path)
        return size.map { ", \($0) bytes" } ?? ""
    }

    /// The status line and headers, each line behind `prefix`, optionally with the time taken.
    package static func responseHead(_ r: Response, redactor: Redactor, prefix: String = "", time: Bool = false) -> String {
        var first = prefix + r.statusLine
        if time { first += "  (\(Text.duration(r.duration)))" }
        return ([first] + r.headers.map { prefix + line(redactor.header($0)) }).joined(separator: "\n") + "\n"
    }

    /// `prefix` alone on a line, then the body as text (secrets hidden).
    package static func responseBody(_ r: Response, redactor: Redactor, prefix: String = "< ") -> String {
        if let saved = r.saved {
            let size = saved.bytesWritten
            guard size > 0 else { return "" }
            return prefix + "\n" + redactor.text(preview(saved.prefix(4096), total: Int(size))) + "\n"
        }
        return r.body.isEmpty ? "" : prefix + "\n" + redactor.text(preview(r.body)) + "\n"
    }

    static func line(_ h: HeaderField) -> String { "\(h.name): \(h.value)" }

    /// Text as is, up to `limit` bytes; binary data as its size.
    /// `total`: the whole body's size when `data` is only its start.
    package static func preview(_ data: Data, limit: Int = 4096, total: Int? = nil) -> String {
        let count = total ?? data.count
        guard let text = String(data: data.prefix(limit), encoding: .utf8),
              !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) else {
            return "[\(count) bytes of binary data]"
        }
        return count > min(limit, data.count) ? text + "… [\(count) bytes in all]" : text
    }
}
