/// `needs:` as a scheduler above the factory: before a target's request is built, the targets it
/// needs run (their needs first), each once per run however many targets need it, and their
/// captures become the target's `{placeholders}` (nearer needs win; `-p` wins over all). Live, or
/// on samples (`--stub`): then the captures come from each needed target's `sample:`.
public actor FlowRunner {
    public enum Mode: Sendable {
        case live(any Transport)
        case stub
    }

    private let workspace: Workspace
    private let mode: Mode
    /// Plugins for each step's exchange (auth comes with the endpoint): `-v` logs every step.
    private let plugins: @Sendable (PreparedCall) -> [any Plugin]
    private let find: @Sendable (String) throws(APIError) -> (Service, Target)
    /// Each needed target's own captures, once it ran (or its failure).
    private var runs: [String: Task<Result<[String: String], APIError>, Never>] = [:]

    public init(workspace: Workspace, mode: Mode, plugins: @escaping @Sendable (PreparedCall) -> [any Plugin] = { _ in [] },
                find: @escaping @Sendable (String) throws(APIError) -> (Service, Target)) {
        self.workspace = workspace
        self.mode = mode
        self.plugins = plugins
        self.find = find
    }

    /// What `show` and `--dry-run` use instead of running the needs (they send nothing): each
    /// capture of every target `target` needs, as its own `{name}`.
    public static func unsent(_ target: Target, in service: Service,
                              find: (String) throws(APIError) -> (Service, Target)) -> [String: String] {
        var out: [String: String] = [:]
        var seen = Set<String>()
        func visit(_ t: Target, _ s: Service) {
            for need in t.needs {
                let name = need.qualified(in: s.name)
                guard seen.insert(name).inserted, let (needService, needTarget) = try? find(name) else { continue }
                visit(needTarget, needService)
                for capture in needTarget.captures { out[capture.name] = "{\(capture.name)}" }
            }
        }
        visit(target, service)
        return out
    }

    /// The values the needs of `target` captured, running them if they have not run yet.
    public func captured(for target: Target, in service: Service) async throws(APIError) -> [String: String] {
        try await captured(target, service, path: [target.qualifiedName])
    }

    private func captured(_ target: Target, _ service: Service, path: [String]) async throws(APIError) -> [String: String] {
        var values: [String: String] = [:]
        for need in target.needs {
            let name = need.qualified(in: service.name)
            if path.contains(name) {
                throw .invalid(Diagnostic(file: service.file, mark: need.mark,
                                          message: "needs: form a cycle: " + (path + [name]).joined(separator: " → ")))
            }
            // Further needs first, so a nearer one wins: its own captures override its needs'.
            let (needService, needTarget) = try lookup(need, service)
            values.merge(try await captured(needTarget, needService, path: path + [name])) { _, new in new }
            values.merge(try await run(needTarget, needService, path: path + [name]).get()) { _, new in new }
        }
        return values
    }

    private func lookup(_ need: Need, _ service: Service) throws(APIError) -> (Service, Target) {
        do {
            return try find(need.qualified(in: service.name))
        } catch {
            throw .invalid(Diagnostic(file: service.file, mark: need.mark, message: "needs '\(need.name)', which is no target",
                                      hint: "`apicli validate` lists the targets it could mean"))
        }
    }

    /// Runs a needed target once per run; later callers get the same result.
    private func run(_ target: Target, _ service: Service, path: [String]) async -> Result<[String: String], APIError> {
        if let running = runs[target.qualifiedName] { return await running.value }
        let task = Task { () async -> Result<[String: String], APIError> in
            do throws(APIError) {
                return .success(try await self.step(target, service, path: path))
            } catch {
                return .failure(error)
            }
        }
        runs[target.qualifiedName] = task
        return await task.value
    }

    /// One needed target: its own needs, its request, its response judged by `expect:` (else
    /// `validate:`), its captures.
    private func step(_ target: Target, _ service: Service, path: [String]) async throws(APIError) -> [String: String] {
        let call = try workspace.call(target, in: service, captured: try await captured(target, service, path: path))
        let exchange: Exchange
        switch mode {
        case .live(let transport):
            exchange = try await Exchange.perform(call.request, validation: call.endpoint.validation, transport: transport,
                                                  plugins: call.plugins + plugins(call))
        case .stub:
            exchange = try await Exchange.perform(call.request, validation: call.endpoint.validation,
                                                  transport: try call.stub(sample: nil), plugins: call.plugins + plugins(call))
        }
        let verdict = Verdict.judge(.success(exchange.response), expect: target.expect, validation: call.endpoint.validation)
        guard verdict.passed else {
            throw .dependency("needs: \(target.qualifiedName), which it needs, failed: \(verdict.messages.first ?? "rejected")")
        }
        let values = try CaptureReader.values(target.captures, of: target.qualifiedName, from: exchange.response)
        for capture in target.captures where capture.secret { if let v = values[capture.name] { workspace.hide(v) } }
        return values
    }
}

/// A value computed once, by the first caller, and shared by every caller after it.
public actor OnceTask<Value: Sendable> {
    private let make: @Sendable () async -> Value
    private var task: Task<Value, Never>?

    public init(_ make: @escaping @Sendable () async -> Value) {
        self.make = make
    }

    public var value: Value {
        get async {
            if let task { return await task.value }
            let started = Task { await make() }
            task = started
            return await started.value
        }
    }
}
