import APISupport
import APIYAML
import APIDiagnostics
import APISecrets
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Turns a `Target` into an `Endpoint`: merges the project file, environments, service defaults,
/// rules, the target's own fields and command-line overrides, and expands `{params}` and
/// `${VARS}`. Precedence, lowest first: apicli.yaml → service → rules → target → command line.
package struct EndpointResolver: Sendable {
    /// What the command line adds on top of the target file.
    package struct Overrides: Sendable {
        /// `-p name=value`.
        package var params: [String: String]
        /// `-H 'Name: value'`, applied last.
        package var headers: [HeaderField]
        /// `--base-url`; beats `APICLI_BASE_URL_<SERVICE>` from the environment.
        package var baseURL: String?
        package var timeout: Double?
        /// `--cacert`, `--insecure`; they win over the service's `tls:`.
        package var tls: TLSOptions
        /// `-F name=value` / `-F name=@file`: multipart parts that replace the declared parts of
        /// the same name (at the first one's place) or are added after them. Values are literal.
        package var parts: [FormPart]
        /// `--no-follow`: false.
        package var followRedirects: Bool?
        /// `check --max-body`: the most body bytes held in memory.
        package var maxBody: Int64?
        /// `--aws-sigv4 aws:amz:REGION:SERVICE`: SigV4 instead of the target's auth (its `aws:` keys kept).
        package var awsSigV4: AWSScope?
        /// `--http2-prior-knowledge`.
        package var http2PriorKnowledge = false
        /// `--max-event-size BYTES`: beats the target's `stream: { maxEventSize: }`.
        package var maxEvent: Int64?

        package init(params: [String: String] = [:], headers: [HeaderField] = [], baseURL: String? = nil,
                    timeout: Double? = nil, tls: TLSOptions = TLSOptions(), parts: [FormPart] = []) {
            self.params = params
            self.headers = headers
            self.baseURL = baseURL
            self.timeout = timeout
            self.tls = tls
            self.parts = parts
        }
    }

    package var environment: [String: String] {
        didSet { namesBaseURL = Self.namesBaseURL(environment) }
    }
    /// Whether `environment` holds an `APICLI_BASE_URL_…` variable: without one (nearly every run)
    /// no request makes its service's variable name to look it up.
    private var namesBaseURL: Bool
    package var overrides: Overrides
    /// `targets/apicli.yaml` (empty when there is none).
    package var project: Project
    /// `--env NAME` or `APICLI_ENV`.
    package var environmentName: String?
    /// Nothing is sent (`--stub`, `mock`): an unset `${VAR}` that feeds the request stands as
    /// `Bindings.placeholder` instead of being an error. Samples and the base URL's path still need theirs.
    package var offline = false
    /// false for requests that are only shown (`show`, `call --dry-run`): the `secrets:` commands
    /// do not run; their variables stand as `Bindings.placeholder`.
    package var runsSecretCommands = true
    /// Every secret value this resolver has expanded, even when resolving then failed, so the
    /// error line can be redacted too.
    package let secrets = Secrets()

    package init(environment: [String: String], overrides: Overrides = Overrides(), project: Project = Project(),
                environmentName: String? = nil) {
        self.environment = environment
        namesBaseURL = Self.namesBaseURL(environment)
        self.overrides = overrides
        self.project = project
        self.environmentName = environmentName
    }

    /// `secrets:` of the project file (their values are cached per process, not per resolver).
    var providers: SecretProviders? {
        project.secrets.isEmpty ? nil : SecretProviders(project.secrets, runs: runsSecretCommands)
    }

    private static func namesBaseURL(_ environment: [String: String]) -> Bool {
        environment.keys.contains { $0.hasPrefix(baseURLPrefix) }
    }

    private static let baseURLPrefix = "APICLI_BASE_URL_"

    /// The environment variable that overrides a service's baseURL: `APICLI_BASE_URL_GITHUB`.
    package static func baseURLVariable(for service: String) -> String {
        // An ASCII name without CR (each byte a character) byte by byte: every request asks.
        if !service.utf8.contains(where: { $0 >= 0x80 || $0 == 13 }) {
            return "APICLI_BASE_URL_" + String(decoding: service.utf8.map { b in
                switch b {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): b - 0x20
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): b
                default: UInt8(ascii: "_")
                }
            }, as: UTF8.self)
        }
        return "APICLI_BASE_URL_" + String(service.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// The placeholder values a target is expanded with: its params (themselves expanded against
    /// the environment), then `-p` overrides.
    /// `captured`: values from the targets it `needs:`, between its params and `-p`.
    package func bindings(for target: Target, in service: Service, captured: [String: String] = [:]) throws(APIError) -> Bindings {
        try withUnsafePointer(to: target) { (target) throws(APIError) in try bindings(at: target, in: service, captured: captured) }
    }

    /// `bindings(for:in:captured:)` of a target read in place (an element of `service.targets`
    /// judged by `validate`: passing it on as a `Target` copied the whole target).
    package func bindings(at target: UnsafePointer<Target>, in service: Service, captured: [String: String] = [:]) throws(APIError) -> Bindings {
        var values = [String: String](minimumCapacity: target.pointee.params.count)
        let unset: Bindings.Unset = offline ? .placeholder : .fail
        let env = Bindings(environment: environment, secrets: secrets, providers: providers, unset: unset)
        var placeholderParams: [String: [String]] = [:]
        // Hashing a name to look it up in an empty dictionary (no -p, no capture: most requests) is skipped.
        for (name, template) in target.pointee.params
        where (overrides.params.isEmpty || overrides.params[name] == nil) && (captured.isEmpty || captured[name] == nil) {
            var unsetNames: [String] = []
            values[name] = try env.expand(template, in: "param '\(name)' of \(target.pointee.qualifiedName)",
                                          file: service.file, unresolved: .keep, placeholders: &unsetNames)
            if !unsetNames.isEmpty { placeholderParams[name] = unsetNames }
        }
        if !captured.isEmpty { values.merge(captured) { _, new in new } }
        if !overrides.params.isEmpty { values.merge(overrides.params) { _, new in new } }
        return Bindings(params: values, environment: environment, secrets: secrets, providers: providers, unset: unset,
                        placeholderParams: placeholderParams)
    }

    /// The validation and timeout of a target, from the same layers as `endpoint(for:in:)` but
    /// without expanding anything: what `validate` judges samples with when secrets are not set.
    package func policy(for target: Target, in service: Service) throws(APIError) -> Policy {
        try withUnsafePointer(to: target) { (target) throws(APIError) in try policy(at: target, in: service) }
    }

    /// `policy(for:in:)` of a target read in place (`bindings(at:in:captured:)`).
    package func policy(at target: UnsafePointer<Target>, in service: Service) throws(APIError) -> Policy {
        // No rule and no environment: no layer sets either, so none is built (what `validate`
        // meets for every target of most files; building them was most of the cost).
        var layers: Layers?
        if !project.rules.isEmpty || !service.rules.isEmpty || environmentName != nil {
            layers = try Layers(project: project, service: service, target: target.pointee, environmentName: environmentName)
        }
        var ignored: [Origin] = []
        return Policy(validation: validation(target.pointee.validation, service, layers, &ignored),
                      timeout: timeout(target.pointee.timeout, service, layers, &ignored))
    }

    /// `policy(at:in:)` of the targets of one service asked in turn (`validate`'s sample check):
    /// without a rule or an environment, a target with neither `validate:` nor `timeout:` of its
    /// own has the service's policy, made for the first such target and kept in `plain` (nil to
    /// start with; one per service).
    package func policy(at target: UnsafePointer<Target>, in service: Service, plain: inout Policy?) throws(APIError) -> Policy {
        guard target.pointee.validation == nil, target.pointee.timeout == nil, project.rules.isEmpty, service.rules.isEmpty,
              environmentName == nil else { return try policy(at: target, in: service) }
        if let plain { return plain }
        let made = try policy(at: target, in: service)
        plain = made
        return made
    }

    /// The TLS trust of every request of `service`: its `tls:`, under `--cacert` and `--insecure`.
    package func tls(for service: Service) -> TLSOptions {
        (service.tls ?? TLSOptions()).overridden(by: overrides.tls)
    }

    /// The base URL a target's request goes to (environment, `APICLI_BASE_URL_…`, `--base-url`
    /// applied), without building the rest of the request: what `mock` routes by.
    package func baseURL(for target: Target, in service: Service) throws(APIError) -> String {
        let layers = try Layers(project: project, service: service, target: target, environmentName: environmentName)
        var ignored: [Origin] = []
        let base = try baseURL(service, layers, try bindings(for: target, in: service), target.qualifiedName, &ignored)
        if case .success(let unix)? = UnixSocketBase.parse(base) { return unix.base }
        return base
    }

    package func endpoint(for target: Target, in service: Service, captured: [String: String] = [:]) throws(APIError) -> Endpoint {
        let bindings = try bindings(for: target, in: service, captured: captured)
        let layers = try Layers(project: project, service: service, target: target, environmentName: environmentName)
        let name = target.qualifiedName
        let file = service.file
        var origins: [Origin] = []

        var base = try baseURL(service, layers, bindings, name, &origins)
        var socket: String? = nil
        if case .success(let unix)? = UnixSocketBase.parse(base) { (base, socket) = (unix.base, unix.socket) }
        var path = ""
        if let template = target.path {
            path = URLBuilder.encodePath(
                try bindings.expand(template, in: "the path of \(name)", file: file, encode: URLBuilder.encodeSegment,
                                    encodeReserved: URLBuilder.encodeReserved))
        }

        var headers: [HeaderField] = []
        var headerSources: [String: String] = [:]
        for h in layers.headers(service: service) + target.headers.map({ .init(value: $0, origin: nil, file: file) }) {
            let header = h.value
            headers.set(header.name, try headerValue(header.value, bindings, in: "header '\(header.name)' of \(name)", file: h.file))
            headerSources[header.name.lowercased()] = h.origin
        }
        for header in overrides.headers {
            try Self.checkHeaderValue(header.value, in: "header '\(header.name)' of \(name) (from -H)", comesFrom: [], file: nil, mark: nil)
            headers.set(header.name, header.value)
            headerSources[header.name.lowercased()] = nil
        }
        origins += headers.compactMap { h in headerSources[h.name.lowercased()].map { Origin(.header(h.name), from: $0) } }

        var task = try expand(patched(target.task, layers, &origins), bindings, name, file)
        try addParts(to: &task, target, file)
        var endpoint = Endpoint(name: name, url: URLBuilder.join(base: base, path: path), method: target.method,
                                headers: headers, task: task,
                                timeout: timeout(target.timeout, service, layers, &origins),
                                validation: validation(target.validation, service, layers, &origins), file: file)
        let auth = auth(target, service, layers, &origins)
        if let scope = overrides.awsSigV4 {
            var settings = AWSSettings<Template>(region: nil, service: Template("", mark: target.mark))
            if case .aws(let declared)? = auth?.value { settings = declared }
            settings.region = Template(scope.region, mark: settings.service.mark)
            settings.service = Template(scope.service, mark: settings.service.mark)
            endpoint.credential = .aws(try awsCredentials(settings, bindings, name, auth?.file ?? file, fromFlag: true))
        } else {
            endpoint.credential = try credential(auth?.value, bindings, name, auth?.file ?? file)
        }
        if let (cookies, rule) = layers.lastRule(\.cookies) {
            endpoint.cookies = cookies
            origins.append(Origin(.cookies(cookies), from: rule.label))
        }
        endpoint.followRedirects = overrides.followRedirects ?? target.followRedirects
            ?? layers.lastRule(\.followRedirects)?.0 ?? service.followRedirects ?? true
        endpoint.maxBody = overrides.maxBody ?? PreparedRequest.defaultMaxBody
        endpoint.tls = tls(for: service)
        endpoint.socket = socket
        endpoint.http2PriorKnowledge = overrides.http2PriorKnowledge || service.http2PriorKnowledge
        if let password = endpoint.tls.passwordTemplate {
            endpoint.tls.password = try bindings.expand(Template(password, mark: endpoint.tls.passwordMark ?? Mark(line: 1, column: 1)), in: "the tls password of \(name)", file: service.file)
        }
        endpoint.tls.password.map(secrets.record)
        if let download = task.download {
            // A placeholder's value (a -p, a param, a capture from a response) names one entry of its
            // folder, as `--download` names do: `{name}` = `../outside/victim.txt` is refused.
            var leaving: String?
            let keep = { (value: String) -> String in
                if leaving == nil, !Path.isPlainName(value) { leaving = value }
                return value
            }
            endpoint.download = try bindings.expand(download, in: "the download path of \(name)", file: file,
                                                    encode: keep, encodeReserved: keep)
            if let leaving {
                throw .invalid(Diagnostic(file: file, mark: download.mark,
                                          message: "the download path of \(name): a placeholder's value '\(leaving)' "
                                              + "is not a plain file name (no '/', '\\', '.', '..' nor control characters): nothing written",
                                          hint: "a value put into download: names one file in its folder; write folders in the path itself"))
            }
        }
        endpoint.secrets = bindings.secrets.values
        endpoint.origins = origins
        return endpoint
    }

    private func baseURL(_ service: Service, _ layers: Layers, _ bindings: Bindings, _ name: String,
                         _ origins: inout [Origin]) throws(APIError) -> String {
        var template = service.baseURL
        var templateFile = service.file
        var origin = ""
        if let env = layers.baseURL(service: service) {
            (template, templateFile) = (env.value, env.file)
            origins.append(Origin(.baseURL, from: env.origin ?? ""))
        }
        let base: String
        if let url = overrides.baseURL {
            (base, origin) = (url, " (from --base-url)")
        } else if namesBaseURL, case let variable = Self.baseURLVariable(for: service.name), let url = environment[variable] {
            (base, origin) = (url, " (from \(variable))")
        } else {
            base = try bindings.expand(template, in: "baseURL", file: templateFile)
            // Offline, a placeholder may stand in the base URL as long as it stays a URL.
            if bindings.unset == .placeholder, URLBuilder.problem(withBaseURL: base) != nil {
                _ = try bindings.strict.expand(template, in: "baseURL", file: templateFile)
            }
        }
        if let problem = URLBuilder.problem(withBaseURL: base) {
            let fromFile = origin.isEmpty
            throw .invalid(Diagnostic(file: fromFile ? templateFile : nil, mark: fromFile ? template.mark : nil,
                                      message: "base URL '\(base)'\(origin) for \(name) \(problem)",
                                      hint: URLBuilder.baseURLHint(base)))
        }
        return base
    }

    /// `layers`: nil when no rule or environment applies.
    /// `own`: the target's `timeout:`.
    private func timeout(_ own: Double?, _ service: Service, _ layers: Layers?, _ origins: inout [Origin]) -> Double {
        if let t = overrides.timeout ?? own { return t }
        if let (t, rule) = layers?.lastRule(\.timeout) {
            origins.append(Origin(.timeout, from: rule.label))
            return t
        }
        if let t = service.timeout { return t }
        if let t = project.timeout {
            origins.append(Origin(.timeout, from: "apicli.yaml"))
            return t
        }
        return Service.defaultTimeout
    }

    /// `own`: the target's `validate:`.
    private func validation(_ own: Validation?, _ service: Service, _ layers: Layers?, _ origins: inout [Origin]) -> Validation {
        if let v = own { return v }
        if let (v, rule) = layers?.lastRule(\.validation) {
            origins.append(Origin(.validation, from: rule.label))
            return v
        }
        return service.validation ?? project.validation ?? .none
    }

    /// The `auth:` that applies and the file that declares it.
    private func auth(_ target: Target, _ service: Service, _ layers: Layers,
                      _ origins: inout [Origin]) -> Layers.Sourced<Auth>? {
        if let a = target.auth { return .init(value: a, file: service.file) }
        if let (a, rule) = layers.lastRule(\.auth) {
            origins.append(Origin(.auth, from: rule.label))
            return .init(value: a, file: rule.file)
        }
        if let a = service.auth { return .init(value: a, file: service.file) }
        guard let a = project.auth else { return nil }
        origins.append(Origin(.auth, from: "apicli.yaml"))
        return .init(value: a, file: project.file ?? service.file)
    }

    /// The rules' `task:` encodings, for the fields the target does not declare itself.
    private func patched(_ task: RequestTask, _ layers: Layers, _ origins: inout [Origin]) -> RequestTask {
        var out = task
        for rule in layers.rules {
            origins += rule.task?.apply(to: &out).map { Origin(.task($0), from: rule.label) } ?? []
        }
        return out
    }
}
