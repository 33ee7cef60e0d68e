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
        /// A GraphQL operation: a JSON body, or with `method: GET` the URL's query.
        case graphql(GraphQLOperation)
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
    public var declared: [String] = []
    /// `download:`: where the body is saved (relative to the working directory; `{params}` allowed).
    public var download: Template?
    /// `websocket:`: a WebSocket conversation instead of a request body (the URL is ws:// or wss://).
    public var websocket: WebSocketTask?

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

extension RequestTask {
    /// Whether `parameters:` go in the body for `method`: always with `encoding: form` or `json`,
    /// and with `encoding: url` for methods that carry a body (Moya's methodDependent).
    public func parametersInBody(method: String) -> Bool {
        switch encoding {
        case .query: return false
        case .form, .json: return true
        case .url: return !HTTPMethods.query.contains(method)
        }
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
