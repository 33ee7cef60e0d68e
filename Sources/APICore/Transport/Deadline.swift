import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bounds a whole exchange (curl's --max-time): `work` runs in its own task, a Dispatch timer (not
/// Swift's cooperative pool, which a busy transport can starve) ends the wait, and whichever side
/// finishes first wins without waiting for the other — a cancelled transfer does not always end
/// promptly. `onTimeout` cancels the loser.
enum Deadline {
    static let timers = DispatchQueue(label: "apicli.deadlines")

    /// A timer for `race`: one that is scheduled again later moves the deadline (an idle timeout).
    static func makeTimer() -> Locked<any DispatchSourceTimer> {
        Locked(DispatchSource.makeTimerSource(queue: timers))  // DispatchSource is not Sendable
    }

    /// `failure`: what losing throws (default: timed out after `seconds`); `timer`: the timer to
    /// arm, which the caller may push back (default: a new one).
    static func race<T: Sendable>(_ seconds: Double, failure: APIError? = nil, timer: Locked<any DispatchSourceTimer>? = nil,
                                  onTimeout: @escaping @Sendable () -> Void = {},
                                  _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let gate = Locked(false)
        let box = Locked<Task<Void, Never>?>(nil)
        let failure = failure ?? APIError.timedOut(seconds)
        // A timer source, cancelled when the work wins: a pending `asyncAfter` would hold the
        // finished task and its continuation until the deadline (60 s by default) — about 10 KiB
        // a request, gigabytes in a load run.
        let timer = timer ?? makeTimer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                let source = timer.current
                source.schedule(deadline: .now() + seconds)
                source.setEventHandler {
                    timer.current.cancel()
                    guard gate.claim() else { return }
                    box.current?.cancel()
                    onTimeout()
                    continuation.resume(throwing: failure)
                }
                box.set(Task {
                    do {
                        let value = try await work()
                        if gate.claim() { timer.current.cancel(); continuation.resume(returning: value) }
                    } catch {
                        if gate.claim() { timer.current.cancel(); continuation.resume(throwing: error) }
                    }
                })
                source.resume()
            }
        } onCancel: {
            // Not here, under the cancelled task's lock: cancelling a URLSession task from a
            // cancellation handler can deadlock FoundationNetworking.
            timers.async {
                box.current?.cancel()
                onTimeout()
            }
        }
    }
}
