#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A large regular file read into memory of its own, in 2 MiB pages where the kernel gives them when
/// asked (transparent huge pages, `madvise` mode): a page fault or two for a file of megabytes where
/// an array of its bytes took one a 4 KiB page (a 2.2 MB file of 10,000 targets: 540). Read, not
/// mapped: a mapped file another process truncates meanwhile would end the process (SIGBUS).
package enum HugePageRead {
    /// `body` over the bytes of the regular file at `path` (read whole, its size unchanged meanwhile),
    /// or nil when it cannot be read so (the caller reads it its usual way). The memory is given back
    /// after `body`.
    package static func withFile<T>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        #if canImport(Glibc)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0, info.st_size < Int64(Int32.max) else { return nil }
        let size = Int(info.st_size)
        let huge = 2 << 20
        // Room for the file and one byte more (to see that it did not grow), from a 2 MiB boundary.
        let length = (size + 1 + huge - 1) / huge * huge + huge
        guard let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED else { return nil }
        defer { munmap(raw, length) }
        let aligned = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: raw) + huge - 1) & ~(huge - 1))!
        _ = madvise(aligned, length - (aligned - raw), 14)  // MADV_HUGEPAGE
        let bytes = aligned.assumingMemoryBound(to: UInt8.self)
        var count = 0
        while count <= size {
            let n = read(fd, bytes + count, size + 1 - count)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        guard count == size else { return nil }
        return body(UnsafeBufferPointer(start: bytes, count: size))
        #else
        return nil
        #endif
    }
}
