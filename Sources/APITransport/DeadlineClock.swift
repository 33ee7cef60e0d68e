import APISupport
import Dispatch

/// The deadlines of every exchange in flight on one Dispatch timer, armed for the earliest.
/// A timer source per exchange cost a wake-up of Dispatch's manager thread to arm it and
/// another to cancel it (an eventfd write each), a large part of a load run's CPU. Here adding a
/// deadline is a heap push under a lock, and the timer is re-armed only when the new deadline
/// is the earliest (rare: deadlines are mostly now + the same timeout).
///
/// A deadline removed before it is due frees its action at once (the action holds the
/// exchange's continuation and task); its heap entry (16 bytes) is dropped when it comes to
/// the top, or when removed entries outnumber the live ones (the heap is rebuilt).
final class DeadlineClock: @unchecked Sendable {  // `timer` is not Sendable; it is only armed under `state`'s lock
    static let shared = DeadlineClock()

    /// Where actions run (and what `Deadline` uses for its cancellation work).
    let queue = DispatchQueue(label: "apicli.deadlines")
    private let timer: DispatchSourceTimer
    private struct State {
        /// `Int` ids (not `UInt64`): a dictionary's key type is checked `Hashable` by the Swift runtime at
        /// its first use in a process, a scan of every conformance in the binary, and `Int`'s is checked anyway.
        var nextID = 0
        var live: [Int: (due: UInt64, action: @Sendable () -> Void)] = [:]
        var heap = MinHeap()
        /// Uptime nanoseconds the timer is armed for (`.max`: not armed).
        var armed: UInt64 = .max
    }
    private let state = Locked(State())

    private init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in self.fire() }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    /// Runs `action` on `queue` after `seconds`, unless `remove`d first. Returns its id.
    func add(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = now &+ UInt64(min(max(seconds, 0), 1e9) * 1e9)
        return state.withLock { s in
            s.nextID += 1
            let id = s.nextID
            s.live[id] = (due, action)
            s.heap.push((due, id))
            if due < s.armed { arm(&s, at: due) }
            return id
        }
    }

    /// Forgets a deadline that has not fired (its action is released now). False when it was no
    /// longer waiting: its time had come (its action has run or is running).
    @discardableResult
    func remove(_ id: Int) -> Bool {
        let action = state.withLock { s -> (@Sendable () -> Void)? in
            let action = s.live.removeValue(forKey: id)?.action
            if s.heap.count > 4096 && s.heap.count > 2 * s.live.count {
                s.heap = MinHeap(s.live.map { (due: $0.value.due, id: $0.key) })
            }
            return action
        }
        return action != nil  // released outside the lock
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { s -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            while let top = s.heap.top, top.due <= now || s.live[top.id] == nil {
                s.heap.pop()
                if let entry = s.live.removeValue(forKey: top.id) { due.append(entry.action) }
            }
            s.armed = .max
            if let top = s.heap.top { arm(&s, at: top.due) }
            return due
        }
        for action in due { action() }
    }

    private func arm(_ s: inout State, at due: UInt64) {
        s.armed = due
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: due))
    }
}

/// A binary min-heap of (due, id), earliest first.
private struct MinHeap {
    private var items: [(due: UInt64, id: Int)] = []

    init() {}

    init(_ items: [(due: UInt64, id: Int)]) {
        self.items = items.sorted { $0.due < $1.due }  // a sorted array is a heap
    }

    var count: Int { items.count }
    var top: (due: UInt64, id: Int)? { items.first }

    mutating func push(_ item: (due: UInt64, id: Int)) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].due < items[parent].due else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count && items[l].due < items[m].due { m = l }
            if r < items.count && items[r].due < items[m].due { m = r }
            guard m != i else { return }
            items.swapAt(i, m)
            i = m
        }
    }
}
