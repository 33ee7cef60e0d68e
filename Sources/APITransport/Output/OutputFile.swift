import APISupport
import APIDiagnostics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole file at once (reports, imported and recorded target files) so that a failure
/// never leaves a partial file nor clobbers the old one: through `PartialFile`, the one
/// temporary-file-and-rename of apicli (special destinations such as `/dev/stdout` are written in place).
package enum OutputFile {
    /// `mode`: the new file's permissions (default: what a new file gets under the umask).
    package static func write(_ data: Data, to path: String, mode: mode_t? = nil) throws(APIError) {
        let file = try PartialFile.create(for: path)
        defer { file.discard() }
        try file.write(data)
        try file.commit(mode: mode)
    }

    /// Writes every byte (retrying short writes and EINTR); false with errno set on failure.
    static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        guard var p = raw.baseAddress else { return true }
        var left = raw.count
        while left > 0 {
            let n = POSIX.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            p += n
            left -= n
        }
        return true
    }

    static func failure(_ path: String) -> APIError {
        .output("cannot write \(path): \(String(cString: strerror(errno)))")
    }
}

