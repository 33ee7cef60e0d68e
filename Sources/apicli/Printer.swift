import APICore
import Foundation

/// Text renderings of requests and responses for `-i` and `show`, with credentials hidden by the
/// run's redactor (`Terminal.redactor`). `-v` goes through the core's `LoggerPlugin`.
enum Printer {
    static func request(_ r: PreparedRequest, prefix: String = "> ") -> String {
        LogFormat.request(r, redactor: Terminal.redactor, prefix: prefix)
    }

    static func responseHead(_ r: Response, prefix: String = "", time: Bool = false) -> String {
        LogFormat.responseHead(r, redactor: Terminal.redactor, prefix: prefix, time: time)
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
