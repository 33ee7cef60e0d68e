import Dispatch

/// Two pieces of work at once: one on this thread, one on a second (the machines apicli runs on
/// have at least two cores). For loading large target files (`SplitParse`, `ServiceDecoder`,
/// `SampleCheck`, `list`'s rows); each caller joins the two results in file order, so nothing it reports changes.
public enum BothCores {
    /// Runs `other` on a second thread while `here` runs on this one; returns when both are done.
    public static func run<A, B: Sendable>(_ here: () -> A, _ other: @escaping @Sendable () -> B) -> (A, B) {
        let box = Box<B>()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
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
