#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a response body looks on stdout: pretty JSON on a terminal, the exact bytes otherwise.
enum BodyDisplay {
    static func body(_ data: Data, forTerminal: Bool) -> Data {
        guard forTerminal, !data.isEmpty else { return data }
        if let first = data.first(where: { !" \n\r\t".utf8.contains($0) }),
           first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let pretty = JSONPretty.format(data) {
            return pretty
        }
        return data.last == UInt8(ascii: "\n") ? data : data + Data("\n".utf8)
    }
}
