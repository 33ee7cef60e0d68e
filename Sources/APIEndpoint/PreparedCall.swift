import APISupport
import APITargets
/// One target built into the request it sends: what `call`, `show`, `check` and `validate` share.
/// Its parts are shared by copies until one is changed (copy on write): a load run's user passes
/// its call down the send path for every request, and copying a target, its service and endpoint
/// field by field at every step showed in load runs' profiles.
/// The small parts are read by getters that copy one field in place (`CopyOnWrite.pointer`); the
/// large ones (service, target, endpoint, bindings) are lent by `_read` straight from the storage,
/// without a second coroutine (`CopyOnWrite.value`) whose frame was allocated on every read from
/// another stage.
package struct PreparedCall: Sendable {
    package init(service: Service, target: Target, endpoint: Endpoint, request: PreparedRequest, bindings: Bindings) {
        storage = CopyOnWrite(Parts(service: service, target: target, endpoint: endpoint, request: request, bindings: bindings))
    }

    package var service: Service {
        _read { yield storage.pointer.pointee.service }
        _modify { yield &storage.value.service }
    }
    package var target: Target {
        _read { yield storage.pointer.pointee.target }
        _modify { yield &storage.value.target }
    }
    package var endpoint: Endpoint {
        _read { yield storage.pointer.pointee.endpoint }
        _modify { yield &storage.value.endpoint }
    }
    /// Before the plugins' `prepare` (the `Caller` applies them to each attempt).
    package var request: PreparedRequest {
        get { storage.pointer.pointee.request }
        _modify { yield &storage.value.request }
    }
    /// What the target's samples expand with.
    package var bindings: Bindings {
        _read { yield storage.pointer.pointee.bindings }
        _modify { yield &storage.value.bindings }
    }

    /// Set when the target's `when:` is false: why it is not sent (`Workspace.build`). Every
    /// command that sends reports it as skipped; the `Caller` never sends it.
    package var skipReason: String? {
        get { storage.pointer.pointee.skipReason }
        _modify { yield &storage.value.skipReason }
    }

    // What the send path and `check` read of every call, one field each: from another stage,
    // `target`, `endpoint` and `bindings` lend the whole value through a `_read` coroutine whose
    // frame is allocated on every read.
    /// `target.until`.
    package var until: Until? { storage.pointer.pointee.target.untilBox?.value }  // `target.until` (a getter) copied the target
    /// `target.stream?.reconnects` (0 without `stream:`).
    package var reconnects: Int { storage.pointer.pointee.target.stream?.reconnects ?? 0 }
    /// `target.expect`.
    package var expect: Expectations? { storage.pointer.pointee.target.expect }
    /// `endpoint.validation`.
    package var validation: Validation { storage.pointer.pointee.endpoint.validation }
    /// `endpoint.credential`.
    package var credential: Credential? { storage.pointer.pointee.endpoint.credential }
    /// `bindings.unset`.
    package var unset: Bindings.Unset { storage.pointer.pointee.bindings.unset }

    private struct Parts: Sendable {
        var service: Service
        var target: Target
        var endpoint: Endpoint
        var request: PreparedRequest
        var bindings: Bindings
        var skipReason: String? = nil
    }

    private var storage: CopyOnWrite<Parts>
}
