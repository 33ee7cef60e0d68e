import APIDiagnostics
import APITargets
import APIEndpoint
import APISend
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `apicli load` will run, decided from the target files and what the command asked: the
/// plan (the selected targets with their weights, the model, when to stop), the thresholds, and
/// what must stop the run before anything is sent.
package struct LoadSetup: Sendable {
    /// What the command asked for (its flags, read and range-checked).
    package struct Request: Sendable {
        /// Services or `service.target` globs; none: every target.
        package var patterns: [String]
        package var model: LoadPlan.Model
        /// Seconds; with neither this nor `requests`, `LoadPlan.defaultDuration`.
        package var duration: Double?
        package var requests: Int?
        /// `service.target` → weight, over each target's `load: { weight: }`.
        package var weights: [String: Int]
        /// Added to the project's and the selected targets' `load: { thresholds: }`.
        package var thresholds: [LoadThreshold]
        /// `--all`: load what `Selection.leftOut` leaves out of a sweep too.
        package var all: Bool
        /// `--data FILE`: rows for every selected target (over their `each:`).
        package var data: String? = nil
        /// `--data-order`, `--seed`.
        package var rowOrder: LoadPlan.RowOrder = .roundRobin

        package init(patterns: [String] = [], model: LoadPlan.Model = .closed(users: 1, think: 0), duration: Double? = nil,
                     requests: Int? = nil, weights: [String: Int] = [:], thresholds: [LoadThreshold] = [], all: Bool = false) {
            (self.patterns, self.model, self.duration, self.requests) = (patterns, model, duration, requests)
            (self.weights, self.thresholds, self.all) = (weights, thresholds, all)
        }
    }

    /// A weight or threshold of the request that names a target the patterns did not select.
    package enum Problem: Sendable, Equatable {
        case weight(String)
        case threshold(String)
    }

    package var plan: LoadPlan
    /// The project's, then the selected targets' (in order), then the request's.
    package var thresholds: [LoadThreshold]
    /// Hosts the run would connect to (after `--connect-to` and `--resolve`) that are neither
    /// loopback nor in the target files' baseURLs (the selected targets and what they need): the
    /// run needs the user's consent for them.
    package var foreignHosts: [String]
    /// Loopback and the files' own hosts, judged where connections go: what the run may reach
    /// without consent, and (with the consented `foreignHosts`) where its redirects may go.
    package var scope: HostScope
    /// The run must not start (a threshold's problem wins over a weight's).
    package var problem: Problem?
    /// Selected targets the run leaves out (`Selection.leftOut`, the rule `check` follows, and
    /// those whose `when:` is false, decided once before the run with params, `-p` and the
    /// environment), with why.
    package var leftOut: [(String, String)] = []

    package init(_ workspace: Workspace, _ request: Request) throws(APIError) {
        var selected = try Selection.select(try workspace.catalog(), patterns: request.patterns)
        let named = Selection.exactNames(request.patterns)
        var kept: [(Service, Target)] = []
        for pair in selected {
            if let reason = Selection.leftOut(pair.1, named: named, all: request.all) ?? workspace.skipReason(for: pair.1, in: pair.0) {
                leftOut.append((pair.1.qualifiedName, reason))
            } else {
                kept.append(pair)
            }
        }
        if kept.isEmpty, !leftOut.isEmpty {
            throw .invalid(Diagnostic(file: nil, mark: nil,
                                      message: "nothing to load: every selected target is left out (\(leftOut[0].0): \(leftOut[0].1))",
                                      hint: leftOut[0].1.hasPrefix("when: ")
                                        ? "set what its when: reads (-p name=value, an environment variable), or select other targets"
                                        : "name a target whole (service.target), give it check: true, or pass --all"))
        }
        selected = kept
        let names = Set(selected.map(\.1.qualifiedName))
        let rows = try workspace.rowGroups(selected, data: request.data)
        let items = zip(selected, rows).map { pair, rows in
            LoadPlan.Item(service: pair.0, target: pair.1,
                          weight: request.weights[pair.1.qualifiedName] ?? pair.1.load?.weight ?? 1, rows: rows ?? [])
        }
        let duration = request.duration ?? (request.requests == nil ? LoadPlan.defaultDuration(request.model) : nil)
        plan = LoadPlan(items: items, model: request.model, duration: duration, requests: request.requests)
        plan.rowOrder = request.rowOrder
        thresholds = (workspace.project.load?.thresholds ?? []) + selected.flatMap { $0.1.load?.thresholds ?? [] } + request.thresholds
        if let unknown = request.weights.keys.sorted().first(where: { !names.contains($0) }) {
            problem = .weight(unknown)
        }
        if let unknown = request.thresholds.lazy.compactMap(\.target).first(where: { !names.contains($0) }) {
            problem = .threshold(unknown)
        }
        scope = HostScope(hosts: Self.ownHosts(workspace), connection: workspace.settings.connection)
        foreignHosts = Self.foreignHosts(workspace, items, scope)
    }

    /// The workspace for the run: its redirects stay in `scope` and the hosts the user consented to.
    package func guarded(_ workspace: Workspace) -> Workspace {
        var out = workspace
        var allowed = scope
        allowed.hosts.formUnion(foreignHosts)
        out.settings.redirectScope = allowed
        return out
    }

    private static func host(_ text: String) -> String? { URL(string: text)?.host?.lowercased() }

    /// The hosts of the baseURLs of the files (a service's, its environments', the project's).
    private static func ownHosts(_ workspace: Workspace) -> Set<String> {
        var own = Set<String>()
        var services: [Service] = []
        if let catalog = try? workspace.catalog() { services = catalog.services }
        for s in services {
            if let h = host(s.baseURL.text) { own.insert(h) }
            for e in s.environments { if let b = e.baseURL, let h = host(b.text) { own.insert(h) } }
        }
        for e in workspace.project.environments { if let b = e.baseURL, let h = host(b.text) { own.insert(h) } }
        return own
    }

    /// Where the requests of `items` (each of their rows) and what they need connect, in order, out of `scope`.
    private static func foreignHosts(_ workspace: Workspace, _ items: [LoadPlan.Item], _ scope: HostScope) -> [String] {
        var needed: [(Service, Target)] = []
        for item in items { needed += hostVariants(item, workspace) }
        let selected = items.map { ($0.service, $0.target) }
        let caller = Caller(workspace: workspace)
        for name in caller.needed(by: selected).sorted() { if let found = try? workspace.find(name) { needed.append(found) } }
        var foreign: [String] = []
        for (service, target) in needed {
            guard let call = try? workspace.build(target, in: service), !scope.allows(call.request.url, socket: call.request.socket),
                  let to = scope.destination(call.request.url, socket: call.request.socket) else { continue }
            if !foreign.contains(to) { foreign.append(to) }
        }
        return foreign
    }
}

extension LoadSetup {
    /// The variants of `item` whose hosts stand for all of them: a row changes the host only
    /// through a `{placeholder}` of a base URL (a path stays under it), so the first row alone
    /// unless a base URL names a field; then one row per distinct base URL (a data set of 100,000
    /// rows is not built 100,000 times before the run).
    static func hostVariants(_ item: LoadPlan.Item, _ workspace: Workspace) -> [(Service, Target)] {
        guard item.rows.count > 1 else { return [(item.service, item.variants[0])] }
        let bases = [item.service.baseURL] + (item.service.environments + workspace.project.environments).compactMap(\.baseURL)
        let used = Set(bases.flatMap(\.placeholders))
        guard item.rows.contains(where: { row in row.params.contains { used.contains($0.name) } }) else {
            return [(item.service, item.rows[0])]
        }
        var seen = Set<String>()
        return item.rows.filter { row in
            (try? workspace.baseURL(for: row, in: item.service)).map { seen.insert($0).inserted } ?? true
        }.map { (item.service, $0) }
    }
}

extension LoadPlan {
    /// How long a run asked for neither a duration nor a number of requests lasts: a ramp's
    /// length, else 10 s.
    package static func defaultDuration(_ model: Model) -> Double {
        if case .open(let schedule, _) = model, !schedule.stages.isEmpty { return schedule.rampSeconds }
        return 10
    }
}
