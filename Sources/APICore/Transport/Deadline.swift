import Foundation

/// Bounds a whole exchange (curl's --max-time): `work` runs in its own task, a Dispatch timer (not
/// Swift's cooperative pool, which a busy transport can starve) ends the wait, and whichever side
/// finishes first wins without waiting for the other — a cancelled transfer does not always end
/// promptly. `onTimeout` cancels the loser.
enum Deadline {
    private static let timers = DispatchQueue(label: "apicli.deadlines")

    static func race<T: Sendable>(_ seconds: Double, onTimeout: @escaping @Sendable () -> Void = {},
                                  _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let gate = ResumeOnce()
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                box.task = Task {
                    do {
                        let value = try await work()
                        if gate.claim() { continuation.resume(returning: value) }
                    } catch {
                        if gate.claim() { continuation.resume(throwing: error) }
                    }
                }
                timers.asyncAfter(deadline: .now() + seconds) {
                    guard gate.claim() else { return }
                    box.task?.cancel()
                    onTimeout()
                    continuation.resume(throwing: APIError.timedOut(seconds))
                }
            }
        } onCancel: {
            // Not here, under the cancelled task's lock: cancelling a URLSession task from a
            // cancellation handler can deadlock FoundationNetworking.
            timers.async {
                box.task?.cancel()
                onTimeout()
            }
        }
    }
}

/// A flag that is claimed once, from any thread.
final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}

/// The task doing the work, for cancellation (set once, before the timer can fire).
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _task: Task<Void, Never>?
    var task: Task<Void, Never>? {
        get { lock.lock(); defer { lock.unlock() }; return _task }
        set { lock.lock(); _task = newValue; lock.unlock() }
    }
}
