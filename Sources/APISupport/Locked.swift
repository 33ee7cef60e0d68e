#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that many threads share, behind a lock: the one lock type of apicli.
/// The mutex and the value live behind pointers of its own: no second object to count references
/// to, and no run-time exclusivity check of a class's `var` on every access (a load run takes a
/// dozen locks a request).
/// Inlinable: every stage specializes it for its value (unspecialized across modules, each access
/// went through the runtime's generic metadata). Public, its members not: Swift inlines the
/// `@inlinable` members of a public type into other modules, not those of a `package` type.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline
    let value: UnsafeMutablePointer<Value>

    /// The mutex and the value share one allocation (the value after the mutex, aligned): a request
    /// makes a few of these (its canceller, a held attempt's gate), and each allocation counts.
    @inlinable
    package init(_ value: Value) {
        let offset = Self.valueOffset
        let raw = UnsafeMutableRawPointer.allocate(byteCount: offset + MemoryLayout<Value>.size,
                                                   alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<Value>.alignment))
        mutex = raw.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        pthread_mutex_init(mutex, nil)
        self.value = (raw + offset).bindMemory(to: Value.self, capacity: 1)
        self.value.initialize(to: value)
    }

    /// Where the value starts: past the mutex, rounded up to the value's alignment.
    @inlinable
    static var valueOffset: Int {
        let align = MemoryLayout<Value>.alignment
        return (MemoryLayout<pthread_mutex_t>.stride + align - 1) / align * align
    }

    deinit {
        value.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// A copy of the value.
    @inlinable
    package var current: Value { withLock { $0 } }

    @inlinable
    package func set(_ newValue: Value) { withLock { $0 = newValue } }
}

extension Locked where Value == Bool {
    /// Sets the flag; true only for the first caller (a continuation resumed once).
    @inlinable
    package func claim() -> Bool {
        withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}

/// A pthread mutex (NSLock is Foundation's, which this module does not import). Not recursive.
/// Public with inlinable members, as `Locked` (taken a few times a request by the keep-alive connector).
public final class Mutex: @unchecked Sendable {
    @usableFromInline
    let handle = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(handle, nil)
    }

    deinit {
        pthread_mutex_destroy(handle)
        handle.deallocate()
    }

    @inlinable
    package func lock() { pthread_mutex_lock(handle) }
    @inlinable
    package func unlock() { pthread_mutex_unlock(handle) }

    /// Runs `body` while holding the lock.
    @inlinable
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
