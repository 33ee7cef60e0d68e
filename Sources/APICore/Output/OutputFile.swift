import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a body to a file so that a failure never leaves a partial file nor clobbers the old one:
/// the bytes go to a temporary file in the destination's folder, which is renamed over the
/// destination only when complete. Destinations that are not regular files (`/dev/stdout`, a
/// FIFO, a symlink) are written in place instead — renaming over them would replace them.
public enum OutputFile {
    public static func write(_ data: Data, to path: String) throws(APIError) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            try inPlace(data, to: path)
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/.apicli-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(path) }
        let temporary = String(cString: template)
        do throws(APIError) {
            try writeAll(data, to: fd, path)
            guard fsync(fd) == 0 || errno == EINVAL else { throw failure(path) }
            close(fd)
            // mkstemp makes the file 0600; give it the mode a new file would get.
            let mask = umask(0)
            umask(mask)
            chmod(temporary, 0o666 & ~mask)
            guard rename(temporary, path) == 0 else { throw failure(path) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
    }

    private static func inPlace(_ data: Data, to path: String) throws(APIError) {
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { throw failure(path) }
        defer { close(fd) }
        try writeAll(data, to: fd, path)
    }

    private static func writeAll(_ data: Data, to fd: Int32, _ path: String) throws(APIError) {
        if !data.withUnsafeBytes({ writeAll($0, to: fd) }) { throw failure(path) }
    }

    /// Writes every byte (retrying short writes and EINTR); false with errno set on failure.
    static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        guard var p = raw.baseAddress else { return true }
        var left = raw.count
        while left > 0 {
            let n = Foundation.write(fd, p, left)
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

