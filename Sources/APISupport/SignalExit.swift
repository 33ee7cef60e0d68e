import Atomics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How SIGINT (Ctrl-C), SIGTERM and SIGHUP end the process: the files still being written
/// (`removeOnExit`) removed, one line on stderr (`apicli: interrupted`), exit 128 + the signal's
/// number (130, 143, 129: docs/exit-codes.md). `leave` does it, from a signal handler or any
/// thread; it only calls what a signal handler may (unlink, rmdir, write, _exit), reads the list
/// of paths through atomics and never takes a lock, so it cannot deadlock on the code it interrupted.
///
/// Two ways to reach it: `handleDirectly` installs it as the signals' handler (no thread, nothing
/// set up: a stub call, `list`, `validate`), for a process where the thread setting up receives the
/// signals; where it does not (libdispatch's threads block every signal), the executable's
/// Dispatch sources call it from their thread (`Terminal.setUp`).
package enum SignalExit {
    /// The signals handled.
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// True when the calling thread does not block the handled signals, so that a handler runs
    /// for them (on this thread, or any other that does not block them).
    package static func callingThreadReceives() -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return signals.allSatisfy { sigismember(&current, $0) == 0 }
    }

    /// `leave` as the handler of the signals: for a process whose calling thread receives them.
    /// While it runs, the other two are held back on that thread (no handler interrupts it).
    package static func handleDirectly() {
        prepare()
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { number in SignalExit.leave(number) }
        #else
        action.__sigaction_u.__sa_handler = { number in SignalExit.leave(number) }
        #endif
        sigemptyset(&action.sa_mask)
        for number in signals { sigaddset(&action.sa_mask, number) }
        action.sa_flags = SA_RESTART
        for number in signals { sigaction(number, &action, nil) }
    }

    /// What a handled signal does: removes the registered paths, says so on stderr, exits with
    /// 128 + `number`. Safe in a signal handler. Of two signals at once (two threads), the first
    /// leaves and the second returns at once: the process is ending.
    package static func leave(_ number: Int32) {
        guard leaving.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return }
        removeRegistered()
        let message: StaticString = number == SIGINT ? "\napicli: interrupted\n"
            : number == SIGTERM ? "\napicli: terminated\n" : "\napicli: hung up\n"
        _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
        _exit(128 + number)
    }

    // MARK: Paths removed on the way out

    /// A registered path (`removeOnExit`), for `keep`.
    package struct Ticket: @unchecked Sendable {
        fileprivate let node: UnsafeMutableRawPointer
    }

    /// Registers `path` (a file, or an empty folder with `isFolder`) to be removed if a signal
    /// ends the process before `keep`. Nil for a path longer than `maxPath` bytes (not registered).
    package static func removeOnExit(_ path: String, isFolder: Bool = false) -> Ticket? {
        var path = path
        return path.withUTF8 { bytes -> Ticket? in
            guard bytes.count <= maxPath, !bytes.contains(0) else { return nil }
            prepare()
            let node = claimNode()
            let sequence = field(node, 0)
            // A writer's sequence is odd while the bytes change; a reader that sees it change copies again.
            sequence.wrappingIncrement(ordering: .acquiringAndReleasing)
            let text = (node + headerSize).assumingMemoryBound(to: UInt8.self)
            text.update(from: bytes.baseAddress!, count: bytes.count)
            text[bytes.count] = 0
            sequence.wrappingIncrement(ordering: .acquiringAndReleasing)
            field(node, 1).store(isFolder ? folder : file, ordering: .releasing)
            return Ticket(node: node)
        }
    }

    /// No longer removed on exit (committed, or removed already); its slot is used again.
    package static func keep(_ ticket: Ticket) {
        field(ticket.node, 1).store(free, ordering: .releasing)
    }

    /// The longest path registered, in bytes.
    package static let maxPath = 4096

    // A node: three atomic words (sequence, state, next node's address), then the path, NUL-ended.
    private static let headerSize = 3 * MemoryLayout<Int>.stride
    private static let nodeSize = headerSize + maxPath + 1
    private static let free = 0, file = 1, folder = 2, claimed = 3

    /// The first node's address (0: none). Nodes are never freed, only used again.
    private static let head = UnsafeAtomic<Int>.create(0)
    /// Set by the first `leave`.
    private static let leaving = UnsafeAtomic<Int>.create(0)
    /// Where `leave` copies a path it reads, so that a path rewritten meanwhile is not used torn.
    nonisolated(unsafe) private static let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: maxPath + 1)

    /// Makes the statics before any handler can need them (a static is made on first use, which
    /// allocates: not in a signal handler).
    private static func prepare() {
        _ = head.load(ordering: .relaxed)
        _ = leaving.load(ordering: .relaxed)
        _ = scratch
    }

    private static func field(_ node: UnsafeMutableRawPointer, _ index: Int) -> UnsafeAtomic<Int> {
        UnsafeAtomic<Int>(at: (node + index * MemoryLayout<Int>.stride).assumingMemoryBound(to: UnsafeAtomic<Int>.Storage.self))
    }

    /// A free node, claimed; a new one pushed on the list when none is free.
    private static func claimNode() -> UnsafeMutableRawPointer {
        var address = head.load(ordering: .acquiring)
        while address != 0 {
            let node = UnsafeMutableRawPointer(bitPattern: address)!
            if field(node, 1).compareExchange(expected: free, desired: claimed, ordering: .acquiringAndReleasing).exchanged {
                return node
            }
            address = field(node, 2).load(ordering: .acquiring)
        }
        let node = UnsafeMutableRawPointer.allocate(byteCount: nodeSize, alignment: MemoryLayout<Int>.alignment)
        let words = node.bindMemory(to: UnsafeAtomic<Int>.Storage.self, capacity: 3)
        words.initialize(to: UnsafeAtomic<Int>.Storage(0))
        (words + 1).initialize(to: UnsafeAtomic<Int>.Storage(claimed))
        (words + 2).initialize(to: UnsafeAtomic<Int>.Storage(0))
        (node + headerSize).initializeMemory(as: UInt8.self, repeating: 0, count: maxPath + 1)
        var first = head.load(ordering: .acquiring)
        while true {
            field(node, 2).store(first, ordering: .releasing)
            let (exchanged, original) = head.compareExchange(expected: first, desired: Int(bitPattern: node), ordering: .acquiringAndReleasing)
            if exchanged { return node }
            first = original
        }
    }

    /// Unlinks every registered file, then removes the registered folders (deepest first: a
    /// folder empties as the ones in it go, so rounds until one removes nothing). `leave`'s first step.
    package static func removeRegistered() {
        forEachRegistered(file) { unlink($0) }
        for _ in 0..<16 {
            var removed = false
            forEachRegistered(folder) { if rmdir($0) == 0 { removed = true } }
            if !removed { break }
        }
    }

    private static func forEachRegistered(_ kind: Int, _ body: (UnsafePointer<CChar>) -> Void) {
        var address = head.load(ordering: .acquiring)
        while address != 0 {
            let node = UnsafeMutableRawPointer(bitPattern: address)!
            let sequence = field(node, 0)
            let before = sequence.load(ordering: .acquiring)
            if before & 1 == 0, field(node, 1).load(ordering: .acquiring) == kind {
                let text = (node + headerSize).assumingMemoryBound(to: UInt8.self)
                var i = 0
                while i < maxPath, text[i] != 0 { scratch[i] = text[i]; i += 1 }
                scratch[i] = 0
                if sequence.load(ordering: .acquiring) == before {
                    UnsafeRawPointer(scratch).withMemoryRebound(to: CChar.self, capacity: i + 1) { body($0) }
                }
            }
            address = field(node, 2).load(ordering: .acquiring)
        }
    }
}
