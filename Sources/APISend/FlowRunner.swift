import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APIVerdict
/// `needs:` as a scheduler above the factory: before a target's request is built, the targets it
/// needs run (their needs first), each once per run however many targets need it, and their
/// captures become the target's `{placeholders}` (nearer needs win; `-p` wins over all). Live, or
/// on samples (`--stub`): then the captures come from each needed target's `sample:`.
///
/// It is also the one place that decides "once per run" for `check`: a target that is checked and
/// needed is one run here, whichever asks first; its item judges the same exchange its dependents
/// capture from (`run(_:in:)`), sent by check's policy (retries, `until:`).
package actor FlowRunner {
    /// How a built target is sent: the `Caller`'s policy (retries, `until:`, stub or live).
    package typealias Send = @Sendable (_ call: PreparedCall) async -> Sent

    /// One target, run once: its request built with its needs' captures, sent, and what the
    /// targets that need it get (its captures, or why they get none).
    package struct Run: Sendable {
        package var call: PreparedCall
        package var sent: Sent
        package var captures: Result<[String: String], APIError>
    }

    private let workspace: Workspace
    private let find: @Sendable (String) throws(APIError) -> (Service, Target)
    private let send: Send
    /// Each target that ran (or runs), by name: its run, or why its request could not be built.
    private var runs: [String: Task<Result<Run, APIError>, Never>] = [:]

    package init(workspace: Workspace, find: @escaping @Sendable (String) throws(APIError) -> (Service, Target), send: @escaping Send) {
        self.workspace = workspace
        self.find = find
        self.send = send
    }

    /// The names of every target that `targets` need, directly or through others (the ones
    /// `find` knows).
    package nonisolated func needed(by targets: [(Service, Target)]) -> Set<String> {
        // Most runs need nothing: told field by field (a pair read whole is copied, ~2 KiB of fields).
        guard targets.map({ $0.1.needs.isEmpty }).contains(false) else { return [] }
        var out = Set<String>()
        var queue: [(Service, Target)] = []  // the needs found, not a copy of `targets` (10,000 in a big check)
        func visit(_ service: Service, _ target: Target) {
            for need in target.needs {
                let name = need.qualified(in: service.name)
                guard out.insert(name).inserted, let found = try? find(name) else { continue }
                queue.append(found)
            }
        }
        for i in targets.indices where !targets[i].1.needs.isEmpty { visit(targets[i].0, targets[i].1) }
        while let (service, target) = queue.popLast() { visit(service, target) }
        return out
    }

    /// What `show` and `--dry-run` use instead of running the needs (they send nothing): each
    /// capture of every target `target` needs, as its own `{name}`.
    package static func unsent(_ target: Target, in service: Service,
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
    package func captured(for target: Target, in service: Service) async throws(APIError) -> [String: String] {
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
        let found: (Service, Target)
        do {
            found = try find(need.qualified(in: service.name))
        } catch {
            throw .invalid(Diagnostic(file: service.file, mark: need.mark, message: "needs '\(need.name)', which is no target",
                                      hint: "`apicli validate` lists the targets it could mean"))
        }
        if found.1.each != nil {  // a need runs once: which row would it be?
            throw .invalid(Diagnostic(file: service.file, mark: need.mark, message: "needs '\(need.name)', which has rows (each:); a need runs once",
                                      hint: "need a target without each:, or give this target the rows"))
        }
        return found
    }

    /// `target` run once for the whole run (its needs first), or why its request could not be
    /// built: what its own check item judges, and what the targets that need it capture from.
    package func run(_ target: Target, in service: Service) async -> Result<Run, APIError> {
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
        let call = try workspace.build(target, in: service, captured: try await captured(target, service, path: path))
        let sent = await send(call)
        return Run(call: call, sent: sent, captures: Result(catching: { () throws(APIError) -> [String: String] in try captures(of: sent, call) }))
    }

    /// The captures of a target's final response, for the targets that need it; a response its
    /// `expect:` (else `validate:`) rejects gives none.
    private func captures(of sent: Sent, _ call: PreparedCall) throws(APIError) -> [String: String] {
        let target = call.target
        if let reason = call.skipReason {
            throw .dependency("needs: \(target.qualifiedName), which it needs, is skipped (\(reason)); give this target the same when:")
        }
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
