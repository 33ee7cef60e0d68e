/// The elements of the collections a parser is reading, innermost collection's last: each
/// collection pushes its elements while it is read and, at its end, moves them out into an array of
/// exactly their number (`pop(from:)`). Appending to an array of its own instead grows it 1, 2, 4,
/// 8… (a new buffer and a move each time) and leaves the spare capacity in the tree.
final class ScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func push(_ element: consuming Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The elements from `start` on, moved into an array of exactly their number (oldest first);
    /// the stack ends at `start`. (Not `Array(unsafeUninitializedCapacity:)`: it allocates through
    /// generic code that looks the storage type up at run time, ~330 instructions an array.)
    func pop(from start: Int) -> [Element] {
        let n = count - start
        guard n > 0 else { return [] }
        var out: [Element] = []
        out.reserveCapacity(n)
        for i in start..<count { out.append((base + i).move()) }
        count = start
        return out
    }
}

extension ScratchStack where Element == Node.Pair {
    /// The mark of the first pair from `start` on whose key is the scalar `text`.
    func firstKeyMark(from start: Int, _ text: String) -> Mark? {
        // By length first: the keys of a mapping differ, and a failed String == is not cheap.
        let length = text.utf8.count
        var i = start
        while i < count {
            if case .scalar(let s) = base[i].key.content, s.value.utf8.count == length, s.value == text { return base[i].key.mark }
            i += 1
        }
        return nil
    }

    /// Each scalar key from `start` on, with its mark.
    func forEachKey(from start: Int, _ body: (String, Mark) -> Void) {
        var i = start
        while i < count {
            if case .scalar(let s) = base[i].key.content { body(s.value, base[i].key.mark) }
            i += 1
        }
    }
}
