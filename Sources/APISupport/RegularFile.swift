#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file read whole, with the checks every reader of a target file needs (open it with
/// `O_NONBLOCK`, so that a named pipe put in its place is refused here rather than waited on): it is a regular
/// file, and it has exactly the size `fstat` gave (one byte more is asked for, so a file that grew
/// meanwhile is seen). `TargetFile.regularFileBytes` reads into an array, `HugePageRead` into memory
/// of its own.
package enum RegularFile {
    /// The size of the regular file open as `fd`; nil for anything else.
    package static func size(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 0 else { return nil }
        return Int(info.st_size)
    }

    /// Reads the file open as `fd` into `buffer`, which has room for `size` + 1 bytes: true when it
    /// read exactly `size` bytes and then the end.
    package static func read(_ fd: Int32, into buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Bool {
        var count = 0
        while count <= size {
            #if canImport(Glibc)
            let n = Glibc.read(fd, buffer + count, size + 1 - count)
            #else
            let n = Darwin.read(fd, buffer + count, size + 1 - count)
            #endif
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return n == 0 && count == size }
            count += n
        }
        return false
    }
}
