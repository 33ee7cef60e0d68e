import APIDiagnostics
/// The `needs:` graph of a catalog: every need names a target that exists, and no chain of
/// needs comes back to where it started. `validate` reports both; `check` orders by it.
package enum FlowGraph {
    /// A diagnostic at each need that names no target (with the closest names), and one per cycle
    /// (at the first need of it, with the whole path).
    package static func problems(_ catalog: Catalog) -> [Diagnostic] {
        var out: [Diagnostic] = []
        // Most catalogs have no needs at all: nothing to check, and no name set or index to build.
        guard catalog.services.contains(where: { $0.targets.contains { !$0.needs.isEmpty } }) else { return out }
        let names = Set(catalog.qualifiedNames)
        for service in catalog.services {
            for target in service.targets {
                for need in target.needs where !names.contains(need.qualified(in: service.name)) {
                    out.append(Diagnostic(file: service.file, mark: need.mark,
                                          message: "\(target.qualifiedName) needs '\(need.name)', which is no target",
                                          hint: Suggestions.hint(for: need.qualified(in: service.name), in: catalog.qualifiedNames)
                                            ?? "name a target of this service (login) or of another (auth.login)"))
                }
            }
        }
        var reported = Set<String>()
        // Each target's service name and needs, by qualified name (no Service or Target copies).
        var index: [String: (service: String, needs: [Need])] = [:]
        for service in catalog.services {
            for target in service.targets { index[target.qualifiedName] = (service.name, target.needs) }
        }
        for service in catalog.services {
            for target in service.targets where !target.needs.isEmpty {
                guard let cycle = cycle(from: target.qualifiedName, index) else { continue }
                guard reported.insert(Set(cycle).sorted().joined(separator: ",")).inserted else { continue }
                let need = target.needs.first { cycle.dropFirst().first == $0.qualified(in: service.name) }
                out.append(Diagnostic(file: service.file, mark: need?.mark ?? target.mark,
                                      message: "needs: form a cycle: " + cycle.joined(separator: " → "),
                                      hint: "a target cannot need itself, directly or through others"))
            }
        }
        return out
    }

    /// The path back to `start`, if its needs lead there (`a → b → a`).
    static func cycle(from start: String, _ index: [String: (service: String, needs: [Need])]) -> [String]? {
        var visiting: [String] = []
        var done = Set<String>()
        func visit(_ name: String) -> [String]? {
            if name == start, !visiting.isEmpty { return visiting + [name] }
            guard !done.contains(name), !visiting.contains(name),
                  let (service, needs) = index[name] else { return nil }
            visiting.append(name)
            defer { visiting.removeLast(); done.insert(name) }
            for need in needs {
                if let found = visit(need.qualified(in: service)) { return found }
            }
            return nil
        }
        return visit(start)
    }
}
