import APISupport
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The deadlines of every exchange in flight on one Dispatch timer, armed for the earliest.
/// A timer source per exchange cost a wake-up of Dispatch's manager thread to arm it and
/// another to cancel it (an eventfd write each), a large part of a load run's CPU. Here adding a
/// deadline is a heap push under a lock, and the timer is re-armed only when the new deadline
/// is the earliest (rare: deadlines are mostly now + the same timeout).
///
/// A deadline lives in a slot (reused: no dictionary, whose hashing was a third of a deadline's
/// cost, twice a request); its id is the slot and the slot's generation, so an id whose slot was
/// freed and taken again finds nothing. A deadline removed before it is due frees its action at
/// once (the action holds the exchange's continuation and task); its heap entry (16 bytes) is
/// dropped when it comes to the top, or when removed entries outnumber the live ones (the heap
/// is rebuilt).
final class DeadlineClock: @unchecked Sendable {  // `timer` is not Sendable; it is only armed under `state`'s lock
    static let shared = DeadlineClock()

    /// Where actions run (and what `Deadline` uses for its cancellation work).
    let queue = DispatchQueue(label: "apicli.deadlines")
    private let timer: DispatchSourceTimer
    private struct Slot {
        var generation: UInt32 = 0
        var due: UInt64 = 0
        /// nil: free.
        var action: (@Sendable () -> Void)?
    }
    private struct State {
        var slots: [Slot] = []
        var free: [Int] = []
        var live = 0
        var heap = MinHeap()
        /// Uptime nanoseconds the timer is armed for (`.max`: not armed).
        var armed: UInt64 = .max

        /// The slot of a live deadline `id`, or nil.
        func slot(of id: Int) -> Int? {
            let index = id & 0xFFFF_FFFF
            guard index < slots.count, slots[index].action != nil, UInt32(truncatingIfNeeded: id >> 32) == slots[index].generation else { return nil }
            return index
        }

        /// Frees slot `index`, returning its action.
        mutating func take(_ index: Int) -> (@Sendable () -> Void)? {
            let action = slots[index].action
            slots[index].action = nil
            slots[index].generation &+= 1
            free.append(index)
            live -= 1
            return action
        }
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
        let now = Self.coarseNow()
        let due = now &+ UInt64(min(max(seconds, 0), 1e9) * 1e9)
        return state.withLock { s in
            let index: Int
            if let reused = s.free.popLast() {
                index = reused
            } else {
                index = s.slots.count
                s.slots.append(Slot())
            }
            s.slots[index].due = due
            s.slots[index].action = action
            s.live += 1
            let id = Int(s.slots[index].generation) << 32 | index
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
            guard let index = s.slot(of: id) else { return nil }
            let action = s.take(index)
            if s.heap.count > 4096 && s.heap.count > 2 * s.live {
                s.heap = MinHeap(s.slots.indices.compactMap { i in
                    s.slots[i].action == nil ? nil : (due: s.slots[i].due, id: Int(s.slots[i].generation) << 32 | i)
                })
            }
            return action
        }
        return action != nil  // released outside the lock
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { s -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            while let top = s.heap.top {
                let index = s.slot(of: top.id)
                guard top.due <= now || index == nil else { break }
                s.heap.pop()
                if let index, let action = s.take(index) { due.append(action) }
            }
            s.armed = .max
            if let top = s.heap.top { arm(&s, at: top.due) }
            return due
        }
        for action in due { action() }
    }

    /// Uptime nanoseconds on `DispatchTime`'s clock, never behind it: on Linux the kernel's coarse
    /// monotonic clock (a read of memory, where the precise clock reads the time-stamp counter and
    /// scales it: a deadline is added every request) plus its resolution (a tick, 1–4 ms), so a
    /// deadline may fire that much late, never early.
    static func coarseNow() -> UInt64 {
        #if os(Linux)
        var now = timespec()
        guard clock_gettime(CLOCK_MONOTONIC_COARSE, &now) == 0 else { return DispatchTime.now().uptimeNanoseconds }
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec) &+ coarseResolution
        #else
        return DispatchTime.now().uptimeNanoseconds
        #endif
    }

    #if os(Linux)
    private static let coarseResolution: UInt64 = {
        var res = timespec()
        guard clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 else { return 10_000_000 }
        return UInt64(res.tv_sec) &* 1_000_000_000 &+ UInt64(res.tv_nsec)
    }()
    #endif

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
