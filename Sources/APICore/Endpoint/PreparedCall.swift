/// One target built into the request it sends: what `call`, `show`, `check` and `validate` share.
/// Its parts are shared by copies until one is changed (copy on write): a load run's user passes
/// its call down the send path for every request, and copying a target, its service and endpoint
/// field by field was a twentieth of the run's CPU.
public struct PreparedCall: Sendable {
    public init(service: Service, target: Target, endpoint: Endpoint, request: PreparedRequest, bindings: Bindings) {
        storage = Storage(Parts(service: service, target: target, endpoint: endpoint, request: request, bindings: bindings))
    }

    public var service: Service {
        _read { yield storage.parts.pointee.service }
        _modify { yield &unique().pointee.service }
    }
    public var target: Target {
        _read { yield storage.parts.pointee.target }
        _modify { yield &unique().pointee.target }
    }
    public var endpoint: Endpoint {
        _read { yield storage.parts.pointee.endpoint }
        _modify { yield &unique().pointee.endpoint }
    }
    /// Before the plugins' `prepare` (the `Caller` applies them to each attempt).
    public var request: PreparedRequest {
        _read { yield storage.parts.pointee.request }
        _modify { yield &unique().pointee.request }
    }
    /// What the target's samples expand with.
    public var bindings: Bindings {
        _read { yield storage.parts.pointee.bindings }
        _modify { yield &unique().pointee.bindings }
    }

    private struct Parts: Sendable {
        var service: Service
        var target: Target
        var endpoint: Endpoint
        var request: PreparedRequest
        var bindings: Bindings
    }

    private var storage: Storage

    /// The parts behind a pointer (a class's `var` is checked for exclusive access at run time on
    /// every read); changed only while this call holds the one reference.
    private final class Storage: @unchecked Sendable {
        let parts: UnsafeMutablePointer<Parts>

        init(_ value: Parts) {
            parts = .allocate(capacity: 1)
            parts.initialize(to: value)
        }

        deinit {
            parts.deinitialize(count: 1)
            parts.deallocate()
        }
    }

    /// The parts to change: this call's own (copied first when another call shares them).
    private mutating func unique() -> UnsafeMutablePointer<Parts> {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.parts.pointee) }
        return storage.parts
    }
}
