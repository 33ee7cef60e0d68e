/// A run's check items, each made once on first use: by the worker that sends it, or by the run's
/// planning task that goes through them all in order ahead of the workers. So the first request
/// is sent as soon as its own item is built, not after every request of the run was built, and the
/// building is shared by the threads that send. Every item is the one `make` gives for its index,
/// whoever made it.
public final class CheckItems: @unchecked Sendable {
    public let count: Int
    /// `service.target` (the live items' names), known before anything is built: the report's column width.
    public let names: [String]
    private let make: @Sendable (Int) -> CheckItem
    private let slots: UnsafeMutablePointer<CheckItem?>
    /// Slot `i` is read and written only under `stripes[i % stripes.count]`.
    private let stripes: [Mutex]

    /// Items made on demand by `make(i)`, `names[i]` being item `i`'s name.
    public init(names: [String], make: @escaping @Sendable (Int) -> CheckItem) {
        count = names.count
        self.names = names
        self.make = make
        slots = .allocate(capacity: names.count)
        slots.initialize(repeating: nil, count: names.count)
        stripes = (0..<64).map { _ in Mutex() }
    }

    /// Items made already (`--stub`'s, a test's).
    public convenience init(_ items: [CheckItem]) {
        self.init(names: items.map(\.name)) { items[$0] }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Item `i`, made now if nobody made it yet (while its stripe is held: one maker per item).
    public subscript(i: Int) -> CheckItem {
        stripes[i % stripes.count].withLock {
            if let item = slots[i] { return item }
            let item = make(i)
            slots[i] = item
            return item
        }
    }

    /// Makes every item not made yet, in order, and returns them all.
    public func all() -> [CheckItem] {
        (0..<count).map { self[$0] }
    }
}
