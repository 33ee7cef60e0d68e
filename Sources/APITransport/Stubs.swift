import APIDiagnostics
import APITargets
import APIEndpoint
/// Answers from samples: the stub transport a built call or a mock route answers with. In the
/// send stage, because a stub is a transport the `Caller` sends through.
extension PreparedCall {
    /// The stub transport answering with sample `name` (nil: `sample:`); an unknown name or a
    /// target without samples is an error at the target.
    package func stub(sample name: String?) throws(APIError) -> StubTransport {
        stub(try sample(named: name))
    }

    /// The sample's `{name}`s expand with the call's params (its own, then `-p`) as `mock`'s do
    /// with the path's captures: the one expansion is `Workspace.stub`.
    package func stub(_ sample: Sample) -> StubTransport {
        Workspace.stub(sample, bindings: bindings, captures: [:], file: service.file)
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
    package func stub(_ sample: Sample, of target: Target, in service: Service, bindings: Bindings,
                     captures: [String: String]) -> StubTransport {
        Self.stub(sample, bindings: bindings, captures: captures, file: service.file)
    }

    /// Samples expand strictly: an unset variable, or a param that stands for one, is an error
    /// naming the variable, since the sample's text is the answer itself.
    package static func stub(_ sample: Sample, bindings: Bindings, captures: [String: String], file: String) -> StubTransport {
        var bindings = bindings.strict
        // No captures (every stub but a mock route's): the params are not made unique to merge nothing.
        if !captures.isEmpty {
            bindings.params.merge(captures) { _, captured in captured }
            for name in captures.keys { bindings.placeholderParams[name] = nil }
        }
        return StubTransport(sample: sample, bindings: bindings, file: file)
    }
}
