/// One target built into the request it sends: what `call`, `show`, `check` and `validate` share.
public struct PreparedCall: Sendable {
    public var service: Service
    public var target: Target
    public var endpoint: Endpoint
    /// Before the plugins' `prepare` (the `Caller` applies them to each attempt).
    public var request: PreparedRequest
    /// What the target's samples expand with.
    public var bindings: Bindings

}
