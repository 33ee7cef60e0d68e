import APISupport
import APIYAML
import APIJSON
/// What a healthy response looks like for `apicli check`: a target's `expect:` block.
/// Every part is optional; an absent part checks nothing. Without `status:`, the target's
/// `validate:` rule still judges the status.
package struct Expectations: Sendable, Equatable {
    package var status: [StatusPattern]?
    package var headers: [HeaderExpectation]
    package var json: [JSONExpectation]
    package var body: BodyExpectation?
    /// `schema:`: the JSON body must satisfy it.
    package var schema: SchemaExpectation? {
        get { schemaBox?.value }
        set { schemaBox = newValue.map(CopyOnWrite.init) }
    }
    /// Whether `schema:` is set, asked without copying it out of its box.
    package var hasSchema: Bool { schemaBox != nil }
    /// Whether it judges nothing but the status, the JSON body and the time (no headers, body
    /// text, schema, events, messages or GraphQL errors): `Judge.failures(_:validation:status:json:duration:)`.
    package var judgesOnlyStatusJSONAndTime: Bool {
        headers.isEmpty && body == nil && schemaBox == nil && eventsBox == nil && messages == nil && !graphqlErrors
    }
    /// Seconds.
    package var maxTime: Double?
    package var mark: Mark
    /// A GraphQL target (`errors: fail`, the default): a non-empty `errors` list fails.
    package var graphqlErrors = false
    /// `events:`: conditions on a `text/event-stream` answer's events.
    package var events: EventsExpectation? {
        get { eventsBox?.value }
        set { eventsBox = newValue.map(CopyOnWrite.init) }
    }
    /// `task: { websocket: { expect: } }`: messages the conversation must hold, in order.
    package var messages: [MessageMatch]?
    /// `schema:` and `events:` are written on few targets and are large inline: kept behind a
    /// reference when set, a pointer's size when not (every target of a large file holds an
    /// `Expectations`), as `Target` keeps `auth:` and `until:`.
    private var schemaBox: CopyOnWrite<SchemaExpectation>?
    private var eventsBox: CopyOnWrite<EventsExpectation>?

    package init(status: [StatusPattern]? = nil, headers: [HeaderExpectation] = [], json: [JSONExpectation] = [],
                body: BodyExpectation? = nil, schema: SchemaExpectation? = nil, maxTime: Double? = nil, mark: Mark) {
        schemaBox = schema.map(CopyOnWrite.init)
        self.status = status
        self.headers = headers
        self.json = json
        self.body = body
        self.maxTime = maxTime
        self.mark = mark
    }
}

/// `200` or `"2xx"`.
package enum StatusPattern: Sendable, Equatable, CustomStringConvertible {
    case code(Int)
    /// The first digit: `2` for `2xx`.
    case family(Int)

    package func matches(_ status: Int) -> Bool {
        switch self {
        case .code(let c): return status == c
        case .family(let f): return status / 100 == f
        }
    }

    package var description: String {
        switch self {
        case .code(let c): return String(c)
        case .family(let f): return "\(f)xx"
        }
    }
}

/// `Content-Type: "~json"` (contains) or `X-Api: "v2"` (equals). Names are case-insensitive.
package struct HeaderExpectation: Sendable, Equatable {
    package var name: String
    package var value: String
    package var contains: Bool

    package init(name: String, value: String, contains: Bool) {
        self.name = name
        self.value = value
        self.contains = contains
    }
}

/// `"$.items[0].id": 3` or `"$.count": { ">=": 1 }`: every comparison must hold.
package struct JSONExpectation: Sendable, Equatable {
    package var path: JSONPath
    package var comparisons: [Comparison]

    package init(path: JSONPath, comparisons: [Comparison]) {
        self.path = path
        self.comparisons = comparisons
    }

    package enum Comparison: Sendable, Equatable {
        case compare(ComparisonOperator, Value)
        /// `exists: true` / `exists: false`.
        case exists(Bool)
    }
}

package enum ComparisonOperator: String, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// `body: { contains: "Moya" }` or `body: { matches: "^\\{" }`.
package enum BodyExpectation: Sendable, Equatable {
    case contains(String)
    /// A regular expression (PCRE2 syntax, Unicode-aware; `BoundedRegex`), checked when the file is read.
    case matches(String)
}

extension Target {
    /// Whether the target at `target` expects a `schema:`, asked in place (here, where the layout
    /// is known: asked from another module, the target's `expect:` was copied out).
    package static func expectsSchema(at target: UnsafePointer<Target>) -> Bool {
        target.pointee.expect?.hasSchema == true
    }
}
