import APICore
import Foundation

/// Text renderings of requests and responses for `-v`, `-i` and `show`.
enum Printer {
    /// Headers whose values are credentials: shown as •••• everywhere.
    static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    static func shown(_ header: HeaderField) -> String {
        secretHeaders.contains(header.name.lowercased()) ? "\(header.name): ••••" : "\(header.name): \(header.value)"
    }

    /// `> GET url`, the headers, and a text body (binary and large bodies as a size).
    static func request(_ r: PreparedRequest, prefix: String = "> ") -> String {
        var lines = ["\(prefix)\(r.method) \(r.url.absoluteString)"]
        lines += r.headers.map { prefix + shown($0) }
        var text = lines.joined(separator: "\n") + "\n"
        switch r.body {
        case .data(let data)?: text += prefix + "\n" + preview(data) + "\n"
        case .file(let path)?:
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            text += prefix + "\n[body from \(path)\(size.map { ", \($0) bytes" } ?? "")]\n"
        case nil: break
        }
        return text
    }

    /// The status line and headers, each line behind `prefix`.
    static func responseHead(_ r: Response, prefix: String = "", time: Bool = false) -> String {
        var first = prefix + r.statusLine
        if time { first += "  (\(Terminal.format(seconds: r.duration)))" }
        return ([first] + r.headers.map { prefix + shown($0) }).joined(separator: "\n") + "\n"
    }

    static func preview(_ data: Data, limit: Int = 4096) -> String {
        guard let text = String(data: data.prefix(limit), encoding: .utf8),
              !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) else {
            return "[\(data.count) bytes of binary data]"
        }
        return data.count > limit ? text + "… [\(data.count) bytes in all]" : text
    }

    /// The body as the terminal should see it: pretty JSON on a terminal, the exact bytes otherwise.
    static func body(_ data: Data, forTerminal: Bool) -> Data {
        guard forTerminal, !data.isEmpty else { return data }
        if let first = data.first(where: { !" \n\r\t".utf8.contains($0) }),
           first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let pretty = JSONPretty.format(data) {
            return pretty
        }
        return data.last == UInt8(ascii: "\n") ? data : data + Data("\n".utf8)
    }
}
