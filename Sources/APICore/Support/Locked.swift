#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that many threads share, behind a lock: the one lock type of apicli.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex = Mutex()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }

    public func set(_ newValue: Value) { withLock { $0 = newValue } }
}

extension Locked where Value == Bool {
    /// Sets the flag; true only for the first caller (a continuation resumed once).
    public func claim() -> Bool {
        withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}

/// A pthread mutex (NSLock is Foundation's, which this module does not import). Not recursive.
public final class Mutex: @unchecked Sendable {
    private let handle = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(handle, nil)
    }

    deinit {
        pthread_mutex_destroy(handle)
        handle.deallocate()
    }

    public func lock() { pthread_mutex_lock(handle) }
    public func unlock() { pthread_mutex_unlock(handle) }

    /// Runs `body` while holding the lock.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
