import APIDiagnostics
import APITargets
import APIEndpoint
import APIVerdict
import APISend
/// One thing `apicli check` will do: send a target's request (live, or to its sample), or skip it,
/// or report that it could not be built.
package struct CheckItem: Sendable {
    /// Boxed (`indirect`): a `PreparedCall` is large, and items are copied into and out of the
    /// run's array; a box makes each copy a retain instead of a copy of every field.
    package indirect enum Work: Sendable {
        /// Sent by the run's `Caller`; `answer`: with `--stub`, the sample that answers.
        case send(PreparedCall, answer: Sample?, expectFailure: Bool)
        case skip(String)
        case fail(APIError)
        /// With `--stub`, a target that `needs:` others: its work is known only once they ran (`FlowRunner`).
        case deferred(@Sendable () async -> Work)
        /// Live, a target that needs others or is needed: `FlowRunner` runs it once for the whole
        /// run (with the runner's send policy); the item judges that run, its dependents capture
        /// from it. A failure: its request could not be built (a need failed, …).
        case shared(@Sendable () async -> Result<FlowRunner.Run, APIError>)
    }

    package var name: String
    package var service: String
    package var target: String
    package var sample: String?
    package var work: Work
    /// `check --drift`: the sample the live response is compared with.
    package var drift: Drift.Baseline? = nil
}

/// Turns selected targets into check items; each request comes from the workspace, built as
/// `apicli call` builds it (project file, environment, rules, auth, command-line overrides).
package struct CheckPlanner: Sendable {
    package var workspace: Workspace
    /// `--stub`: one item per sample (the default `sample:` and every entry of `samples:`).
    package var stub: Bool
    /// `--all`: include targets with `check: false` and unsafe methods.
    package var includeAll: Bool
    /// The targets the command named whole (`Selection.exactNames`): checked whatever their method.
    package var named: Set<String> = []
    /// `--drift`: compare each live response with the target's `sample:`.
    package var drift: Drift.Mode? = nil
    /// Runs what targets `needs:`, once for the whole run (shared by every item).
    package var caller: Caller

    package init(caller: Caller, includeAll: Bool) {
        self.workspace = caller.workspace
        self.stub = caller.mode == .stub
        self.includeAll = includeAll
        self.caller = caller
    }

    package func items(for targets: [(Service, Target)]) -> [CheckItem] {
        let needed = caller.needed(by: targets)
        return targets.flatMap { service, target in
            stub ? stubItems(target, service) : [liveItem(target, service, needed: needed.contains(target.qualifiedName))]
        }
    }

    /// `items(for:)` made as the run goes (`CheckItems`): live, each target's item is made by the
    /// run's planning task (the same item `items(for:)` makes); with `--stub` (items per sample) all now.
    package func lazyItems(for targets: [(Service, Target)]) -> CheckItems {
        if stub { return CheckItems(items(for: targets)) }
        // Before the first request: the names, read field by field (a pair read whole, or handed
        // to a call, is copied: ~2 KiB of fields retained and released).
        let names = zip(targets.map { $0.1.service }, targets.map { $0.1.name }).map { Target.qualifiedName(service: $0, name: $1) }
        let needed = caller.needed(by: targets)
        return CheckItems(names: names) { [self, names] i in
            // Lent in place from the array's storage, each by its own pointer: a pair read out of
            // the array (`targets[i]`, `selected[i].1`) is copied whole, service and target, and
            // destroyed again, twice an item.
            targets.withUnsafeBufferPointer { selected in
                let pair = UnsafeRawPointer(selected.baseAddress! + i)
                let service = pair.assumingMemoryBound(to: Service.self)
                let target = (pair + Self.targetOffset).assumingMemoryBound(to: Target.self)
                return liveItem(target.pointee, service.pointee, needed: !needed.isEmpty && needed.contains(names[i]))
            }
        }
    }

    /// Where a pair's target lies from its start (its service lies at it).
    private static let targetOffset = MemoryLayout<(Service, Target)>.offset(of: \(Service, Target).1)!

    /// Why a target is left out of a live run, or nil when it is checked (`Selection.leftOut`: the
    /// rule `load` follows too).
    package func skipReason(_ target: Target) -> String? {
        Selection.leftOut(target, named: named, all: includeAll)
    }

    /// The targets a live run sends with certificate verification off (`--insecure`, a service's
    /// `tls: { verify: false }`): of `items` (the items of `selected`, in order) those that are
    /// sent, then the targets they need (sent once as needs even when they are not checked
    /// themselves); none with `--stub`.
    package func unverified(_ items: [CheckItem], _ selected: [(Service, Target)]) -> [String] {
        guard !stub else { return [] }
        var verifies: [String: Bool] = [:]  // by service: its trust is the same for each of its targets
        func unverified(_ service: Service) -> Bool {
            if let verify = verifies[service.name] { return !verify }
            let verify = workspace.tls(for: service).verify
            verifies[service.name] = verify
            return !verify
        }
        // Asked by the item's service name (`items[i].service`), the same for a run of targets of
        // one service: the service itself is read only when the name changes (a `(Service, Target)`
        // read out of `selected` is copied whole), and names are kept for the needs only when there are any.
        let needed = caller.needed(by: selected)
        var sent = Set<String>()
        if !needed.isEmpty { sent.reserveCapacity(items.count) }
        var names: [String] = []
        var last: (service: String, unverified: Bool)?
        for i in items.indices {
            switch items[i].work { case .skip, .fail: continue; default: break }
            if !needed.isEmpty { sent.insert(items[i].name) }
            let isUnverified: Bool
            if let last, last.service == items[i].service {
                isUnverified = last.unverified
            } else {
                isUnverified = unverified(selected[i].0)
                last = (items[i].service, isUnverified)
            }
            if isUnverified { names.append(items[i].name) }
        }
        for name in needed.sorted() where !sent.contains(name) {
            if let (service, _) = try? workspace.find(name), unverified(service) { names.append(name) }
        }
        return names
    }

    private func liveItem(_ target: Target, _ service: Service, needed: Bool) -> CheckItem {
        var item = CheckItem(name: target.qualifiedName, service: service.name, target: target.name, sample: nil, work: .skip(""))
        if let reason = skipReason(target) {
            item.work = .skip(reason)
            return item
        }
        if needed || !target.needs.isEmpty {
            let caller = self.caller
            item.work = .shared { await caller.run(target, in: service) }
            // Without needs of its own it can be built now: one that cannot is reported before the run.
            if target.needs.isEmpty, case .failure(let error) = Result(catching: { () throws(APIError) in
                try workspace.build(target, in: service)
            }) {
                item.work = .fail(error)
            }
        } else {
            do {
                let call = try workspace.build(target, in: service)
                item.work = .send(call, answer: nil, expectFailure: false)
            } catch {
                item.work = .fail(error)
            }
        }
        item.drift = drift.flatMap { Drift.baseline(target, in: service, workspace: workspace, mode: $0) }
        return item
    }

    /// What `make` says to do with the target's request, built now, or once its needs ran.
    private func work(_ target: Target, _ service: Service, _ make: @escaping @Sendable (PreparedCall) -> [CheckItem.Work])
        -> [CheckItem.Work] {
        guard !target.needs.isEmpty else {
            do { return make(try workspace.build(target, in: service)) } catch { return [.fail(error)] }
        }
        let caller = self.caller
        return target.allSamples.indices.map { i in
            .deferred {
                switch await caller.run(target, in: service) {
                case .success(let run): return make(run.call)[i]
                case .failure(let error): return .fail(error)
                }
            }
        }
    }

    /// With `--stub` every target is judged, whatever its method: nothing is sent.
    private func stubItems(_ target: Target, _ service: Service) -> [CheckItem] {
        let samples = target.allSamples
        if samples.isEmpty {
            return [CheckItem(name: target.qualifiedName, service: service.name, target: target.name, sample: nil,
                              work: .skip("no sample to judge"))]
        }
        let works = work(target, service) { call in
            samples.map { _, sample in
                .send(call, answer: sample, expectFailure: sample.expectFailure)
            }
        }
        return zip(samples, works + Array(repeating: works[0], count: max(0, samples.count - works.count))).map { pair, work in
            CheckItem(name: target.qualifiedName + (pair.name.map { "[\($0)]" } ?? ""), service: service.name,
                      target: target.name, sample: pair.name, work: work)
        }
    }
}
