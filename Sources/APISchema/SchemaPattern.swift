import APISupport
import APIJSON

/// A `pattern` compiled once, as ECMA-262 (`BoundedRegex`, `.ecma`): every match has a bound on
/// its work and stops there, on the validating thread.
struct SchemaPattern: Sendable {
    let source: String
    let regex: BoundedRegex?
    /// The same pattern without the regex engine, when it is simple enough (see there).
    let simple: SchemaSimplePattern?

    package init(_ source: String) {
        self.source = source
        self.regex = try? BoundedRegex.compile(source, syntax: .ecma)
        self.simple = regex == nil ? nil : SchemaSimplePattern(source)
    }

    func matches(_ text: String) -> BoundedRegex.Outcome {
        guard let regex else { return .invalid }
        if let simple, let quick = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
            bytes.allSatisfy { $0 < 0x80 && $0 != 0x0A && $0 != 0x0D } ? simple.matches(bytes) : nil
        }), let found = quick {
            return found ? .found : .notFound
        }
        return regex.firstMatch(in: text)
    }
}

extension SchemaEvaluator {
    /// Whether `pattern` matches `key` (for `patternProperties`); a match stopped at the regex work
    /// limit is a violation, and the whole answer "invalid" (see `regexLimit`).
    func matches(_ pattern: SchemaPattern, key: String, _ n: SchemaNode, _ at: InstanceLocation, _ errs: inout [SchemaViolation]?) -> Bool {
        switch pattern.matches(key) {
        case .found: return true
        case .limitExceeded: _ = limitHit(&errs, n, at, "patternProperties", pattern, key)
        case .notFound, .invalid: break
        }
        return false
    }

    /// The violation of a pattern stopped at the regex work limit, recorded so that the answer is
    /// "invalid" whatever the branches around it say (a `not` would otherwise pass).
    func limitHit(_ errs: inout [SchemaViolation]?, _ n: SchemaNode, _ at: InstanceLocation, _ keyword: String,
                  _ pattern: SchemaPattern, _ text: String) -> Bool {
        let got = JSONValue.string(text).text(limit: 40)
        let violation = SchemaViolation(instancePath: path.text(at), schemaPath: n.location, keyword: keyword,
                                        expected: pattern.source, got: got,
                                        message: "pattern \(pattern.source) \(BoundedRegex.limitMessage) on \(got) (\(BoundedRegex.matchLimit) steps)")
        if regexLimit == nil { regexLimit = violation }
        errs?.append(violation)
        return false
    }
}
