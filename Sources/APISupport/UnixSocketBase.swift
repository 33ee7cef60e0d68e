#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A base URL that names a unix domain socket: `unix:///var/run/docker.sock:/v1.45` is the socket
/// `/var/run/docker.sock` and the base `http://localhost/v1.45` (what `Host:` and `--curl` show, as
/// `curl --unix-socket /var/run/docker.sock http://localhost/v1.45/…`). The socket path ends at the
/// first `:`; without one the whole rest is the socket and the base path is empty.
package struct UnixSocketBase: Equatable {
    package var socket: String
    package var base: String

    static let scheme = "unix://"

    /// nil when `text` is not a `unix://` base; `.failure` with what is wrong when it is a bad one.
    package static func parse(_ text: String) -> Result<UnixSocketBase, Problem>? {
        // Every base URL of every request comes here: one that starts with an ASCII letter other
        // than u cannot lower-case to `unix://`, so it is not lower-cased whole.
        if let first = text.utf8.first, first < 0x80, first | 0x20 != UInt8(ascii: "u") { return nil }
        guard text.lowercased().hasPrefix(scheme) else { return nil }
        let rest = text.dropFirst(scheme.count)
        let socket: Substring
        var path: Substring = ""
        if let colon = rest.firstIndex(of: ":") {
            socket = rest[..<colon]
            path = rest[rest.index(after: colon)...]
        } else {
            socket = rest
        }
        guard socket.hasPrefix("/") else { return .failure(Problem(text: "names no absolute socket path after unix://")) }
        guard socket.utf8.count <= 107 else { return .failure(Problem(text: "has a socket path longer than 107 bytes (the system's limit)")) }
        guard path.isEmpty || path.hasPrefix("/") else { return .failure(Problem(text: "has a base path that does not start with / after the socket's ':'")) }
        return .success(UnixSocketBase(socket: String(socket), base: "http://localhost" + path))
    }

    package struct Problem: Error, Equatable { var text: String }
}
