import APISupport
#if canImport(Glibc)
import Glibc
#endif

/// What a command leaves to the operating system: `validate` and `list` exit right after their
/// output, and freeing the graph of a large catalog (its services and their YAML trees) one object
/// at a time costs more than a tenth of their run. Kept values are never freed; call this only
/// with values a command holds until it returns, at its end.
enum LeftToExit {
    static func keep<T>(_ value: T) {
        _ = Unmanaged.passRetained(Box(value))
    }

    /// Before a command that reads a large target file and exits (`list`, `validate`): the heap grows
    /// 32 MiB at a time, not a page (a second thread's heap grew by an `mprotect` call each time,
    /// thousands of them for a file of 10,000 targets), and keeps that much when memory is freed
    /// (targets are decoded and their nodes freed as the file is read, then memory is taken again).
    /// Untouched memory is not resident, and the process exits soon after: not for `mock`, `load`
    /// or anything long-running. The heaps are in 2 MiB pages (`ShortLivedHeap`).
    static func growMemoryInLargeSteps() {
        #if canImport(Glibc)
        // glibc's `mallopt`; <malloc.h> is not in the Glibc module.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
        typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        let (topPad, mmapThreshold): (Int32, Int32) = (-2, -3)
        guard let mallopt = dlsym(nil, "mallopt").map({ unsafeBitCast($0, to: Mallopt.self) }),
              let malloc = dlsym(nil, "malloc").map({ unsafeBitCast($0, to: Malloc.self) }),
              let free = dlsym(nil, "free").map({ unsafeBitCast($0, to: Free.self) })
        else { return }
        _ = mallopt(topPad, 32 << 20)
        // This thread's heap already exists: taking 24 MiB of it at once (not a mapping of its own:
        // below the threshold) and giving it back leaves it that large, none of it touched. (Called
        // through `dlsym`: a `malloc` the compiler sees freed unused is left out.)
        if mallopt(mmapThreshold, 32 << 20) == 1 { free(malloc(24 << 20)) }
        // And in huge pages, this thread's heap and those of the threads that read the file's parts.
        ShortLivedHeap.begin()
        #endif
    }

    private final class Box<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
