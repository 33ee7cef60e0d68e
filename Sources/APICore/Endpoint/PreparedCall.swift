/// One target built into the request it sends: what `call`, `show`, `check` and `validate` share.
public struct PreparedCall: Sendable {
    public var service: Service
    public var target: Target
    public var endpoint: Endpoint
    /// Before the plugins' `prepare` (the `Caller` applies them to each attempt).
    public var request: PreparedRequest
    /// What the target's samples expand with.
    public var bindings: Bindings

    /// The endpoint's plugins (auth).
    public var plugins: [any Plugin] { endpoint.plugins }

    /// The request as it will be sent: after the plugins' `prepare`.
    public var prepared: PreparedRequest { plugins.prepare(request) }
}
