/// What a healthy response looks like for `apicli check`: a target's `expect:` block.
/// Every part is optional; an absent part checks nothing. Without `status:`, the target's
/// `validate:` rule still judges the status.
public struct Expectations: Sendable, Equatable {
    public var status: [StatusPattern]?
    public var headers: [HeaderExpectation]
    public var json: [JSONExpectation]
    public var body: BodyExpectation?
    /// `schema:`: the JSON body must satisfy it.
    public var schema: SchemaExpectation?
    /// Seconds.
    public var maxTime: Double?
    public var mark: Mark
    /// A GraphQL target (`errors: fail`, the default): a non-empty `errors` list fails.
    public var graphqlErrors = false
    /// `events:`: conditions on a `text/event-stream` answer's events.
    public var events: EventsExpectation?
    /// `task: { websocket: { expect: } }`: messages the conversation must hold, in order.
    public var messages: [MessageMatch]?

    public init(status: [StatusPattern]? = nil, headers: [HeaderExpectation] = [], json: [JSONExpectation] = [],
                body: BodyExpectation? = nil, schema: SchemaExpectation? = nil, maxTime: Double? = nil, mark: Mark) {
        self.schema = schema
        self.status = status
        self.headers = headers
        self.json = json
        self.body = body
        self.maxTime = maxTime
        self.mark = mark
    }
}

/// `200` or `"2xx"`.
public enum StatusPattern: Sendable, Equatable, CustomStringConvertible {
    case code(Int)
    /// The first digit: `2` for `2xx`.
    case family(Int)

    public func matches(_ status: Int) -> Bool {
        switch self {
        case .code(let c): return status == c
        case .family(let f): return status / 100 == f
        }
    }

    public var description: String {
        switch self {
        case .code(let c): return String(c)
        case .family(let f): return "\(f)xx"
        }
    }
}

/// `Content-Type: "~json"` (contains) or `X-Api: "v2"` (equals). Names are case-insensitive.
public struct HeaderExpectation: Sendable, Equatable {
    public var name: String
    public var value: String
    public var contains: Bool

    public init(name: String, value: String, contains: Bool) {
        self.name = name
        self.value = value
        self.contains = contains
    }
}

/// `"$.items[0].id": 3` or `"$.count": { ">=": 1 }`: every comparison must hold.
public struct JSONExpectation: Sendable, Equatable {
    public var path: JSONPath
    public var comparisons: [Comparison]

    public init(path: JSONPath, comparisons: [Comparison]) {
        self.path = path
        self.comparisons = comparisons
    }

    public enum Comparison: Sendable, Equatable {
        case compare(ComparisonOperator, Value)
        /// `exists: true` / `exists: false`.
        case exists(Bool)
    }
}

public enum ComparisonOperator: String, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// `body: { contains: "Moya" }` or `body: { matches: "^\\{" }`.
public enum BodyExpectation: Sendable, Equatable {
    case contains(String)
    /// A regular expression (Swift Regex syntax, PCRE-like), checked when the file is read.
    case matches(String)
}
