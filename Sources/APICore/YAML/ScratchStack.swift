/// A stack of values whose top run moves out into an array of exactly its size: where the parser
/// gathers a mapping's pairs, so each mapping allocates one array instead of regrowing one per pair
/// (a target file of 10,000 targets has 80,000 mappings).
final class ScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many values the stack holds.
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func push(_ value: Element) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        (base + count).initialize(to: value)
        count += 1
    }

    /// The value at `index` (below `count`).
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count)
        return base[index]
    }

    /// Moves the values from `start` to the top out, in order; the stack then holds `start` values.
    func pop(from start: Int) -> [Element] {
        precondition(start >= 0 && start <= count)
        let n = count - start
        guard n > 0 else { return [] }
        let out = [Element](unsafeUninitializedCapacity: n) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: base + start, count: n)
            initialized = n
        }
        count = start
        return out
    }
}
