/// At most `limit` of something at once, the rest waiting their turn in order (no polling: a
/// scheduler that looked every 200 µs woke 5,000 times a second on a machine already behind).
/// The open model takes one for each request in flight (`--max-in-flight`).
final class InFlightSlots: Sendable {
    private struct State {
        var taken = 0
        /// First come, first served: `waiters[head...]`.
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }
    private let state = Locked(State())
    let limit: Int

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    var taken: Int { state.withLock { $0.taken } }
    var waiting: Int { state.withLock { $0.waiters.count - $0.head } }

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
            guard s.head < s.waiters.count else {
                s.taken -= 1
                return nil
            }
            let w = s.waiters[s.head]
            s.head += 1
            if s.head == s.waiters.count {
                s.waiters.removeAll(keepingCapacity: true)
                s.head = 0
            } else if s.head >= 64, s.head * 2 >= s.waiters.count {
                s.waiters.removeFirst(s.head)
                s.head = 0
            }
            return w
        }
        waiter?.resume()
    }
}
