import APISupport
import APIYAML
import APIJSON
/// How a target's parameters and body are sent: Moya's `Task`, as data. `query` combines with
/// any body, which covers Moya's composite tasks.
package struct RequestTask: Sendable {
    package enum Body: Sendable {
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

    package var query: Value?
    /// Moya's `requestParameters(parameters:encoding:)`: where these go depends on `encoding`.
    package var parameters: Value?
    package var encoding: ParameterEncoding
    package var body: Body?
    /// Overrides the body's default Content-Type (a header that sets one wins over both);
    /// `noContentType` (`contentType: none`) sends the body without one.
    package var contentType: Template?
    package static let noContentType = "none"
    package var arrays: ArrayEncoding
    package var bools: BoolEncoding
    /// The `task:` keys the target wrote; a rule's `task:` changes only the others.
    package var declared: [String] = []
    /// `download:`: where the body is saved (relative to the working directory; `{params}` allowed).
    package var download: Template?
    /// `websocket:`: a WebSocket conversation instead of a request body (the URL is ws:// or wss://).
    package var websocket: WebSocketTask? {
        get { websocketBox?.value }
        set { websocketBox = newValue.map(CopyOnWrite.init) }
    }
    /// Few targets hold a conversation: kept behind a reference when set, a pointer's size when not.
    private var websocketBox: CopyOnWrite<WebSocketTask>?

    package init(query: Value? = nil, parameters: Value? = nil, encoding: ParameterEncoding = .url, body: Body? = nil,
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
    package func parametersInBody(method: String) -> Bool {
        switch encoding {
        case .query: return false
        case .form, .json: return true
        case .url: return !HTTPMethods.query.contains(method)
        }
    }
}

package enum ParameterEncoding: String, Sendable, CaseIterable {
    /// Moya's `URLEncoding.default` (methodDependent): the query for GET, HEAD and DELETE, a form body otherwise.
    case url
    case query
    case form
    case json
}

package enum ArrayEncoding: String, Sendable, CaseIterable {
    /// `k[]=a&k[]=b`
    case brackets
    /// `k=a&k=b`
    case noBrackets
}

package enum BoolEncoding: String, Sendable, CaseIterable {
    /// `1` / `0`
    case numeric
    /// `true` / `false`
    case literal
}
