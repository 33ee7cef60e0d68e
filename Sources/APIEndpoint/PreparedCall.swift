import APISupport
import APITargets
/// One target built into the request it sends: what `call`, `show`, `check` and `validate` share.
/// Its parts are shared by copies until one is changed (copy on write): a load run's user passes
/// its call down the send path for every request, and copying a target, its service and endpoint
/// field by field at every step showed in load runs' profiles.
/// Its accessors are inlinable: a stage that reads `call.target.until` reaches that field in place,
/// where an accessor in this module handed over a copy of the whole `Target` to read it from.
package struct PreparedCall: Sendable {
    package init(service: Service, target: Target, endpoint: Endpoint, request: PreparedRequest, bindings: Bindings) {
        storage = CopyOnWrite(Parts(service: service, target: target, endpoint: endpoint, request: request, bindings: bindings))
    }

    @inlinable
    package var service: Service {
        get { storage.pointer.pointee.service }
        _modify { yield &storage.value.service }
    }
    @inlinable
    package var target: Target {
        get { storage.pointer.pointee.target }
        _modify { yield &storage.value.target }
    }
    @inlinable
    package var endpoint: Endpoint {
        get { storage.pointer.pointee.endpoint }
        _modify { yield &storage.value.endpoint }
    }
    /// Before the plugins' `prepare` (the `Caller` applies them to each attempt).
    @inlinable
    package var request: PreparedRequest {
        get { storage.pointer.pointee.request }
        _modify { yield &storage.value.request }
    }
    /// What the target's samples expand with.
    @inlinable
    package var bindings: Bindings {
        get { storage.pointer.pointee.bindings }
        _modify { yield &storage.value.bindings }
    }

    /// Set when the target's `when:` is false: why it is not sent (`Workspace.build`). Every
    /// command that sends reports it as skipped; the `Caller` never sends it.
    @inlinable
    package var skipReason: String? {
        get { storage.pointer.pointee.skipReason }
        _modify { yield &storage.value.skipReason }
    }

    @usableFromInline
    struct Parts: Sendable {
        @usableFromInline var service: Service
        @usableFromInline var target: Target
        @usableFromInline var endpoint: Endpoint
        @usableFromInline var request: PreparedRequest
        @usableFromInline var bindings: Bindings
        @usableFromInline var skipReason: String? = nil
    }

    @usableFromInline
    var storage: CopyOnWrite<Parts>
}
