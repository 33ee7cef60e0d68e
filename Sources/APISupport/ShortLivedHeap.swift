#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The heap of a command that reads a large file or runs many checks and exits (`list`, `validate`,
/// `check`) in 2 MiB pages where the kernel gives them when asked (transparent huge pages in
/// `madvise` mode): a page fault per 2 MiB touched instead of per 4 KiB (a file of 10,000 targets
/// faulted in 38 MiB a page at a time).
/// Not for `mock`, `load` or anything long-running: a huge page stays whole while any of it is used.
package enum ShortLivedHeap {
    /// Whether `begin` was called (and whether heaps are to be reserved), and the threads whose heaps
    /// were advised (a few: this thread, `BothCores`' second, `check`'s planner and event loops).
    private static let advised = Locked<(on: Bool, reserving: Bool, threads: [pthread_t])>((false, false, []))

    /// From now on, this thread's heap and those of the threads `BothCores` starts (`adviseThisThread`).
    /// `reserving`: glibc takes blocks below 32 MiB from the heap (`LeftToExit` raised the threshold),
    /// so each such heap is first made large (`reserve`).
    package static func begin(reserving: Bool = false) {
        advised.withLock { $0 = (true, reserving, [pthread_self()]) }
        if reserving { reserve() }
        adviseHugePages()
    }

    /// After `begin`: `adviseHugePages` for the calling thread's heap (a thread `BothCores` started,
    /// `check`'s planner, an event loop its workers run on), once a thread.
    package static func adviseThisThread() {
        let me = pthread_self()
        let (first, reserving) = advised.withLock { state -> (Bool, Bool) in
            guard state.on, !state.threads.contains(where: { pthread_equal($0, me) != 0 }) else { return (false, false) }
            state.threads.append(me)
            return (true, state.reserving)
        }
        guard first else { return }
        if reserving { reserve() }
        adviseHugePages()
    }

    /// Makes the calling thread's heap reachable to 56 MiB without a system call. glibc grows the
    /// heap of a thread (not the main one) by an `mprotect` call each time it needs more, a page at
    /// a time (7,400 calls in the thread that built `check`'s 10,000 requests), and keeps what it
    /// reached when memory is freed: two blocks of 28 MiB taken and given back leave it so, none of
    /// it touched (not resident).
    static func reserve() {
        #if canImport(Glibc)
        guard let (malloc, free) = opaque else { return }
        let first = malloc(28 << 20), second = malloc(28 << 20)
        free(second)
        free(first)
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc` and `free` called through `dlsym`: a block the compiler sees taken and
    /// freed (or never used) is left out, and these blocks are taken for their effect on the heap.
    private typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
    private static let opaque: (malloc: Malloc, free: Free)? = {
        guard let malloc = dlsym(nil, "malloc"), let free = dlsym(nil, "free") else { return nil }
        return (unsafeBitCast(malloc, to: Malloc.self), unsafeBitCast(free, to: Free.self))
    }()
    #endif

    /// Asks for huge pages in the heap that holds `block` (a block glibc's `malloc` gave this thread).
    package static func adviseHugePages(holding block: UnsafeMutableRawPointer) {
        #if canImport(Glibc)
        // glibc keeps a chunk's size before it, bit 2 set when the chunk is not in the main heap (the
        // break's) but in a thread's heap: a 64 MiB-aligned mapping of 64 MiB.
        let size = block.load(fromByteOffset: -8, as: Int.self)
        if size & 4 != 0 {
            let heapSize = 64 << 20
            HugePages.advise(Int(bitPattern: block) & ~(heapSize - 1), heapSize)
        } else {
            guard let brk = sbrk(0) else { return }
            HugePages.advise(Int(bitPattern: block), Int(bitPattern: brk) - Int(bitPattern: block))
        }
        #endif
    }

    /// `adviseHugePages(holding:)` for the calling thread's heap. The rest of the 2 MiB page where
    /// its free memory starts is then taken and never used: that page was touched before the advice
    /// (in 4 KiB pages, which the kernel keeps), so what the thread allocates next starts on a huge
    /// page (a thousand page faults fewer, `list` of 10,000 targets).
    static func adviseHugePages() {
        #if canImport(Glibc)
        let huge = HugePages.size
        // Large enough to come from the top of the heap, where its free memory starts.
        guard let probe = malloc(1 << 17) else { return }
        adviseHugePages(holding: probe)
        let address = Int(bitPattern: probe)
        free(probe)
        let rest = ((address + huge - 1) & ~(huge - 1)) - address - 64
        // Never freed, its pages never touched.
        if rest >= 1 << 17, let (take, _) = opaque { _ = take(rest) }
        #endif
    }
}
