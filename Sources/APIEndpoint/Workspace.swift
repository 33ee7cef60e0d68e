import APIYAML
import APIDiagnostics
import APISecrets
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one factory every command goes through: a targets folder, the command-line options and the
/// process environment in; services, targets and the request each target sends out. It loads the
/// project file (`apicli.yaml`), the `.env` files and the environment selection once, and builds
/// every endpoint with the same resolver, so a feature added to the pipeline reaches `call`,
/// `show`, `check`, `check --stub`, `validate` and `list` at once. Commands never assemble a
/// resolver, a builder or a redactor themselves.
package struct Workspace: Sendable {
    /// What the command line says about the workspace and the requests built in it.
    package struct Options: Sendable {
        /// `--targets`, else `$APICLI_TARGETS`, else `targets`.
        package var directory: String
        /// `--env`; nil: `$APICLI_ENV` (when set and not empty).
        package var environmentName: String?
        /// `--env-file` (repeatable), read after `targets/.env`.
        package var envFiles: [String]
        /// `-p`, `-H`, `--base-url`, `--timeout`, `--cacert`, `--insecure`, `-F`.
        package var overrides: EndpointResolver.Overrides
        /// `--show-secrets`: the redactor shows everything.
        package var showSecrets: Bool

        package init(directory: String, environmentName: String? = nil, envFiles: [String] = [],
                    overrides: EndpointResolver.Overrides = .init(), showSecrets: Bool = false) {
            self.directory = directory
            self.environmentName = environmentName
            self.envFiles = envFiles
            self.overrides = overrides
            self.showSecrets = showSecrets
        }
    }

    package let options: Options
    /// How its requests reach the network: connection options, proxies, the cookie jar. A command
    /// may change its copy before it makes a `Caller` (`check` and `load` raise the connections a
    /// host gets); the jar is shared by every copy.
    package var settings: RunSettings
    /// `.env`, the `--env-file`s, then the process environment (which wins).
    package let variables: [String: String]
    package let project: Project
    private var resolver: EndpointResolver

    /// Reads the project file and the env files; a problem in either is an error (exit 2).
    /// `process`: the environment (variables, and the proxies `http_proxy`, `https_proxy`, `no_proxy`
    /// name, as curl reads them); `connection`: the command line's connection options; `cookies`:
    /// the run's jar (nil: a new, empty one).
    package init(_ options: Options, process: [String: String], connection: ConnectionOptions = ConnectionOptions(),
                 cookies: CookieJar? = nil) throws(APIError) {
        let variables = try EnvFile.environment(directory: options.directory, files: options.envFiles, process: process)
        var options = options
        options.environmentName = options.environmentName ?? process["APICLI_ENV"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(options, variables: variables, project: try Project.load(directory: options.directory),
                  settings: RunSettings(connection: connection, proxies: ProxySettings(environment: process), cookies: cookies))
    }

    /// A workspace from what is already in memory (the fuzzer, tests): no file is read, no proxy
    /// is taken from the environment unless `settings` names one.
    package init(_ options: Options = Options(directory: "."), variables: [String: String], project: Project = Project(),
                 settings: RunSettings = RunSettings()) {
        self.options = options
        self.settings = settings
        self.variables = variables
        self.project = project
        resolver = EndpointResolver(environment: variables, overrides: options.overrides, project: project,
                                    environmentName: options.environmentName)
    }

    /// This workspace for requests that are never sent (`--stub`, `mock`): an unset `${VAR}` that
    /// only feeds the request stands as `Bindings.placeholder` (shown `••••`); samples still need
    /// theirs. It shares the secrets (and so the redactor) with `self`. The `Caller` picks the mode.
    package func offline(_ on: Bool = true) -> Workspace {
        var out = self
        out.resolver.offline = on
        return out
    }

    /// This workspace for requests that are shown and never sent (`show`, `call --dry-run`): a
    /// `secrets:` command does not run (it may ask for a login, or reach a vault, for nothing) and its
    /// variable stands as `Bindings.placeholder` (`••••`, even with `--show-secrets`). An exported
    /// variable of that name is used as always; other unset variables are errors as always.
    package func shownOnly() -> Workspace {
        var out = self
        out.resolver.runsSecretCommands = false
        return out
    }

    /// This workspace with at least `count` connections kept per host (`check`'s jobs, `load`'s
    /// users: each sends on its own connection, as `wrk -cN` does).
    package func connections(atLeast count: Int) -> Workspace {
        var out = self
        out.settings.connection.connectionsPerHost = max(out.settings.connection.connectionsPerHost, count)
        return out
    }

    /// Whether requests built here may hold placeholders (`offline()`).
    package var isOffline: Bool { resolver.offline }

    /// The environment chosen by `--env` or `APICLI_ENV`.
    package var environmentName: String? { resolver.environmentName }

    // MARK: Targets

    /// Every service of the folder; the problems of every file together.
    package func catalog() throws(APIError) -> Catalog {
        try Catalog.load(directory: options.directory)
    }

    /// `catalog()`, appending each file's YAML tree to `trees` when not nil
    /// (`TargetFile.load(_:only:keeping:)`).
    package func catalog(keeping trees: inout [Node]?) throws(APIError) -> Catalog {
        try Catalog.load(directory: options.directory, keeping: &trees)
    }

    /// `service.target`, reading only its service's file when that file is named after it.
    package func find(_ name: String) throws(APIError) -> (Service, Target) {
        try Catalog.find(name, in: options.directory)
    }

    // MARK: Requests

    /// The request `target` sends, with everything a command needs around it. `captured`: the
    /// values the targets it `needs:` captured (`FlowRunner`), between its params and `-p`.
    package func build(_ target: Target, in service: Service, captured: [String: String] = [:]) throws(APIError) -> PreparedCall {
        try FileCheck.requestFiles(of: target, in: service)
        let endpoint = try resolver.endpoint(for: target, in: service, captured: captured)
        var request = try RequestBuilder.build(endpoint)
        request.secrets = resolver.secrets
        request.redirectScope = settings.redirectScope
        request.idle = target.stream?.idle
        request.maxEvent = resolver.overrides.maxEvent ?? target.stream?.maxEvent ?? StreamSettings.defaultMaxEvent
        if let ws = endpoint.task.websocket {
            request.websocket = WebSocketRequest(ws)
            request.url = WebSocketRequest.webSocketURL(request.url)
        } else if WebSocketRequest.isWebSocket(request.url) {
            throw .invalid(Diagnostic(file: service.file, mark: target.mark,
                                      message: "\(target.qualifiedName) goes to \(request.url.absoluteString), a WebSocket URL, without task: { websocket: }",
                                      hint: "add task: { websocket: { send: [ hello ] } }, or use an http:// or https:// base URL"))
        }
        var call = PreparedCall(service: service, target: target, endpoint: endpoint, request: request,
                                bindings: try resolver.bindings(for: target, in: service, captured: captured))
        // Asked of `target` (at hand) first: most targets have no `when:` (reading them through
        // `call.target` copied the target twice a request).
        if target.when != nil || !target.conditionalExpect.isEmpty { decideConditions(&call) }
        return call
    }

    /// The one place `when:` is decided, with the values the request was built with (params,
    /// captures, rows, `-p`, the environment): a false target `when:` marks the call skipped, and
    /// the `expect:` blocks whose `when:` holds are merged into the call's expectations.
    private func decideConditions(_ call: inout PreparedCall) {
        let values = call.bindings.conditionValues
        call.skipReason = Self.skipReason(call.target, values)
        if !call.target.conditionalExpect.isEmpty { call.target.expect = call.target.expectations(with: values) }
    }

    private static func skipReason(_ target: Target, _ values: ConditionValues) -> String? {
        guard let when = target.when, !when.condition.holds(in: values) else { return nil }
        return when.skipReason
    }

    /// Why `target` is skipped, decided without building its request (params, `-p` and the
    /// environment; no captures: `load` decides before its run), or nil.
    package func skipReason(for target: Target, in service: Service) -> String? {
        guard target.when != nil, let bindings = try? resolver.bindings(for: target, in: service) else { return nil }
        return Self.skipReason(target, bindings.conditionValues)
    }

    /// A captured value to hide in every output from now on (`secret: true` captures).
    package func hide(_ value: String) {
        resolver.secrets.record(value)
    }

    /// `build(_:in:)` for `service.target`.
    package func build(named name: String) throws(APIError) -> PreparedCall {
        let (service, target) = try find(name)
        return try build(target, in: service)
    }

    /// The validation and timeout of a target, from the same layers as its request, without
    /// expanding anything (so `validate` works without the secrets a request needs).
    package func policy(for target: Target, in service: Service) throws(APIError) -> Policy {
        try resolver.policy(for: target, in: service)
    }

    /// The placeholder values of a target (params, then `-p`): what samples expand with.
    package func bindings(for target: Target, in service: Service) throws(APIError) -> Bindings {
        try resolver.bindings(for: target, in: service)
    }

    /// `policy(for:in:)` of a target read in place (an element of `service.targets`: passed on
    /// as a `Target`, it was copied whole), for the targets of one service asked in turn: the
    /// policy every target without a `validate:` or `timeout:` of its own shares is kept in `plain`.
    package func policy(at target: UnsafePointer<Target>, in service: Service, plain: inout Policy?) throws(APIError) -> Policy {
        try resolver.policy(at: target, in: service, plain: &plain)
    }

    /// `bindings(for:in:)` of a target read in place.
    package func bindings(at target: UnsafePointer<Target>, in service: Service) throws(APIError) -> Bindings {
        try resolver.bindings(at: target, in: service)
    }

    /// A target's base URL, after the environment, `APICLI_BASE_URL_<SERVICE>` and `--base-url`.
    package func baseURL(for target: Target, in service: Service) throws(APIError) -> String {
        try resolver.baseURL(for: target, in: service)
    }

    /// The path of a target's base URL (`/v1` of `https://api.example.com/v1/`, "" for none):
    /// where `mock` serves the target's path.
    package func basePath(for target: Target, in service: Service) throws(APIError) -> String {
        let base = try baseURL(for: target, in: service)
        let path = URLComponents(string: base)?.percentEncodedPath ?? ""
        return path.split(separator: "/").joined(separator: "/").isEmpty ? "" : "/" + path.split(separator: "/").joined(separator: "/")
    }

    /// The TLS trust `service`'s requests are sent with (what `check` warns about before sending).
    package func tls(for service: Service) -> TLSOptions {
        resolver.tls(for: service)
    }

    /// Every secret value met so far (expanded `${SECRET}`s, captured secrets, OAuth2 tokens),
    /// whatever `--show-secrets` says: what `record` never writes.
    package var secretValues: [String] { resolver.secrets.values }

    /// Hides every secret value expanded so far (call it after building the requests to print);
    /// shows everything with `--show-secrets`.
    package var redactor: Redactor {
        options.showSecrets ? .off : resolver.secrets.redactor
    }
}
