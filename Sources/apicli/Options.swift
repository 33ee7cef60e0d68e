import APICore
import ArgumentParser
import Foundation

/// Where the target files are.
struct TargetsOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Folder of target files (default: $APICLI_TARGETS, else ./targets).",
                                            valueName: "dir"),
            completion: .directory)
    var targets: String?

    var directory: String {
        targets ?? ProcessInfo.processInfo.environment["APICLI_TARGETS"] ?? "targets"
    }
}

/// What the command line changes about a request.
struct RequestOptions: ParsableArguments {
    @Option(name: [.customShort("p"), .customLong("param")],
            help: ArgumentHelp("Set a {placeholder}: -p name=octocat (repeatable).", valueName: "name=value"))
    var params: [String] = []

    @Option(name: [.customShort("H"), .customLong("header")],
            help: ArgumentHelp("Add or replace a header: -H 'X-Trace: 1' (repeatable).", valueName: "name: value"))
    var headers: [String] = []

    @Option(name: .customLong("base-url"),
            help: ArgumentHelp("Use this base URL instead of the service's (also APICLI_BASE_URL_<SERVICE>).",
                               valueName: "url"))
    var baseURL: String?

    @Option(help: ArgumentHelp("Timeout in seconds for the whole exchange (default: the target's, else 60).",
                               valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Trust the certificates in this PEM file too (a private CA, a self-signed server).",
                               valueName: "file"), completion: .file())
    var cacert: String?

    @Flag(help: "Do not verify the server's certificate (a warning is printed).")
    var insecure = false

    @Option(name: .customLong("env"),
            help: ArgumentHelp("Use this entry of environments: (apicli.yaml or the service file); default $APICLI_ENV.",
                               valueName: "name"))
    var environmentName: String?

    @Option(name: .customLong("env-file"),
            help: ArgumentHelp("Load KEY=VALUE lines before ${VAR} expansion (repeatable; targets/.env is read when present); the process environment wins.",
                               valueName: "file"))
    var envFiles: [String] = []

    @Flag(name: .customLong("show-secrets"),
          help: "Print credentials and values of secret ${VAR}s (TOKEN, SECRET, PASSWORD, KEY) instead of ••••.")
    var showSecrets = false

    func validate() throws {
        if let cacert, !FileManager.default.isReadableFile(atPath: cacert) {
            throw ValidationError("--cacert: cannot read '\(cacert)'")
        }
        for p in params where !p.contains("=") || p.hasPrefix("=") {
            throw ValidationError("-p takes name=value, got '\(p)'")
        }
        for h in headers {
            guard let colon = h.firstIndex(of: ":"), colon != h.startIndex else {
                throw ValidationError("-H takes 'Name: value', got '\(h)'")
            }
        }
        if let timeout, !(timeout > 0) || !timeout.isFinite {
            throw ValidationError("--timeout takes a positive number of seconds, got \(timeout)")
        }
    }

    var overrides: EndpointResolver.Overrides {
        var values: [String: String] = [:]
        for p in params {
            let parts = p.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        let fields = headers.map { h -> HeaderField in
            let colon = h.firstIndex(of: ":")!
            return HeaderField(String(h[..<colon]).trimmingCharacters(in: .whitespaces),
                               String(h[h.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return .init(params: values, headers: fields, baseURL: baseURL, timeout: timeout,
                     tls: TLSOptions(caFile: cacert, verify: !insecure))
    }
}

/// A target found, resolved and built into the request it sends.
struct ResolvedCall {
    var service: Service
    var target: Target
    var resolver: EndpointResolver
    var endpoint: Endpoint
    /// Before the plugins' `prepare` (the transport gets it through `Exchange.perform`).
    var request: PreparedRequest
    var plugins: [any Plugin]

    /// Resolves the target and points `Terminal.redactor` at its secrets. `parts` come from `-F`.
    init(_ name: String, targets: TargetsOptions, options: RequestOptions, parts: [FormPart] = []) throws(APIError) {
        (service, target) = try Catalog.find(name, in: targets.directory)
        var overrides = options.overrides
        overrides.parts = parts
        let process = ProcessInfo.processInfo.environment
        let variables = try EnvFile.environment(directory: targets.directory, files: options.envFiles, process: process)
        let environmentName = options.environmentName ?? process["APICLI_ENV"].flatMap { $0.isEmpty ? nil : $0 }
        resolver = EndpointResolver(environment: variables, overrides: overrides,
                                    project: try Project.load(directory: targets.directory),
                                    environmentName: environmentName)
        let secrets = resolver.secrets
        defer { Terminal.redactor = options.showSecrets ? .off : Redactor(secrets: secrets.values) }
        endpoint = try resolver.endpoint(for: target, in: service)
        request = try RequestBuilder.build(endpoint)
        plugins = endpoint.plugins
    }

    /// The request as it would be sent: after the plugins' `prepare` (auth).
    var prepared: PreparedRequest { plugins.prepare(request) }
}

/// Completes `service.target` names from the target files (honours --targets on the line).
@Sendable func completeTargetNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    var directory = ProcessInfo.processInfo.environment["APICLI_TARGETS"] ?? "targets"
    if let i = words.firstIndex(of: "--targets"), i + 1 < words.count { directory = words[i + 1] }
    var names: [String] = []
    for file in (try? Catalog.files(in: directory)) ?? [] {
        if let service = try? TargetFile.load(file) { names += service.targets.map(\.qualifiedName) }
    }
    return names.filter { $0.hasPrefix(prefix) }
}
