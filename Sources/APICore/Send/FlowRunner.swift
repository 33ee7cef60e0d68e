/// `needs:` as a scheduler above the factory: before a target's request is built, the targets it
/// needs run (their needs first), each once per run however many targets need it, and their
/// captures become the target's `{placeholders}` (nearer needs win; `-p` wins over all). Live, or
/// on samples (`--stub`): then the captures come from each needed target's `sample:`.
///
/// It is also the one place that decides "once per run" for `check`: a target that is checked and
/// needed is one run here, whichever asks first; its item judges the same exchange its dependents
/// capture from (`run(_:in:)`), sent by check's policy (retries, `until:`).
public actor FlowRunner {
    public enum Mode: Sendable {
        case live(any Transport)
        case stub
    }

    /// A target's request as a policy sent it: the request, the last response (or why there is
    /// none) and every attempt.
    public struct Sent: Sendable {
        public var request: PreparedRequest
        public var last: Result<Response, APIError>
        public var attempts: [CheckResult.Attempt]

        public init(request: PreparedRequest, last: Result<Response, APIError>, attempts: [CheckResult.Attempt]) {
            self.request = request
            self.last = last
            self.attempts = attempts
        }
    }

    /// How a built target is sent (`stub`: the sample's transport, with `--stub`). `call` sends
    /// once; `check` passes its own policy: retries on 5xx and no response, backoff, `until:`.
    public typealias Send = @Sendable (_ call: PreparedCall, _ stub: StubTransport?) async -> Sent

    /// One target, run once: its request built with its needs' captures, sent, and what the
    /// targets that need it get (its captures, or why they get none).
    public struct Run: Sendable {
        public var call: PreparedCall
        public var sent: Sent
        public var captures: Result<[String: String], APIError>
    }

    private let workspace: Workspace
    private let mode: Mode
    /// Plugins for each step's exchange (auth comes with the endpoint): `-v` logs every step.
    private let plugins: @Sendable (PreparedCall) -> [any Plugin]
    private let find: @Sendable (String) throws(APIError) -> (Service, Target)
    /// nil: each target is sent once, with `plugins` (what `call` does).
    private let send: Send?
    /// Each target that ran (or runs), by name: its run, or why its request could not be built.
    private var runs: [String: Task<Result<Run, APIError>, Never>] = [:]

    public init(workspace: Workspace, mode: Mode, plugins: @escaping @Sendable (PreparedCall) -> [any Plugin] = { _ in [] },
                find: @escaping @Sendable (String) throws(APIError) -> (Service, Target), send: Send? = nil) {
        self.workspace = workspace
        self.mode = mode
        self.plugins = plugins
        self.find = find
        self.send = send
    }

    /// The names of every target that `targets` need, directly or through others (the ones
    /// `find` knows).
    public nonisolated func needed(by targets: [(Service, Target)]) -> Set<String> {
        var out = Set<String>()
        var queue = targets
        while let (service, target) = queue.popLast() {
            for need in target.needs {
                let name = need.qualified(in: service.name)
                guard out.insert(name).inserted, let found = try? find(name) else { continue }
                queue.append(found)
            }
        }
        return out
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
            values.merge(try await run(needTarget, needService, path: path + [name]).get().captures.get()) { _, new in new }
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

    /// `target` run once for the whole run (its needs first), or why its request could not be
    /// built: what its own check item judges, and what the targets that need it capture from.
    public func run(_ target: Target, in service: Service) async -> Result<Run, APIError> {
        await run(target, service, path: [target.qualifiedName])
    }

    /// Runs a target once per run; later callers get the same result.
    private func run(_ target: Target, _ service: Service, path: [String]) async -> Result<Run, APIError> {
        if let running = runs[target.qualifiedName] { return await running.value }
        let task = Task { () async -> Result<Run, APIError> in
            do throws(APIError) {
                return .success(try await self.step(target, service, path: path))
            } catch {
                return .failure(error)
            }
        }
        runs[target.qualifiedName] = task
        return await task.value
    }

    /// One target: its own needs, its request, sent; its response judged by `expect:` (else
    /// `validate:`) and its captures read, for the targets that need it.
    private func step(_ target: Target, _ service: Service, path: [String]) async throws(APIError) -> Run {
        let call = try workspace.call(target, in: service, captured: try await captured(target, service, path: path))
        let sent: Sent
        switch mode {
        case .live(let transport):
            if let send { sent = await send(call, nil) } else { sent = await once(call, transport) }
        case .stub:
            do throws(APIError) {
                let stub = try call.stub(sample: nil)
                if let send { sent = await send(call, stub) } else { sent = await once(call, stub) }
            } catch {
                sent = Sent(request: call.prepared, last: .failure(error), attempts: [])
            }
        }
        return Run(call: call, sent: sent, captures: Result(catching: { () throws(APIError) -> [String: String] in try captures(of: sent, call) }))
    }

    /// What `call` does: one exchange, with the endpoint's plugins and `plugins` (`-v`).
    private nonisolated func once(_ call: PreparedCall, _ transport: any Transport) async -> Sent {
        do throws(APIError) {
            let exchange = try await Exchange.perform(call.request, validation: call.endpoint.validation, transport: transport,
                                                      plugins: call.plugins + plugins(call))
            let r = exchange.response
            return Sent(request: exchange.request, last: .success(r), attempts: [.init(status: r.status, duration: r.duration, error: nil)])
        } catch {
            return Sent(request: call.prepared, last: .failure(error), attempts: [])
        }
    }

    /// The captures of a target's final response, for the targets that need it; a response its
    /// `expect:` (else `validate:`) rejects gives none.
    private func captures(of sent: Sent, _ call: PreparedCall) throws(APIError) -> [String: String] {
        let target = call.target
        let response = try sent.last.get()
        let verdict = Verdict.judge(.success(response), expect: target.expect, validation: call.endpoint.validation)
        guard verdict.passed else {
            throw .dependency("needs: \(target.qualifiedName), which it needs, failed: \(verdict.messages.first ?? "rejected")")
        }
        let values = try CaptureReader.values(target.captures, of: target.qualifiedName, from: response)
        for capture in target.captures where capture.secret { if let v = values[capture.name] { workspace.hide(v) } }
        return values
    }
}
