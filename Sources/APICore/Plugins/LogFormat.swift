import Foundation

/// Text renderings of requests and responses, with credentials hidden by a `Redactor`: what `-v`,
/// `-i` and `show` print. Text only; the caller decides where it goes.
public enum LogFormat {
    /// `> GET url`, the headers, and a text body (binary and large bodies as a size).
    public static func request(_ r: PreparedRequest, redactor: Redactor, prefix: String = "> ") -> String {
        var lines = ["\(prefix)\(r.method) \(redactor.text(r.url.absoluteString))"]
        lines += r.headers.map { prefix + line(redactor.header($0)) }
        var text = lines.joined(separator: "\n") + "\n"
        switch r.body {
        case .data(let data)?: text += prefix + "\n" + redactor.text(preview(data)) + "\n"
        case .file(let path)?:
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            text += prefix + "\n[body from \(path)\(size.map { ", \($0) bytes" } ?? "")]\n"
        case nil: break
        }
        return text
    }

    /// The status line and headers, each line behind `prefix`, optionally with the time taken.
    public static func responseHead(_ r: Response, redactor: Redactor, prefix: String = "", time: Bool = false) -> String {
        var first = prefix + r.statusLine
        if time { first += "  (\(seconds(r.duration)))" }
        return ([first] + r.headers.map { prefix + line(redactor.header($0)) }).joined(separator: "\n") + "\n"
    }

    /// `prefix` alone on a line, then the body as text (secrets hidden).
    public static func responseBody(_ r: Response, redactor: Redactor, prefix: String = "< ") -> String {
        r.body.isEmpty ? "" : prefix + "\n" + redactor.text(preview(r.body)) + "\n"
    }

    static func line(_ h: HeaderField) -> String { "\(h.name): \(h.value)" }

    /// Text as is, up to `limit` bytes; binary data as its size.
    public static func preview(_ data: Data, limit: Int = 4096) -> String {
        guard let text = String(data: data.prefix(limit), encoding: .utf8),
              !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) else {
            return "[\(data.count) bytes of binary data]"
        }
        return data.count > limit ? text + "… [\(data.count) bytes in all]" : text
    }

    /// `30`, `1.5`: seconds as a command-line number.
    public static func number(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }

    /// `850 ms`, `2 s`, `1.50 s`.
    public static func seconds(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.2f s", seconds)
    }
}
