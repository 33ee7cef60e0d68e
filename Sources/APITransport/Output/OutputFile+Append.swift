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

extension OutputFile {
    /// Appends to a file others write too (GitHub's `$GITHUB_STEP_SUMMARY`), creating it when
    /// missing: one `write` with O_APPEND, so the bytes land after whatever is there, whole.
    package static func append(_ data: Data, to path: String) throws(APIError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o666)
        guard fd >= 0 else { throw failure(path) }
        defer { close(fd) }
        if !data.withUnsafeBytes({ writeAll($0, to: fd) }) { throw failure(path) }
    }
}
