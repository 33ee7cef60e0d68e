import APIDiagnostics
import APITargets
/// Everything that applies to one target below its own fields, lowest first: the project file
/// (apicli.yaml), its environment, the service, its environment, then the rules that match
/// (the project's, then the service's, each in order). `EndpointResolver` merges them.
struct Layers {
    /// What of the project applies below its environments and rules: its headers, and the file
    /// they come from (the project whole was copied in for every request: its retains and releases).
    var projectHeaders: [Header]
    var projectFile: String
    var projectEnvironment: Environment?
    var serviceEnvironment: Environment?
    var rules: [Rule]

    /// `project`, `service` and `target` lent (taken, they were copied in for every request and destroyed here).
    package init(project: borrowing Project, service: borrowing Service, target: borrowing Target, environmentName: String?) throws(APIError) {
        projectHeaders = project.headers
        projectFile = project.file ?? "apicli.yaml"
        // No rule (most files): nothing filtered, no arrays made for every request.
        rules = project.rules.isEmpty && service.rules.isEmpty ? []
            : project.rules.filter { $0.applies(to: target.qualifiedName) } + service.rules.filter { $0.applies(to: target.name) }
        guard let environmentName else { return }
        projectEnvironment = project.environments.first { $0.name == environmentName }
        serviceEnvironment = service.environments.first { $0.name == environmentName }
        if projectEnvironment == nil && serviceEnvironment == nil {
            let known = (project.environments + service.environments).map(\.name)
            throw .invalid(Diagnostic(file: nil, mark: nil,
                                      message: "unknown environment '\(environmentName)' for \(target.qualifiedName)",
                                      hint: Suggestions.hint(for: environmentName, in: known)
                                        ?? (known.isEmpty ? "declare environments: in targets/apicli.yaml or the service file"
                                                          : "known environments: " + known.joined(separator: ", "))))
        }
    }

    /// A value with where it came from (for `show`; nil: the service or target itself) and the file
    /// that declares it (for diagnostics).
    struct Sourced<T> {
        var value: T
        var origin: String? = nil
        var file: String
    }

    /// The environment's base URL (the service's beats the project's).
    func baseURL(service: Service) -> Sourced<Template>? {
        if let env = serviceEnvironment, let url = env.baseURL {
            return Sourced(value: url, origin: "environment '\(env.name)'", file: service.file)
        }
        if let env = projectEnvironment, let url = env.baseURL {
            return Sourced(value: url, origin: "environment '\(env.name)' of apicli.yaml", file: projectFile)
        }
        return nil
    }

    /// Headers in precedence order; the target's and the command line's come after.
    func headers(service: Service) -> [Sourced<Header>] {
        var out = projectHeaders.map { Sourced(value: $0, origin: "apicli.yaml", file: projectFile) }
        if let env = projectEnvironment {
            out += env.headers.map { Sourced(value: $0, origin: "environment '\(env.name)' of apicli.yaml", file: projectFile) }
        }
        out += service.headers.map { Sourced(value: $0, origin: nil, file: service.file) }
        if let env = serviceEnvironment {
            out += env.headers.map { Sourced(value: $0, origin: "environment '\(env.name)'", file: service.file) }
        }
        for rule in rules { out += rule.headers.map { Sourced(value: $0, origin: rule.label, file: rule.file) } }
        return out
    }

    /// The last rule that sets `value`, and that value.
    func lastRule<T>(_ value: (Rule) -> T?) -> (T, Rule)? {
        for rule in rules.reversed() {
            if let v = value(rule) { return (v, rule) }
        }
        return nil
    }
}
