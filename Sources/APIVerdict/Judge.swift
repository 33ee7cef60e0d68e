import APISupport
import APIJSON
import APISchema
import APISecrets
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Judges one response: a pure function from what the target expects to the failed expectations,
/// in the order they are declared (status, headers, json, body, maxTime). Empty means it passed.
package enum Judge {
    /// Without `expect:` (or without its `status:`), `validation` judges the status.
    package static func failures(_ expect: Expectations?, validation: Validation, response: Response) -> [String] {
        var out: [String] = []
        if let failure = statusFailure(expect?.status, validation, response.status, accepted: accepts(validation, response)) { out.append(failure) }
        guard let expect else { return out }
        // Nothing appended when nothing failed (most responses): appending an empty array cost as much as the check.
        if !expect.headers.isEmpty, case let failed = expect.headers.compactMap({ header($0, response.headers) }), !failed.isEmpty { out += failed }
        if !expect.json.isEmpty, case let failed = json(expect.json, response.body), !failed.isEmpty { out += failed }
        if let body = expect.body, let failure = self.body(body, response.body) { out.append(failure) }
        if let schema = expect.schema { out += self.schema(schema, response) }
        if let events = expect.events { out += self.events(events, response) }
        if let messages = expect.messages { out += self.messages(messages, response) }
        if expect.graphqlErrors, let errors = graphqlErrors(response.body) { out.append(errors) }
        if let failure = timeFailure(expect.maxTime, response.duration) { out.append(failure) }
        return out
    }

    /// `failures(_:validation:response:)` of an answer of `status` without messages, whose body
    /// is `json` as written (`Value.isLiteralJSON`; nil: no body), taking `duration`, for
    /// expectations that judge nothing else (`Expectations.judgesOnlyStatusJSONAndTime`): how
    /// `validate` judges a sample whose `json:` is its own answer, without writing the body and
    /// parsing it back.
    package static func failures(_ expect: Expectations?, validation: Validation, status: Int,
                                 json body: Value?, duration: Double) -> [String] {
        // Each part read out of `expect` alone (`guard let expect` copied it whole).
        var out: [String] = []
        if let failure = statusFailure(expect?.status, validation, status, accepted: validation.accepts(status)) { out.append(failure) }
        if let expectations = expect?.json, !expectations.isEmpty {
            let failed = body.map { body in json(expectations) { body.literalJSONValue(at: $0) } } ?? [notJSON(expectations)]
            if !failed.isEmpty { out += failed }
        }
        if let failure = timeFailure(expect?.maxTime, duration) { out.append(failure) }
        return out
    }

    /// `expect: { status: }` (`patterns`), else `validation`, judging the status (`accepted`: what `validation` says).
    private static func statusFailure(_ patterns: [StatusPattern]?, _ validation: Validation, _ status: Int, accepted: Bool) -> String? {
        if let patterns {
            if !patterns.contains(where: { $0.matches(status) }) {
                return "status \(status), expected " + list(patterns.map(\.description))
            }
        } else if !accepted {
            return "status \(status) is not accepted by validate: \(validation)"
        }
        return nil
    }

    private static func timeFailure(_ maxTime: Double?, _ duration: Double) -> String? {
        guard let maxTime, duration > maxTime else { return nil }
        return "took \(Text.milliseconds(duration)), maxTime is \(Text.milliseconds(maxTime))"
    }

    /// Whether `validation` accepts the response's status. A WebSocket conversation (its
    /// messages) has no status of its own to judge: it is accepted.
    package static func accepts(_ validation: Validation, _ response: Response) -> Bool {
        response.messages != nil || validation.accepts(response.status)
    }

    /// Why `call` and `record` turn a response down (they judge no `expect:` but this): a status
    /// that `validate:` does not accept, then, with `graphqlErrors` (the target's `expect: {
    /// graphqlErrors: true }`), the errors of a GraphQL body that was held (not saved to a file).
    package enum Refusal: Sendable, Equatable {
        /// The status and its reason phrase (`404 Not Found`), and the rule that refused it.
        case status(String, Validation)
        /// `graphqlErrors`' line.
        case graphql(String)

        package var message: String {
            switch self {
            case let .status(status, validation): return "status \(status) is not accepted by validate: \(validation)"
            case let .graphql(errors): return errors
            }
        }
    }

    /// `call`'s and `record`'s verdict on a response: nil when it is accepted.
    package static func refusal(_ response: Response, validation: Validation, graphqlErrors: Bool = false) -> Refusal? {
        if !accepts(validation, response) {
            let reason = HTTPStatus.reason(response.status)
            return .status("\(response.status)" + (reason.isEmpty ? "" : " \(reason)"), validation)
        }
        if graphqlErrors, response.saved == nil, let errors = self.graphqlErrors(response.body) { return .graphql(errors) }
        return nil
    }

    /// A GraphQL response's `errors` (a non-empty list), as one line: each message with its
    /// path, at most three, and how many more; nil when there are none.
    package static func graphqlErrors(_ body: Data) -> String? {
        guard let json = JSONValue.parse(body), case .object(let members) = json,
              case .array(let errors)? = members.first(where: { $0.key == "errors" })?.value, !errors.isEmpty else { return nil }
        let shown = errors.prefix(3).map { error -> String in
            guard case .object(let fields) = error else { return error.jsonText }
            let message = fields.first { $0.key == "message" }.map { field -> String in
                if case .string(let s) = field.value { return s }
                return field.value.jsonText
            } ?? error.jsonText
            guard case .array(let path)? = fields.first(where: { $0.key == "path" })?.value else { return message }
            return message + " (at " + path.map { item -> String in
                if case .string(let s) = item { return s }
                return item.jsonText
            }.joined(separator: ".") + ")"
        }
        let more = errors.count > 3 ? "; and \(errors.count - 3) more" : ""
        return "graphql errors: " + shown.joined(separator: "; ") + more
    }

    static func header(_ e: HeaderExpectation, _ headers: [HeaderField]) -> String? {
        guard let actual = headers.value(of: e.name) else { return "header \(e.name) is missing" }
        let ok = e.contains ? actual.lowercased().contains(e.value.lowercased()) : actual == e.value
        if ok { return nil }
        if Redactor.credentialHeaders.contains(e.name.lowercased()) {
            return "header \(e.name) does not match (value hidden)"
        }
        return "header \(e.name) is \"\(actual)\", expected " + (e.contains ? "it to contain \"\(e.value)\"" : "\"\(e.value)\"")
    }

    static func json(_ expectations: [JSONExpectation], _ body: Data) -> [String] {
        guard let root = JSONValue.parse(body) else { return [notJSON(expectations)] }
        return json(expectations) { $0.evaluate(root) }
    }

    private static func notJSON(_ expectations: [JSONExpectation]) -> String {
        "body is not JSON (\(expectations[0].path) cannot be read)"
    }

    /// `expectations` judged by what `find` finds at their paths in a JSON body.
    private static func json(_ expectations: [JSONExpectation], find: (JSONPath) -> JSONValue?) -> [String] {
        var out: [String] = []
        for e in expectations {
            let found = find(e.path)
            for c in e.comparisons {
                if let failure = compare(c, found, path: e.path.description) { out.append(failure); break }
            }
        }
        return out
    }

    /// `path` is only spelled out for a failure (a check judges thousands of bodies that pass).
    static func compare(_ c: JSONExpectation.Comparison, _ found: JSONValue?, path: @autoclosure () -> String) -> String? {
        switch c {
        case .exists(let wanted):
            if (found != nil) == wanted { return nil }
            return wanted ? "\(path()) does not exist" : "\(path()) exists (\(found!.text())), expected it not to"
        case .compare(let op, let value):
            let expected = JSONValue(value)
            guard let found else { return "\(path()) does not exist, expected \(phrase(op, expected))" }
            return holds(op, found, expected) ? nil : "\(path()) is \(found.text()), expected \(phrase(op, expected))"
        }
    }

    static func holds(_ op: ComparisonOperator, _ a: JSONValue, _ b: JSONValue) -> Bool {
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        default: break
        }
        let ordered: ComparisonResult
        switch (a, b) {
        case let (.number(x), .number(y)): ordered = x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        case let (.string(x), .string(y)): ordered = x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        default: return false
        }
        switch op {
        case .less: return ordered == .orderedAscending
        case .lessOrEqual: return ordered != .orderedDescending
        case .greater: return ordered == .orderedDescending
        default: return ordered != .orderedAscending
        }
    }

    static func phrase(_ op: ComparisonOperator, _ v: JSONValue) -> String {
        op == .equal ? v.text() : "\(op.rawValue) \(v.text())"
    }

    static func body(_ e: BodyExpectation, _ data: Data) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        switch e {
        case .contains(let needle):
            return text.contains(needle) ? nil : "body does not contain \"\(needle)\""
        case .matches(let pattern):
            switch BoundedRegex.firstMatch(pattern, in: text) {
            case .found: return nil
            case .notFound: return "body does not match /\(pattern)/"
            case .invalid: return "body: invalid regex /\(pattern)/"
            case .limitExceeded:
                return "body: /\(pattern)/ \(BoundedRegex.limitMessage) (\(BoundedRegex.matchLimit) steps): the pattern backtracks too much for this body"
            }
        }
    }

    /// One message per violation: `$.items[3].price: 0 is below minimum 1 (#/…/price) [schema]`.
    package static func schema(_ e: SchemaExpectation, _ response: Response) -> [String] {
        guard let schema = e.schema(for: response.status) else { return [] }
        guard let root = JSONValue.parse(response.body) else { return ["body is not JSON (schema \(e.source) cannot be checked)"] }
        return schema.violations(of: root, options: SchemaOptions(assertFormats: e.assertFormats, direction: .response))
            .map { "schema: \($0.description) [\($0.keyword)]" }
    }

    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

}
