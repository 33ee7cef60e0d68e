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

    /// Before a command that reads a large target file and exits (`list`, `validate`, `check`): the heap grows
    /// 32 MiB at a time, not a page (a second thread's heap grew by an `mprotect` call each time,
    /// thousands of them for a file of 10,000 targets), and keeps that much when memory is freed
    /// (targets are decoded and their nodes freed as the file is read, then memory is taken again).
    /// Untouched memory is not resident, and the process exits soon after: not for `mock`, `load`
    /// or anything long-running. The heaps are in 2 MiB pages (`ShortLivedHeap`).
    static func growMemoryInLargeSteps() {
        #if canImport(Glibc)
        // glibc's `mallopt`; <malloc.h> is not in the Glibc module.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let (topPad, mmapThreshold): (Int32, Int32) = (-2, -3)
        guard let mallopt = dlsym(nil, "mallopt").map({ unsafeBitCast($0, to: Mallopt.self) }) else { return }
        _ = mallopt(topPad, 32 << 20)
        // The heaps already made, this thread's among them, are made large at once (blocks below
        // the threshold come from the heap, not a mapping of their own), and in huge pages: this
        // thread's and those of the threads that read the file's parts or send `check`'s requests.
        ShortLivedHeap.begin(reserving: mallopt(mmapThreshold, 32 << 20) == 1)
        #endif
    }

    private final class Box<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
