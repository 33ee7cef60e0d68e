import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bounds a whole exchange (curl's --max-time): `work` runs in its own task, a Dispatch timer (`DeadlineClock`, not
/// Swift's cooperative pool, which a busy transport can starve) ends the wait, and whichever side
/// finishes first wins without waiting for the other — a cancelled transfer does not always end
/// promptly. `onTimeout` cancels the loser.
enum Deadline {
    static func race<T: Sendable>(_ seconds: Double, onTimeout: @escaping @Sendable () -> Void = {},
                                  _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let gate = Locked(false)
        let box = Locked<Task<Void, Never>?>(nil)
        let clock = DeadlineClock.shared
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                // Removed when the work wins: a pending timer would hold the finished task and its
                // continuation until the deadline (60 s by default), gigabytes in a load run.
                let timer = clock.add(after: seconds) {
                    guard gate.claim() else { return }
                    box.current?.cancel()
                    onTimeout()
                    continuation.resume(throwing: APIError.timedOut(seconds))
                }
                box.set(Task {
                    do {
                        let value = try await work()
                        if gate.claim() { clock.remove(timer); continuation.resume(returning: value) }
                    } catch {
                        if gate.claim() { clock.remove(timer); continuation.resume(throwing: error) }
                    }
                })
            }
        } onCancel: {
            // Not here, under the cancelled task's lock: cancelling a URLSession task from a
            // cancellation handler can deadlock FoundationNetworking.
            clock.queue.async {
                box.current?.cancel()
                onTimeout()
            }
        }
    }
}
