import Foundation

/// A value that many threads share, behind a lock: the one lock type of apicli.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
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
