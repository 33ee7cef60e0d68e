import APISupport
import APITargets
/// One target built into the request it sends: what `call`, `show`, `check` and `validate` share.
/// Its parts are shared by copies until one is changed (copy on write): a load run's user passes
/// its call down the send path for every request, and copying a target, its service and endpoint
/// field by field at every step showed in load runs' profiles.
package struct PreparedCall: Sendable {
    package init(service: Service, target: Target, endpoint: Endpoint, request: PreparedRequest, bindings: Bindings) {
        storage = CopyOnWrite(Parts(service: service, target: target, endpoint: endpoint, request: request, bindings: bindings))
    }

    package var service: Service {
        _read { yield storage.value.service }
        _modify { yield &storage.value.service }
    }
    package var target: Target {
        _read { yield storage.value.target }
        _modify { yield &storage.value.target }
    }
    package var endpoint: Endpoint {
        _read { yield storage.value.endpoint }
        _modify { yield &storage.value.endpoint }
    }
    /// Before the plugins' `prepare` (the `Caller` applies them to each attempt).
    package var request: PreparedRequest {
        _read { yield storage.value.request }
        _modify { yield &storage.value.request }
    }
    /// What the target's samples expand with.
    package var bindings: Bindings {
        _read { yield storage.value.bindings }
        _modify { yield &storage.value.bindings }
    }

    /// Set when the target's `when:` is false: why it is not sent (`Workspace.build`). Every
    /// command that sends reports it as skipped; the `Caller` never sends it.
    package var skipReason: String? {
        _read { yield storage.value.skipReason }
        _modify { yield &storage.value.skipReason }
    }

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
