import APISupport
import APITransport
import NIOCore

/// At most `limit` of something at once, the rest waiting their turn in order (no polling: a
/// scheduler that looked every 200 µs woke 5,000 times a second on a machine already behind).
/// The open model takes one for each request in flight (`--max-in-flight`).
final class InFlightSlots: Sendable {
    private struct State {
        var taken = 0
        var waiters = CircularBuffer<CheckedContinuation<Void, Never>>()  // first come, first served
    }
    private let state = Locked(State())
    let limit: Int

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    var taken: Int { state.withLock { $0.taken } }
    var waiting: Int { state.withLock { $0.waiters.count } }

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
                s.waiters.append(c)
                return false
            }
            if free { c.resume() }
        }
    }

    /// Gives a slot back: to the first waiter when there is one (the count stays), else free.
    func release() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let w = s.waiters.popFirst() else {
                s.taken -= 1
                return nil
            }
            return w
        }
        waiter?.resume()
    }
}

