import APIDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written line by line while a command runs (`load --jsonl`), for another program to read
/// as it grows: created (or emptied) at once, each line one whole `write`; `-` is stdout. Not
/// through `PartialFile`: a reader follows it while it is written.
package final class LineFile: @unchecked Sendable {
    private let fd: Int32
    private let path: String

    package static func create(_ path: String) throws(APIError) -> LineFile {
        if path == "-" { return LineFile(fd: STDOUT_FILENO, path: "stdout") }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw OutputFile.failure(path) }
        return LineFile(fd: fd, path: path)
    }

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Whether this is stdout (`-`).
    package var isStdout: Bool { fd == STDOUT_FILENO }

    package func write(_ text: String) throws(APIError) {
        var text = text
        let ok = text.withUTF8 { OutputFile.writeAll(UnsafeRawBufferPointer($0), to: fd) }
        if !ok { throw OutputFile.failure(path) }
    }

    deinit { if fd != STDOUT_FILENO { _ = close(fd) } }
}
