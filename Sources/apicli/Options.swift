import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APISend
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the target files are: every command that reads targets.
struct TargetsOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Folder of target files (default: $APICLI_TARGETS, else ./targets).",
                                            valueName: "dir"),
            completion: .directory)
    var targets: String?

    var values: TargetsValues { TargetsValues(targets: targets) }
    var directory: String { values.directory }
}

/// `--env` and `--env-file`: which `environments:` entry and which KEY=VALUE files apply.
struct EnvironmentOptions: ParsableArguments {
    @Option(name: .customLong("env"),
            help: ArgumentHelp("Use this entry of environments: (apicli.yaml or the service file); default $APICLI_ENV.",
                               valueName: "name"))
    var environmentName: String?

    @Option(name: .customLong("env-file"),
            help: ArgumentHelp("Load KEY=VALUE lines before ${VAR} expansion (repeatable; targets/.env is read when present); the process environment wins.",
                               valueName: "file"))
    var envFiles: [String] = []

    var values: EnvironmentValues { EnvironmentValues(environmentName: environmentName, envFiles: envFiles) }
}

extension APICLI {
    /// The workspace of a command parsed by argument-parser, from the option groups it has.
    static func workspace(_ targets: TargetsOptions, _ environment: EnvironmentOptions? = nil,
                          _ request: RequestOptions? = nil, parts: [FormPart] = [],
                          maxBody: Int64? = nil, projectJar: Bool = false, cookies: CookieJar? = nil) throws(APIError) -> Workspace {
        try workspace(targets.values, environment?.values, request?.values, parts: parts, maxBody: maxBody, projectJar: projectJar,
                      cookies: cookies)
    }

    /// The workspace a command works in: the one factory of APICore, built from the option values
    /// the command has. The groups a command does not have are nil. `cookies`: the jar of an
    /// earlier workspace of the same run (`record`'s, one per target), else a new one filled from
    /// `--cookie`/`--cookie-jar`.
    static func workspace(_ targets: TargetsValues, _ environment: EnvironmentValues? = nil,
                          _ request: RequestValues? = nil, parts: [FormPart] = [],
                          maxBody: Int64? = nil, projectJar: Bool = false, cookies shared: CookieJar? = nil) throws(APIError) -> Workspace {
        var overrides = request?.overrides ?? EndpointResolver.Overrides()
        overrides.parts = parts
        let cookies = shared ?? CookieJar()
        if shared == nil { try CookieFiles.open(cookie: request?.cookie, jar: request?.cookieJar, into: cookies) }
        overrides.maxBody = maxBody
        let options = Workspace.Options(directory: targets.directory, environmentName: environment?.environmentName,
                                        envFiles: environment?.envFiles ?? [], overrides: overrides,
                                        showSecrets: request?.showSecrets ?? false)
        let workspace = try Workspace(options, process: ProcessEnvironment.all(),
                                      connection: request?.connection ?? ConnectionOptions(), cookies: cookies)
        // apicli.yaml's cookies: { jar: } when --cookie-jar is not given (call and record only).
        if projectJar, shared == nil, let request, request.cookieJar == nil, let jar = workspace.project.cookieJar {
            try CookieFiles.open(cookie: nil, jar: jar, into: cookies)
        }
        return workspace
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

    @Option(help: ArgumentHelp("Timeout for the whole exchange: 30, 1.5, 800ms, 2s, 1m (default: the target's, else 60 s).",
                               valueName: "duration"))
    var timeout: Seconds?

    @Option(help: ArgumentHelp("Trust the certificates in this PEM file too (a private CA, a self-signed server).",
                               valueName: "file"), completion: .file())
    var cacert: String?

    @Option(help: ArgumentHelp("Present this client certificate (PEM, with its chain; the key too unless --key).",
                               valueName: "file"), completion: .file())
    var cert: String?

    @Option(help: ArgumentHelp("The private key (PEM) of the --cert client certificate.", valueName: "file"),
            completion: .file())
    var key: String?

    @Option(name: [.customLong("key-password"), .customLong("pass")],
            help: ArgumentHelp("The password of an encrypted PEM private key (--key, tls: { key: }); as curl's --pass. Prefer tls: { keyPassword: \"${KEY_PASS}\" }.",
                               valueName: "password"))
    var keyPassword: String?

    @Flag(help: "Do not verify the server's certificate (a warning is printed).")
    var insecure = false

    @Option(help: ArgumentHelp("Connect to ADDRESS for requests to HOST on PORT; TLS still verified for HOST (as curl; repeatable).",
                               valueName: "host:port:address"))
    var resolve: [String] = []

    @Option(name: .customLong("connect-to"),
            help: ArgumentHelp("Connect to HOST2:PORT2 for requests to HOST:PORT; Host and TLS stay HOST's; empty parts mean any/same (as curl; repeatable).",
                               valueName: "host:port:host2:port2"))
    var connectTo: [String] = []

    @Option(name: .customLong("unix-socket"),
            help: ArgumentHelp("Send every request over this unix domain socket (as curl).", valueName: "path"),
            completion: .file())
    var unixSocket: String?

    @Flag(name: .customLong("http1.1"), help: "Use HTTP/1.1 only, even where the server offers HTTP/2 (as curl).")
    var http1 = false

    @Option(help: ArgumentHelp("Start with the cookies of this Netscape cookie file (as curl -b FILE).", valueName: "file"),
            completion: .file())
    var cookie: String?

    @Option(name: .customLong("cookie-jar"),
            help: ArgumentHelp("Read cookies from this Netscape file if it exists and write the run's cookies back to it (0600; as curl -b FILE -c FILE).",
                               valueName: "file"), completion: .file())
    var cookieJar: String?

    @Flag(name: .customLong("http2-prior-knowledge"),
          help: "Speak HTTP/2 to http:// URLs from the first byte, without upgrade (h2c; as curl, and as http2: prior-knowledge).")
    var http2PriorKnowledge = false

    @Option(name: .customLong("aws-sigv4"),
            help: ArgumentHelp("Sign with AWS Signature Version 4 for REGION and SERVICE, keys from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN (as curl).",
                               valueName: "aws:amz:region:service"))
    var awsSigV4: String?

    @Flag(name: .customLong("no-follow"), help: "Do not follow redirects: a 3xx is the response (as followRedirects: false).")
    var noFollow = false

    @Flag(name: .customLong("show-secrets"),
          help: "Print credentials and values of secret ${VAR}s (TOKEN, SECRET, PASSWORD, KEY) instead of ••••.")
    var showSecrets = false

    @Option(name: .customLong("max-event-size"),
            help: ArgumentHelp("The longest text/event-stream line and the largest event, in bytes (default 8 MiB; as stream: { maxEventSize: }); a longer one ends the exchange (exit 3).",
                               valueName: "bytes"))
    var maxEvent: Int64?

    /// The plain values, as the hand parser (HandParser.swift) fills them too.
    var values: RequestValues {
        RequestValues(params: params, headers: headers, baseURL: baseURL, timeout: timeout?.value, cacert: cacert, cert: cert,
                      key: key, keyPassword: keyPassword, insecure: insecure, resolve: resolve, connectTo: connectTo,
                      unixSocket: unixSocket, http1: http1, cookie: cookie, cookieJar: cookieJar,
                      http2PriorKnowledge: http2PriorKnowledge, awsSigV4: awsSigV4, noFollow: noFollow, showSecrets: showSecrets,
                      maxEvent: maxEvent)
    }

    func validate() throws { try values.validate() }
}

/// A duration on the command line, written as target files write one (`timeout: 2s`): seconds
/// (30, 1.5) or a number with a unit (800ms, 2s, 1m). Its range is checked with the option's.
struct Seconds: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        guard let seconds = NodeReader.seconds(argument) else { return nil }
        value = seconds
    }
}

/// Completes `service.target` names from the target files (honours --targets on the line).
@Sendable func completeTargetNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    var directory = ProcessEnvironment.all()["APICLI_TARGETS"] ?? "targets"
    if let i = words.firstIndex(of: "--targets"), i + 1 < words.count { directory = words[i + 1] }
    var names: [String] = []
    for file in (try? Catalog.files(in: directory)) ?? [] {
        if let service = try? TargetFile.load(file) { names += service.targets.map(\.qualifiedName) }
    }
    return names.filter { $0.hasPrefix(prefix) }
}

/// `--retries`, which `call`, `record` and `check` declare alike (as an option of their own: an
/// option group costs every run its reflection at start-up).
enum SendOptions {
    static let retriesHelp = ArgumentHelp("Retries after a network failure or a 5xx, with exponential backoff (Retry-After honoured); at most \(SendPolicy.maxRetries).",
                                          valueName: "n")

    /// In each command's `validate()`: out of range is exit 64.
    static func validate(retries: Int) throws {
        if retries < 0 || retries > SendPolicy.maxRetries {
            throw ValidationError("--retries takes 0 to \(SendPolicy.maxRetries), got \(retries)")
        }
    }
}

/// `--shard`, which `check` and `load` take alike: `i/n` or `auto` (`Shard.Request`).
enum ShardOption {
    /// In each command's validation: anything else is exit 64.
    static func parse(_ text: String?) throws -> Shard.Request? {
        guard let text else { return nil }
        guard let request = Shard.Request(text) else {
            throw ValidationError("--shard takes i/n with 1 ≤ i ≤ n, like 2/4, or auto, got '\(text)'")
        }
        return request
    }
}
