/// A value kept behind one reference that copies of its holder share until one of them changes it
/// (copy on write): for request values passed down the send path by value (`PreparedRequest`,
/// `PreparedCall`), where copying every field (a retain each) several times a request showed in
/// load runs' profiles. The value lives behind a pointer: a class's `var` would be checked
/// for exclusive access at run time on every read.
///
/// Inlinable, so each stage specializes it for its value (unspecialized, every access went
/// through the runtime's generic metadata). The type is public, its members are not: Swift inlines
/// and specializes the `@inlinable` members of a public type in other modules, not those of a
/// `package` type (those stay calls to the generic code).
public struct CopyOnWrite<Value> {
    @usableFromInline
    final class Storage {
        @usableFromInline
        let pointer: UnsafeMutablePointer<Value>

        /// `consuming`: the value is moved into place (borrowed, it was copied in and the
        /// caller's destroyed: every field retained and released once more per value made).
        @inlinable
        init(_ value: consuming Value) {
            pointer = .allocate(capacity: 1)
            pointer.initialize(to: value)
        }

        deinit {
            pointer.deinitialize(count: 1)
            pointer.deallocate()
        }
    }

    @usableFromInline
    var storage: Storage

    @inlinable
    package init(_ value: consuming Value) {
        storage = Storage(value)
    }

    @inlinable
    package var value: Value {
        _read { yield storage.pointer.pointee }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { separate() }
            yield &storage.pointer.pointee
        }
    }

    /// The value in place, for getters that read one field (`pointer.pointee.field` copies that
    /// field only) with no coroutine: a getter built on `value`'s `_read`, called from another
    /// stage, allocated the coroutine's frame on every read. Valid while this holder is.
    @inlinable
    package var pointer: UnsafePointer<Value> {
        UnsafePointer(storage.pointer)
    }

    /// The copy of a shared value, out of line: in `_modify`'s body, `Storage`'s generic metadata
    /// (for the allocation) was looked up before the uniqueness test, on every change.
    @inlinable @inline(never)
    mutating func separate() {
        storage = Storage(storage.pointer.pointee)
    }
}

// Shared storage is only read; it is changed only through the one holder that references it.
extension CopyOnWrite: @unchecked Sendable where Value: Sendable {}

extension CopyOnWrite: Equatable where Value: Equatable {
    @inlinable
    public static func == (a: Self, b: Self) -> Bool {
        a.storage === b.storage || a.storage.pointer.pointee == b.storage.pointer.pointee
    }
}
