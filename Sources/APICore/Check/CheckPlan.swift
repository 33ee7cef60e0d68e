/// One thing `apicli check` will do: send a target's request (live, or to its sample), or skip it,
/// or report that it could not be built.
public struct CheckItem: Sendable {
    public enum Work: Sendable {
        /// `stub` set: answer with that sample instead of the network.
        case send(PreparedRequest, validation: Validation, expect: Expectations?, stub: StubTransport?, expectFailure: Bool)
        case skip(String)
        case fail(APIError)
    }

    public var name: String
    public var service: String
    public var target: String
    public var sample: String?
    public var work: Work
}

/// Turns selected targets into check items; each request comes from the workspace, built as
/// `apicli call` builds it (project file, environment, rules, auth, command-line overrides).
public struct CheckPlanner: Sendable {
    public var workspace: Workspace
    /// `--stub`: one item per sample (the default `sample:` and every entry of `samples:`).
    public var stub: Bool
    /// `--all`: include targets with `check: false` and unsafe methods.
    public var includeAll: Bool

    public init(workspace: Workspace, stub: Bool, includeAll: Bool) {
        self.workspace = workspace
        self.stub = stub
        self.includeAll = includeAll
    }

    /// Methods that are checked without `check: true`: they should not change anything.
    public static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]

    public func items(for targets: [(Service, Target)]) -> [CheckItem] {
        targets.flatMap { service, target in stub ? stubItems(target, service) : [liveItem(target, service)] }
    }

    /// Why a target is left out of a live run, or nil when it is checked.
    public func skipReason(_ target: Target) -> String? {
        if includeAll { return nil }
        if target.check == false { return "check: false" }
        if target.check == nil, !Self.safeMethods.contains(target.method) {
            return "\(target.method) is not checked unless the target says check: true (or --all)"
        }
        return nil
    }

    private func liveItem(_ target: Target, _ service: Service) -> CheckItem {
        var item = CheckItem(name: target.qualifiedName, service: service.name, target: target.name, sample: nil, work: .skip(""))
        if let reason = skipReason(target) {
            item.work = .skip(reason)
            return item
        }
        do {
            let call = try workspace.call(target, in: service)
            item.work = .send(call.prepared, validation: call.endpoint.validation, expect: target.expect, stub: nil,
                              expectFailure: false)
        } catch {
            item.work = .fail(error)
        }
        return item
    }

    /// With `--stub` every target is judged, whatever its method: nothing is sent.
    private func stubItems(_ target: Target, _ service: Service) -> [CheckItem] {
        let samples = target.allSamples
        if samples.isEmpty {
            return [CheckItem(name: target.qualifiedName, service: service.name, target: target.name, sample: nil,
                              work: .skip("no sample to judge"))]
        }
        let call = Result { () throws(APIError) in try workspace.call(target, in: service) }
        return samples.map { name, sample in
            var item = CheckItem(name: target.qualifiedName + (name.map { "[\($0)]" } ?? ""), service: service.name,
                                 target: target.name, sample: name, work: .skip(""))
            switch call {
            case .success(let call):
                item.work = .send(call.prepared, validation: call.endpoint.validation, expect: target.expect,
                                  stub: call.stub(sample), expectFailure: sample.expectFailure)
            case .failure(let error):
                item.work = .fail(error)
            }
            return item
        }
    }
}
