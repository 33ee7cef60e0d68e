/// The open model's requests in flight, at most `limit` (`--max-in-flight`): the scheduler takes a
/// slot before it starts a request and, when all are taken, waits for a request to finish and
/// hand its slot over (no polling: a scheduler that looked every 200 µs woke 5,000 times a second
/// on a machine already behind). One waiter at a time: the scheduler.
final class InFlightSlots: Sendable {
    private struct State {
        var taken = 0
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())
    let limit: Int

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    var taken: Int { state.withLock { $0.taken } }

    /// Takes a slot, waiting while every slot is taken.
    func acquire() async {
        let free = state.withLock { s -> Bool in
            guard s.taken < limit else { return false }
            s.taken += 1
            return true
        }
        if free { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let free = state.withLock { s -> Bool in
                if s.taken < limit {
                    s.taken += 1
                    return true
                }
                s.waiter = c
                return false
            }
            if free { c.resume() }
        }
    }

    /// Gives a slot back: to the waiter when there is one (the count stays), else free.
    func release() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w
            }
            s.taken -= 1
            return nil
        }
        waiter?.resume()
    }
}
