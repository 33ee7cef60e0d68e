import Dispatch

/// Two pieces of work at once, one on this thread and one on a second: loading a large target file
/// (`SplitParse`, `ServiceDecoder.targets`, `SampleCheck`, `list`'s rows) uses a second core. Each
/// caller joins the two results in file order, so nothing it reports changes; on one core the two
/// threads take turns.
package enum BothCores {
    /// Runs `other` on a second thread while `here` runs on this one; returns when both are done.
    package static func run<A, B: Sendable>(_ here: () -> A, _ other: @escaping @Sendable () -> B) -> (A, B) {
        let box = Box<B>()
        let done = DispatchSemaphore(value: 0)
        // A thread of its own (`Detached`), not a dispatch queue's: the caller may itself hold one of
        // the few threads of the pool a queue would wait for.
        Detached.run {
            ShortLivedHeap.adviseThisThread()
            box.value = other()
            done.signal()
        }
        let a = here()
        done.wait()
        return (a, box.value!)
    }

    /// The second thread's result, written before it signals and read after the wait.
    private final class Box<B>: @unchecked Sendable {
        var value: B?
    }
}
