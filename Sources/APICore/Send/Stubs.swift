/// Answers from samples: the stub transport a built call or a mock route answers with. In the
/// send stage, because a stub is a transport the `Caller` sends through.
extension PreparedCall {
    /// The stub transport answering with sample `name` (nil: `sample:`); an unknown name or a
    /// target without samples is an error at the target.
    public func stub(sample name: String?) throws(APIError) -> StubTransport {
        StubTransport(sample: try sample(named: name), bindings: bindings, file: service.file)
    }

    public func stub(_ sample: Sample) -> StubTransport {
        StubTransport(sample: sample, bindings: bindings, file: service.file)
    }

    private func sample(named name: String?) throws(APIError) -> Sample {
        if let found = target.sample(named: name) { return found }
        let names = target.samples.map(\.name)
        if let name {
            throw .invalid(Diagnostic(file: service.file, mark: target.mark,
                                      message: "\(target.qualifiedName) has no sample named '\(name)'",
                                      hint: Suggestions.hint(for: name, in: names)
                                        ?? "its samples: " + (names.isEmpty ? "none" : names.joined(separator: ", "))))
        }
        throw .invalid(Diagnostic(file: service.file, mark: target.mark,
                                  message: "\(target.qualifiedName) has no sample: to answer --stub with",
                                  hint: "add sample: { status: 200, body: … } to the target"))
    }
}

extension Workspace {
    /// The stub transport answering `sample` of a target for a request that gave `captures`
    /// (the `{name}`s of the path `mock` matched): the target's bindings with the captured values
    /// as params, so the sample's `{name}`s expand as they would for `-p name=value`.
    public func stub(_ sample: Sample, of target: Target, in service: Service, bindings: Bindings,
                     captures: [String: String]) -> StubTransport {
        var bindings = bindings
        bindings.params.merge(captures) { _, captured in captured }
        return StubTransport(sample: sample, bindings: bindings, file: service.file)
    }
}
