/// The `needs:` graph of a catalog: every need names a target that exists, and no chain of
/// needs comes back to where it started. `validate` reports both; `check` orders by it.
public enum FlowGraph {
    /// A diagnostic at each need that names no target (with the closest names), and one per cycle
    /// (at the first need of it, with the whole path).
    public static func problems(_ catalog: Catalog) -> [Diagnostic] {
        var out: [Diagnostic] = []
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
        var index: [String: (Service, Target)] = [:]
        for service in catalog.services { for target in service.targets { index[target.qualifiedName] = (service, target) } }
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
    static func cycle(from start: String, _ index: [String: (Service, Target)]) -> [String]? {
        var visiting: [String] = []
        var done = Set<String>()
        func visit(_ name: String) -> [String]? {
            if name == start, !visiting.isEmpty { return visiting + [name] }
            guard !done.contains(name), !visiting.contains(name),
                  let (service, target) = index[name] else { return nil }
            visiting.append(name)
            defer { visiting.removeLast(); done.insert(name) }
            for need in target.needs {
                if let found = visit(need.qualified(in: service.name)) { return found }
            }
            return nil
        }
        return visit(start)
    }
}
