import APISupport
import APITransport
import NIOCore

/// Where `CheckRunner`'s workers leave results for the run's task, which takes them in batches:
/// a waiting run's task is woken at once for the planning task's news and for a full batch, and
/// otherwise within `delay` of the result that finds it waiting (a timer on the worker's event
/// loop), not once per result. Each wake is a thread woken on Swift's pool; at thousands of
/// results a second they cost more than the results. Without an event loop (`APICLI_EXECUTOR=pool`)
/// every result wakes it, as an `AsyncStream` did.
final class ResultInbox: @unchecked Sendable {
    enum Event: Sendable {
        case result(Int, CheckResult)
        /// Every item is made (`CheckItems`).
        case planned
    }

    static let batch = 64
    static let delay = TimeAmount.milliseconds(1)

    private let lock = Mutex()
    private var events: [Event] = []
    private var waiter: CheckedContinuation<[Event], Never>?
    private var finished = false
    private var timerArmed = false

    /// Leaves `event`; `loop`: the worker's, for the timer that wakes the run's task.
    func put(_ event: Event, loop: (any EventLoop)?) {
        lock.lock()
        events.append(event)
        guard waiter != nil else { return lock.unlock() }
        let now: Bool
        if case .planned = event { now = true } else { now = loop == nil || events.count >= Self.batch }
        if now { return wake() }
        if !timerArmed, let loop {
            timerArmed = true
            lock.unlock()
            loop.scheduleTask(in: Self.delay) { [self] in
                lock.lock()
                timerArmed = false
                wake()
            }
            return
        }
        lock.unlock()
    }

    /// No more events: the run's task gets what is left, then an empty batch.
    func finish() {
        lock.lock()
        finished = true
        wake()
    }

    /// The events left since the last call, waiting for some; empty once finished and drained.
    func take() async -> [Event] {
        await withCheckedContinuation { continuation in
            lock.lock()
            if events.isEmpty && !finished {
                waiter = continuation
                lock.unlock()
                return
            }
            let taken = events
            events = []
            lock.unlock()
            continuation.resume(returning: taken)
        }
    }

    /// Hands what is there to a waiting run's task; called holding the lock, which it releases.
    private func wake() {
        guard let waiter, !events.isEmpty || finished else { return lock.unlock() }
        self.waiter = nil
        let taken = events
        events = []
        lock.unlock()
        waiter.resume(returning: taken)
    }
}
