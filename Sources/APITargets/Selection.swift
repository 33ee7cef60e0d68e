import APIDiagnostics
/// Which targets `apicli check` runs: services by name, `service.target` globs, and a shard.
package enum Selection {
    /// Every target when `patterns` is empty; otherwise those a pattern names (`github`,
    /// `httpbin.status*`, `*.get`), in declaration order. A pattern that matches nothing is an error.
    package static func select(_ catalog: Catalog, patterns: [String]) throws(APIError) -> [(Service, Target)] {
        var all: [(Service, Target)] = []
        all.reserveCapacity(catalog.services.reduce(0) { $0 + $1.targets.count })
        for s in catalog.services { for t in s.targets { all.append((s, t)) } }
        if patterns.isEmpty { return all }
        var problems: [Diagnostic] = []
        var chosen = Set<String>()
        for pattern in patterns {
            let hits = all.filter { matches(pattern, service: $0.0.name, target: $0.1.qualifiedName) }
            if hits.isEmpty {
                let names = catalog.services.map(\.name) + catalog.qualifiedNames
                problems.append(Diagnostic(file: nil, mark: nil, message: "'\(pattern)' matches no target",
                                           hint: Suggestions.hint(for: pattern, in: names) ?? "`apicli list` shows every target"))
            }
            chosen.formUnion(hits.map(\.1.qualifiedName))
        }
        if !problems.isEmpty { throw .invalidInput(problems) }
        return all.filter { chosen.contains($0.1.qualifiedName) }
    }

    /// Methods a run over many targets sends without being asked: they should not change anything.
    package static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]

    /// The `service.target` names the patterns spell out whole (no glob, not a bare service):
    /// what the user asked for by name.
    package static func exactNames(_ patterns: [String]) -> Set<String> {
        Set(patterns.filter { $0.contains(".") && !Glob.isPattern($0) })
    }

    /// The one rule of `check` and `load` (runs that send many targets): a target with
    /// `check: false`, or with a method other than GET, HEAD or OPTIONS and no `check: true`, is
    /// sent only when the command names it whole (`named`) or says `--all` (`all`), so a sweep over a
    /// folder never creates or deletes data by accident. Why it is left out, or nil when it is sent.
    package static func leftOut(_ target: Target, named: Set<String>, all: Bool) -> String? {
        if all { return nil }
        // The names built only when some were given (a sweep names none: two strings a target for nothing).
        if !named.isEmpty, named.contains(target.qualifiedName) || named.contains(target.service + "." + target.rowOf) { return nil }
        if target.check == false { return "check: false (name it or pass --all to send it)" }
        if target.check == nil, !safeMethods.contains(target.method) {
            return "\(target.method) runs only when named, with check: true, or with --all"
        }
        return nil
    }

    /// A bare name is a service; anything else a `Glob` over `service.target`.
    static func matches(_ pattern: String, service: String, target: String) -> Bool {
        if !pattern.contains("."), !Glob.isPattern(pattern) { return pattern == service }
        return Glob.matches(pattern, target)
    }
}
