/// One declared request: Moya's `TargetType` as data. Values that may hold `{param}` or `${VAR}` are
/// `Template`s; they are expanded when the target becomes an `Endpoint`.
public struct Target: Sendable {
    public var name: String
    public var service: String
    public var mark: Mark
    /// A one-line description for `apicli list`.
    public var doc: String?
    /// nil or empty: the base URL exactly (Moya's rule: no trailing slash is added).
    public var path: Template?
    /// Upper-cased RFC 9110 token; GET by default.
    public var method: String
    /// Defaults for `{placeholders}`, in declared order; `-p name=value` overrides.
    public var params: [(name: String, value: Template)]
    public var task: RequestTask
    public var headers: [Header]
    public var timeout: Double?
    public var validation: Validation?
    /// The default sample response, for `--stub`.
    public var sample: Sample?
    /// Named alternatives: `--stub --sample notFound`.
    public var samples: [(name: String, sample: Sample)]
    /// `expect:` for `apicli check`; nil: `validate:` decides.
    public var expect: Expectations? = nil
    /// `check:`; nil: checked when the method is GET, HEAD or OPTIONS.
    public var check: Bool? = nil
    /// `auth:`; `.none` turns off the service's or a rule's.
    public var auth: Auth? = nil

    /// `service.target`, the name users type.
    public var qualifiedName: String { "\(service).\(name)" }

    public func sample(named name: String?) -> Sample? {
        guard let name else { return sample }
        return samples.first { $0.name == name }?.sample
    }
}

/// How a target's parameters and body are sent: Moya's `Task`, as data. `query` combines with
/// any body, which covers Moya's composite tasks.
public struct RequestTask: Sendable {
    public enum Body: Sendable {
        /// A JSON body from any YAML value.
        case json(Value)
        /// Raw text; unknown `{names}` in it stay as written.
        case text(Template)
        /// A file's bytes; the path is absolute (resolved against the target file's folder).
        case file(String, mark: Mark)
        /// `application/x-www-form-urlencoded` from a mapping.
        case form(Value)
        /// `multipart/form-data` (Moya's `uploadMultipart`): parts in order.
        case multipart([FormPart])
        /// A file's bytes, typed from its extension (Moya's `uploadFile`); the path is absolute.
        case upload(String, mark: Mark)
    }

    public var query: Value?
    /// Moya's `requestParameters(parameters:encoding:)`: where these go depends on `encoding`.
    public var parameters: Value?
    public var encoding: ParameterEncoding
    public var body: Body?
    /// Overrides the body's default Content-Type (a header that sets one wins over both).
    public var contentType: Template?
    public var arrays: ArrayEncoding
    public var bools: BoolEncoding
    /// The `task:` keys the target wrote; a rule's `task:` changes only the others.
    public var declared: Set<String> = []
    /// `download:`: where the body is saved (relative to the working directory; `{params}` allowed).
    public var download: Template?

    public init(query: Value? = nil, parameters: Value? = nil, encoding: ParameterEncoding = .url, body: Body? = nil,
                contentType: Template? = nil, arrays: ArrayEncoding = .brackets, bools: BoolEncoding = .numeric) {
        self.query = query
        self.parameters = parameters
        self.encoding = encoding
        self.body = body
        self.contentType = contentType
        self.arrays = arrays
        self.bools = bools
    }
}

public enum ParameterEncoding: String, Sendable, CaseIterable {
    /// Moya's `URLEncoding.default` (methodDependent): the query for GET, HEAD and DELETE, a form body otherwise.
    case url
    case query
    case form
    case json
}

public enum ArrayEncoding: String, Sendable, CaseIterable {
    /// `k[]=a&k[]=b`
    case brackets
    /// `k=a&k=b`
    case noBrackets
}

public enum BoolEncoding: String, Sendable, CaseIterable {
    /// `1` / `0`
    case numeric
    /// `true` / `false`
    case literal
}

/// One part of a `multipart:` task, as declared: a value (which may hold `{params}`) or a file.
public struct FormPart: Sendable {
    public enum Content: Sendable {
        case value(Template)
        /// Absolute path (resolved against the target file's folder).
        case file(String)
    }

    public var name: String
    public var content: Content
    public var filename: String?
    public var type: String?
    /// Where the part is declared; nil for `-F`.
    public var mark: Mark?

    public init(name: String, content: Content, filename: String? = nil, type: String? = nil, mark: Mark? = nil) {
        self.name = name
        self.content = content
        self.filename = filename
        self.type = type
        self.mark = mark
    }
}
