import APISupport
import APIDiagnostics
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bounds a whole exchange (curl's --max-time): `work` runs in its own task, a Dispatch timer (the
/// shared `DeadlineClock`, or the caller's timer; not Swift's cooperative pool, which a busy
/// transport can starve) ends the wait, and whichever side finishes first wins without waiting for
/// the other — a cancelled transfer does not always end promptly. `onTimeout` cancels the loser.
/// `public` with `package` members only so that `bound`, which runs once a request from APILive,
/// is inlined and specialized there (`@inlinable` members of a `package` type are not; see `Locked`).
public enum Deadline {
    static let timers = DispatchQueue(label: "apicli.deadlines")

    /// A timer for `race`: one that is scheduled again later moves the deadline (an idle timeout).
    static func makeTimer() -> Locked<any DispatchSourceTimer> {
        Locked(DispatchSource.makeTimerSource(queue: timers))  // DispatchSource is not Sendable
    }

    /// `failure`: what losing throws (default: timed out after `seconds`); `timer`: the timer to
    /// arm, which the caller may push back (default: a deadline on the shared `DeadlineClock`, no
    /// timer source per exchange: arming and cancelling one woke Dispatch's manager thread twice a request).
    package static func race<T: Sendable>(_ seconds: Double, failure: APIError? = nil, timer: Locked<any DispatchSourceTimer>? = nil,
                                  onTimeout: @escaping @Sendable () -> Void = {},
                                  _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let gate = Locked(false)
        let box = Locked<Task<Void, Never>?>(nil)
        let failure = failure ?? APIError.timedOut(seconds)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                let lose: @Sendable () -> Void = {
                    guard gate.claim() else { return }
                    box.current?.cancel()
                    onTimeout()
                    continuation.resume(throwing: failure)
                }
                // Disarmed when the work wins: a pending timer would hold the finished task and its
                // continuation until the deadline (60 s by default), gigabytes in a load run.
                let disarm: @Sendable () -> Void
                if let timer {
                    let source = timer.current
                    source.schedule(deadline: .now() + seconds)
                    source.setEventHandler {
                        timer.current.cancel()
                        lose()
                    }
                    disarm = { timer.current.cancel() }
                } else {
                    let id = DeadlineClock.shared.add(after: seconds, lose)
                    disarm = { DeadlineClock.shared.remove(id) }
                }
                box.set(Task {
                    do {
                        let value = try await work()
                        if gate.claim() { disarm(); continuation.resume(returning: value) }
                    } catch {
                        if gate.claim() { disarm(); continuation.resume(throwing: error) }
                    }
                })
                timer?.current.resume()
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

    /// `work` in the calling task, not a task of its own (one enqueue and thread wake-up less per
    /// exchange), for work that ends at once when `onTimeout` cancels it (async-http-client fails a
    /// cancelled request's future right away). At the deadline `onTimeout` runs (on the shared
    /// `DeadlineClock`'s queue) and what `work` then throws becomes timed out after `seconds`. The
    /// task's own cancellation cancels the work the same way.
    @inlinable
    nonisolated(nonsending) package static func bound<T>(_ seconds: Double, onTimeout: @escaping @Sendable () -> Void,
                         _ work: nonisolated(nonsending) () async throws -> T) async throws -> T {
        // Whether the deadline came is what removing it says (no flag of its own: a lock and three
        // allocations a request).
        let id = arm(seconds, onTimeout)
        do {
            let value = try await withTaskCancellationHandler(operation: work) {
                cancelSoon(onTimeout)
            }
            disarm(id)
            return value
        } catch {
            if !disarm(id) { throw timedOut(seconds) }
            throw error
        }
    }

    /// `bound`'s deadline on the shared `DeadlineClock`: its id.
    @usableFromInline
    package static func arm(_ seconds: Double, _ onTimeout: @escaping @Sendable () -> Void) -> Int {
        DeadlineClock.shared.add(after: seconds, onTimeout)
    }

    /// Forgets `bound`'s deadline; false when its time had come.
    @usableFromInline @discardableResult
    package static func disarm(_ id: Int) -> Bool {
        DeadlineClock.shared.remove(id)
    }

    /// What `bound` throws when its deadline came (`APIError` is `package`, out of `@inlinable` code's reach).
    @usableFromInline
    package static func timedOut(_ seconds: Double) -> any Error {
        APIError.timedOut(seconds)
    }

    /// `onTimeout` on the deadlines' queue: not under the cancelled task's lock.
    @usableFromInline
    package static func cancelSoon(_ onTimeout: @escaping @Sendable () -> Void) {
        timers.async { onTimeout() }
    }
}
