import APICore
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

    var directory: String {
        targets ?? ProcessInfo.processInfo.environment["APICLI_TARGETS"] ?? "targets"
    }
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
}

extension APICLI {
    /// The workspace a command works in: the one factory of APICore, built from the option groups
    /// the command has. The groups a command does not have are nil (a group made outside parsing
    /// cannot be read).
    static func workspace(_ targets: TargetsOptions, _ environment: EnvironmentOptions? = nil,
                          _ request: RequestOptions? = nil, parts: [FormPart] = [],
                          maxBody: Int64? = nil, projectJar: Bool = false) throws(APIError) -> Workspace {
        var overrides = request?.overrides ?? EndpointResolver.Overrides()
        overrides.parts = parts
        try CookieFiles.open(cookie: request?.cookie, jar: request?.cookieJar)
        if let request, request.http1 || !request.resolve.isEmpty || !request.connectTo.isEmpty || request.unixSocket != nil {
            ConnectionOptions.run.withLock {
                $0 = ConnectionOptions(resolve: request.resolve.compactMap(ConnectionOptions.parseResolve),
                                       connectTo: request.connectTo.compactMap { try? ConnectionOptions.parseConnectTo($0) },
                                       unixSocket: request.unixSocket, http1Only: request.http1)
            }
        }
        overrides.maxBody = maxBody
        let options = Workspace.Options(directory: targets.directory, environmentName: environment?.environmentName,
                                        envFiles: environment?.envFiles ?? [], overrides: overrides,
                                        showSecrets: request?.showSecrets ?? false)
        let workspace = try Workspace(options, process: ProcessInfo.processInfo.environment)
        // apicli.yaml's cookies: { jar: } when --cookie-jar is not given (call and record only).
        if projectJar, let request, request.cookieJar == nil, let jar = workspace.project.cookieJar {
            try CookieFiles.open(cookie: nil, jar: jar)
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

    @Option(help: ArgumentHelp("Timeout in seconds for the whole exchange (default: the target's, else 60).",
                               valueName: "seconds"))
    var timeout: Double?

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

    func validate() throws {
        if let cacert, !Path.isReadable(cacert) {
            throw ValidationError("--cacert: cannot read '\(cacert)'")
        }
        for (flag, file) in [("--cert", cert), ("--key", key)] {
            if let file, !Path.isReadable(file) { throw ValidationError("\(flag): cannot read '\(file)'") }
        }
        if key != nil && cert == nil { throw ValidationError("--key needs --cert (the certificate the key belongs to)") }
        for r in resolve where ConnectionOptions.parseResolve(r) == nil {
            throw ValidationError("--resolve takes host:port:address (port 1-65535, an IP address), got '\(r)'")
        }
        if let awsSigV4, AWSScope.parse(awsSigV4) == nil {
            throw ValidationError("--aws-sigv4 takes aws:amz:REGION:SERVICE (as curl; e.g. aws:amz:eu-west-1:execute-api), got '\(awsSigV4)'")
        }
        for c in connectTo {
            do { _ = try ConnectionOptions.parseConnectTo(c) } catch { throw ValidationError(error.message) }
        }
        if let unixSocket, unixSocket.isEmpty || unixSocket.utf8.count > 107 {
            throw ValidationError("--unix-socket takes a socket path of 1 to 107 bytes, got '\(unixSocket)'")
        }
        if let cookie, !Path.isReadable(cookie) { throw ValidationError("--cookie: cannot read '\(cookie)'") }
        for p in params where !p.contains("=") || p.hasPrefix("=") {
            throw ValidationError("-p takes name=value, got '\(p)'")
        }
        for h in headers {
            guard let colon = h.firstIndex(of: ":"), colon != h.startIndex else {
                throw ValidationError("-H takes 'Name: value', got '\(h)'")
            }
        }
        if let timeout, !Durations.accepts(timeout, allowZero: false) {
            throw ValidationError("--timeout takes a positive number of seconds, at most \(Int(Durations.maxSeconds)) (a day), got \(timeout)")
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
            return HeaderField(String(h[..<colon]).trimmingSpaces(),
                               String(h[h.index(after: colon)...]).trimmingSpaces())
        }
        var overrides = EndpointResolver.Overrides(params: values, headers: fields, baseURL: baseURL, timeout: timeout,
                                                   tls: TLSOptions(caFile: cacert, verify: !insecure,
                                                                   certFile: cert, keyFile: key))
        overrides.tls.password = keyPassword
        if noFollow { overrides.followRedirects = false }
        overrides.awsSigV4 = awsSigV4.flatMap(AWSScope.parse)
        overrides.http2PriorKnowledge = http2PriorKnowledge
        return overrides
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
