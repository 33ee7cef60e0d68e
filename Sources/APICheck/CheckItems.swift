import APISupport
/// A run's check items, made one after another by the run's planning task (`makeAll`, on Swift's
/// pool) while the workers already send: a worker that takes item `i` waits, suspended, until it
/// is made. So the first request is sent as soon as its own item is built, not after every request
/// of the run was built, and building (which may run a secret command) never blocks the event
/// loops the requests are on. Every item is the one `make` gives for its index.
package final class CheckItems: @unchecked Sendable {
    package let count: Int
    /// The items' names, known before anything is built: the report's column width.
    package let names: [String]
    private let make: @Sendable (Int) -> CheckItem
    /// `slots[i]` for `i < made` is written once, under `lock`; read under it.
    private let slots: UnsafeMutablePointer<CheckItem?>
    private let lock = Mutex()
    private var made = 0
    /// The worker waiting for item `i`, by `i` (each item is taken by one worker).
    private var waiting: [Int: CheckedContinuation<CheckItem, Never>] = [:]

    /// Items made in order by `make(i)` (`makeAll`), `names[i]` being item `i`'s name.
    package init(names: [String], make: @escaping @Sendable (Int) -> CheckItem) {
        count = names.count
        self.names = names
        self.make = make
        slots = .allocate(capacity: names.count)
        slots.initialize(repeating: nil, count: names.count)
    }

    /// Items made already (`--stub`'s, a test's).
    package convenience init(_ items: [CheckItem]) {
        self.init(names: items.map(\.name)) { items[$0] }
        for (i, item) in items.enumerated() { slots[i] = item }
        made = items.count
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Makes every item not made yet, in order, handing each to the worker waiting for it.
    package func makeAll() {
        lock.lock()
        var i = made
        lock.unlock()
        while i < count {
            let item = make(i)
            lock.lock()
            slots[i] = item
            made = i + 1
            let waiter = waiting.removeValue(forKey: i)
            lock.unlock()
            waiter?.resume(returning: item)
            i += 1
        }
    }

    /// Item `i`, once it is made.
    package func item(_ i: Int) async -> CheckItem {
        if let item = lock.withLock({ i < made ? slots[i] : nil }) { return item }
        return await withCheckedContinuation { continuation in
            lock.lock()
            if i < made, let item = slots[i] {
                lock.unlock()
                return continuation.resume(returning: item)
            }
            waiting[i] = continuation
            lock.unlock()
        }
    }

    /// Item `i`, which is made (`makeAll` returned).
    package subscript(i: Int) -> CheckItem {
        lock.withLock {
            guard i < made, let item = slots[i] else { preconditionFailure("check item \(i) read before it was made") }
            return item
        }
    }

    /// Every item, once `makeAll` returned.
    package func all() -> [CheckItem] {
        (0..<count).map { self[$0] }
    }
}
