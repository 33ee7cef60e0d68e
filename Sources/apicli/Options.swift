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
    var request: PreparedRequest

    init(_ name: String, targets: TargetsOptions, options: RequestOptions) throws(APIError) {
        (service, target) = try Catalog.find(name, in: targets.directory)
        resolver = EndpointResolver(environment: ProcessInfo.processInfo.environment, overrides: options.overrides)
        endpoint = try resolver.endpoint(for: target, in: service)
        request = try RequestBuilder.build(endpoint)
    }
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
