#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Transparent huge pages where the kernel gives them when asked (`madvise` mode): a page fault per
/// 2 MiB touched instead of per 4 KiB. For memory a short command fills and leaves (`HugePageRead`,
/// `ShortLivedHeap`); a huge page stays whole while any of it is used.
package enum HugePages {
    package static let size = 2 << 20

    /// Asks for huge pages in the 2 MiB pages inside `start ..< start + length` (the kernel may not).
    package static func advise(_ start: Int, _ length: Int) {
        #if canImport(Glibc)
        let from = (start + size - 1) & ~(size - 1)
        let to = (start + length) & ~(size - 1)
        guard to > from, let p = UnsafeMutableRawPointer(bitPattern: from) else { return }
        _ = madvise(p, to - from, 14)  // MADV_HUGEPAGE
        #endif
    }
}

/// A large regular file read into memory of its own, in huge pages (`HugePages`): a page fault or two
/// for a file of megabytes where an array of its bytes took one a 4 KiB page (a 2.2 MB file of
/// 10,000 targets: 540). Read, not mapped: a mapped file another process truncates meanwhile would
/// end the process (SIGBUS).
package enum HugePageRead {
    /// `body` over the bytes of the regular file at `path` (read whole at its size, `RegularFile`),
    /// or nil when it cannot be read so (the caller reads it its usual way). The memory is given back
    /// after `body`.
    package static func withFile<T>(_ path: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        #if canImport(Glibc)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a named pipe is not waited on (`RegularFile.size` refuses it)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let size = RegularFile.size(fd), size > 0, size < Int(Int32.max) else { return nil }
        // Room for the file and one byte more, from a 2 MiB boundary.
        let length = (size + 1 + HugePages.size - 1) / HugePages.size * HugePages.size + HugePages.size
        guard let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED else { return nil }
        defer { munmap(raw, length) }
        HugePages.advise(Int(bitPattern: raw), length)
        let start = (Int(bitPattern: raw) + HugePages.size - 1) & ~(HugePages.size - 1)
        let bytes = UnsafeMutablePointer<UInt8>(bitPattern: start)!
        guard RegularFile.read(fd, into: bytes, size: size) else { return nil }
        return body(UnsafeBufferPointer(start: bytes, count: size))
        #else
        return nil
        #endif
    }
}
