import Foundation

/// Turns a `Target` into an `Endpoint`: merges service defaults, command-line overrides and the
/// target's own fields, and expands `{params}` and `${VARS}`. Precedence, lowest first:
/// service → target → command line.
public struct EndpointResolver: Sendable {
    /// What the command line adds on top of the target file.
    public struct Overrides: Sendable {
        /// `-p name=value`.
        public var params: [String: String]
        /// `-H 'Name: value'`, applied last.
        public var headers: [HeaderField]
        /// `--base-url`; beats `APICLI_BASE_URL_<SERVICE>` from the environment.
        public var baseURL: String?
        public var timeout: Double?
        /// `--cacert`, `--insecure`; they win over the service's `tls:`.
        public var tls: TLSOptions

        public init(params: [String: String] = [:], headers: [HeaderField] = [], baseURL: String? = nil,
                    timeout: Double? = nil, tls: TLSOptions = TLSOptions()) {
            self.params = params
            self.headers = headers
            self.baseURL = baseURL
            self.timeout = timeout
            self.tls = tls
        }
    }

    public var environment: [String: String]
    public var overrides: Overrides

    public init(environment: [String: String], overrides: Overrides = Overrides()) {
        self.environment = environment
        self.overrides = overrides
    }

    /// The environment variable that overrides a service's baseURL: `APICLI_BASE_URL_GITHUB`.
    public static func baseURLVariable(for service: String) -> String {
        "APICLI_BASE_URL_" + String(service.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// The placeholder values a target is expanded with: its params (themselves expanded against
    /// the environment), then `-p` overrides.
    public func bindings(for target: Target, in service: Service) throws(APIError) -> Bindings {
        var values: [String: String] = [:]
        let env = Bindings(environment: environment)
        for (name, template) in target.params where overrides.params[name] == nil {
            values[name] = try env.expand(template, in: "param '\(name)' of \(target.qualifiedName)",
                                          file: service.file, unresolved: .keep)
        }
        values.merge(overrides.params) { _, new in new }
        return Bindings(params: values, environment: environment)
    }

    public func endpoint(for target: Target, in service: Service) throws(APIError) -> Endpoint {
        let bindings = try bindings(for: target, in: service)
        let name = target.qualifiedName
        let file = service.file

        let variable = Self.baseURLVariable(for: service.name)
        let base: String
        var origin = ""
        if let url = overrides.baseURL {
            (base, origin) = (url, " (from --base-url)")
        } else if let url = environment[variable] {
            (base, origin) = (url, " (from \(variable))")
        } else {
            base = try bindings.expand(service.baseURL, in: "baseURL", file: file)
        }
        if let problem = URLBuilder.problem(withBaseURL: base) {
            let fromFile = origin.isEmpty
            throw .invalid(Diagnostic(file: fromFile ? file : nil, mark: fromFile ? service.baseURL.mark : nil,
                                      message: "base URL '\(base)'\(origin) for \(name) \(problem)",
                                      hint: "write it whole, like https://api.example.com/v1"))
        }
        var path = ""
        if let template = target.path {
            path = URLBuilder.encodePath(
                try bindings.expand(template, in: "the path of \(name)", file: file, encode: URLBuilder.encodeSegment))
        }

        var headers: [HeaderField] = []
        for header in service.headers + target.headers {
            headers.set(header.name, try bindings.expand(header.value, in: "header '\(header.name)' of \(name)", file: file))
        }
        for header in overrides.headers { headers.set(header.name, header.value) }

        return Endpoint(name: name, url: URLBuilder.join(base: base, path: path), method: target.method,
                        headers: headers, task: try expand(target.task, bindings, name, file),
                        timeout: overrides.timeout ?? target.timeout ?? service.timeout ?? Service.defaultTimeout,
                        validation: target.validation ?? service.validation ?? .none,
                        tls: (service.tls ?? TLSOptions()).overridden(by: overrides.tls), file: file)
    }

    private func expand(_ task: RequestTask, _ bindings: Bindings, _ name: String, _ file: String) throws(APIError) -> RequestTask {
        var out = task
        out.query = try task.query?.expanded(with: bindings, in: "the query of \(name)", file: file)
        out.parameters = try task.parameters?.expanded(with: bindings, in: "the parameters of \(name)", file: file)
        if let contentType = task.contentType {
            out.contentType = Template(try bindings.expand(contentType, in: "contentType of \(name)", file: file),
                                       mark: contentType.mark)
        }
        switch task.body {
        case .json(let v)?: out.body = .json(try v.expanded(with: bindings, in: "the JSON body of \(name)", file: file))
        case .form(let v)?: out.body = .form(try v.expanded(with: bindings, in: "the form body of \(name)", file: file))
        case .text(let t)?:
            out.body = .text(Template(try bindings.expand(t, in: "the body of \(name)", file: file, unresolved: .keep),
                                      mark: t.mark))
        case .file?, nil: break
        }
        return out
    }
}
