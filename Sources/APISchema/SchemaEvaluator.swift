import APIJSON
import APISupport
/// How a validation runs: formats asserted or only annotations, the direction for OpenAPI's
/// `readOnly`/`writeOnly`, and a bound on the work (subschema evaluations) per instance.
package struct SchemaOptions: Sendable, Equatable {
    package enum Direction: Sendable, Equatable { case any, request, response }
    package var assertFormats: Bool
    package var direction: Direction
    package var maxSteps: Int
    /// Seconds one validation may take (patterns included).
    package var timeLimit: Double

    package init(assertFormats: Bool = false, direction: Direction = .any, maxSteps: Int = 5_000_000, timeLimit: Double = 10) {
        self.timeLimit = timeLimit
        self.assertFormats = assertFormats
        self.direction = direction
        self.maxSteps = maxSteps
    }
}

/// Which properties and items of the instance the subschemas that passed looked at, for
/// `unevaluatedProperties` and `unevaluatedItems`.
struct Annotations {
    var properties: Set<String> = []
    var items: Set<Int> = []
    var allItems = false

    mutating func merge(_ other: Annotations) {
        if !other.properties.isEmpty { properties.formUnion(other.properties) }
        if !other.items.isEmpty { items.formUnion(other.items) }
        allItems = allItems || other.allItems
    }
}

/// One validation of one instance: the compiled tree walked once, with the dynamic scope for
/// `$dynamicRef` and a step budget (nested `oneOf` over shared `$ref`s cannot run away).
final class SchemaEvaluator {
    let options: SchemaOptions
    let dynamic: [String: [String: SchemaNode]]
    @exclusivity(unchecked) private var steps = 0
    /// Where the step budget ran out: the answer is then "invalid", whatever the branches said
    /// (a `not` or `oneOf` over a cut-short branch would otherwise pass).
    private(set) var exhaustedAt: (SchemaNode, String)?
    /// The first pattern stopped at the regex work limit: the answer is then "invalid" too.
    var regexLimit: SchemaViolation?
    /// `options.timeLimit` from the start, checked every 256 steps; past it the work stops as
    /// when the step budget runs out.
    private let deadline: Double
    @exclusivity(unchecked) private var outOfTime = false
    @exclusivity(unchecked) var path = InstancePath()
    @exclusivity(unchecked) private var depth = 0
    @exclusivity(unchecked) private var scope: [String] = []
    /// Discriminators applying the schema they picked, and at which instance depth.
    @exclusivity(unchecked) var dispatching: [(node: ObjectIdentifier, depth: Int)] = []
    static let maxDepth = 300

    /// Whether annotations are recorded (some node has `unevaluated*`).
    let annotates: Bool

    package init(options: SchemaOptions, dynamic: [String: [String: SchemaNode]], annotates: Bool = true) {
        self.options = options
        self.dynamic = dynamic
        self.annotates = annotates
        deadline = monotonicSeconds() + options.timeLimit
    }

    /// The violation that says the budget ran out.
    var exhaustion: SchemaViolation? {
        guard let (n, at) = exhaustedAt else { return nil }
        if outOfTime {
            return SchemaViolation(instancePath: at, schemaPath: n.location, keyword: "timeLimit",
                                   expected: "an answer within \(options.timeLimit) s", got: "more",
                                   message: "validation stopped after \(options.timeLimit) s (schema too costly for this instance)")
        }
        return SchemaViolation(instancePath: at, schemaPath: n.location, keyword: "maxSteps",
                               expected: "at most \(options.maxSteps) subschema evaluations", got: "more",
                               message: "validation stopped after \(options.maxSteps) subschema evaluations (schema too costly for this instance)")
    }

    func fail(_ errs: inout [SchemaViolation]?, _ n: SchemaNode, _ at: InstanceLocation, _ keyword: String,
              expected: String, got: String, _ message: String) -> Bool {
        errs?.append(SchemaViolation(instancePath: path.text(at), schemaPath: n.location, keyword: keyword,
                                     expected: expected, got: got, message: message))
        return false
    }

    /// Whether `v` satisfies `n`; violations go to `errs` when it is not nil (nil: only the answer
    /// is wanted, and the first failure ends the work).
    func eval(_ n: SchemaNode, _ v: JSONValue, _ at: InstanceLocation, _ errs: inout [SchemaViolation]?, _ ann: inout Annotations) -> Bool {
        if let c = n.constant {
            return c || fail(&errs, n, at, "false", expected: "nothing", got: v.text(limit: 40), "no value is allowed here")
        }
        steps += 1
        if steps & 255 == 0, monotonicSeconds() > deadline { outOfTime = true }
        if steps > options.maxSteps || outOfTime {
            if exhaustedAt == nil { exhaustedAt = (n, path.text(at)) }
            return false
        }
        if depth >= Self.maxDepth {
            return fail(&errs, n, at, "$ref", expected: "depth under \(Self.maxDepth)", got: "deeper",
                        "schema references nest deeper than \(Self.maxDepth) at one place (a $ref loop?)")
        }
        depth += 1
        defer { depth -= 1 }
        let pushed = scope.last != n.resource
        if pushed { scope.append(n.resource) }
        defer { if pushed { scope.removeLast() } }

        var ok = true
        func stop() -> Bool { !ok && errs == nil }

        if let r = n.ref {
            var sub = Annotations()
            if eval(r, v, at, &errs, &sub) { ann.merge(sub) } else { ok = false }
            if stop() { return false }
        }
        if var target = n.dynamicRef {
            if let name = n.dynamicAnchorName, let outer = scope.lazy.compactMap({ self.dynamic[$0]?[name] }).first {
                target = outer
            }
            var sub = Annotations()
            if eval(target, v, at, &errs, &sub) { ann.merge(sub) } else { ok = false }
            if stop() { return false }
        }
        ok = applicators(n, v, at, &errs, &ann) && ok
        if stop() { return false }
        ok = general(n, v, at, &errs) && ok
        if stop() { return false }
        switch v {
        case .number(let x): ok = numeric(n, x, v, at, &errs) && ok
        case .string(let s): ok = text(n, s, at, &errs) && ok
        case .array(let xs): ok = array(n, xs, at, &errs, &ann) && ok
        case .object(let ms): ok = object(n, ms, at, &errs, &ann) && ok
        default: break
        }
        return ok
    }

    private func general(_ n: SchemaNode, _ v: JSONValue, _ at: InstanceLocation, _ errs: inout [SchemaViolation]?) -> Bool {
        var ok = true
        if let types = n.types, !(n.nullable && v == .null), !types.contains(where: { Self.has(v, type: $0) }) {
            let want = types.count == 1 ? types[0] : types.joined(separator: " or ")
            ok = fail(&errs, n, at, "type", expected: want, got: Self.typeName(v), "\(v.text(limit: 40)) is \(Self.typeName(v)), not \(want)")
        }
        if let values = n.enumValues, !(n.nullable && v == .null), !values.contains(where: { SchemaEquality.equal($0, v) }) {
            ok = fail(&errs, n, at, "enum", expected: "one of " + values.map { $0.text(limit: 30) }.joined(separator: ", "),
                      got: v.text(limit: 40), "\(v.text(limit: 40)) is not one of the allowed values") && ok
        }
        if let c = n.constValue, !SchemaEquality.equal(c, v) {
            ok = fail(&errs, n, at, "const", expected: c.text(limit: 40), got: v.text(limit: 40),
                      "\(v.text(limit: 40)) is not \(c.text(limit: 40))") && ok
        }
        if path.isKey(at) {
            if n.readOnly, options.direction == .request {
                ok = fail(&errs, n, at, "readOnly", expected: "absent in a request", got: "present", "is read-only and must not be sent") && ok
            }
            if n.writeOnly, options.direction == .response {
                ok = fail(&errs, n, at, "writeOnly", expected: "absent in a response", got: "present", "is write-only and must not be returned") && ok
            }
        }
        return ok
    }

    static func has(_ v: JSONValue, type: String) -> Bool {
        switch (type, v) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object): return true
        case ("integer", .number(let x)): return x.isFinite && x == x.rounded()
        default: return false
        }
    }

    static func typeName(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "boolean"
        case .number(let x): return x.isFinite && x == x.rounded() ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    private func numeric(_ n: SchemaNode, _ x: Double, _ v: JSONValue, _ at: InstanceLocation, _ errs: inout [SchemaViolation]?) -> Bool {
        var ok = true
        var t: String { v.text(limit: 40) }
        if let m = n.minimum, x < m {
            ok = fail(&errs, n, at, "minimum", expected: ">= \(num(m))", got: t, "\(t) is below minimum \(num(m))")
        }
        if let m = n.maximum, x > m {
            ok = fail(&errs, n, at, "maximum", expected: "<= \(num(m))", got: t, "\(t) is above maximum \(num(m))") && ok
        }
        if let m = n.exclusiveMinimum, x <= m {
            ok = fail(&errs, n, at, "exclusiveMinimum", expected: "> \(num(m))", got: t, "\(t) is not above \(num(m))") && ok
        }
        if let m = n.exclusiveMaximum, x >= m {
            ok = fail(&errs, n, at, "exclusiveMaximum", expected: "< \(num(m))", got: t, "\(t) is not below \(num(m))") && ok
        }
        if let m = n.multipleOf, !SchemaNumber.isMultiple(x, of: m, mDecimal: .some(n.multipleOfDecimal)) {
            ok = fail(&errs, n, at, "multipleOf", expected: "a multiple of \(num(m))", got: t, "\(t) is not a multiple of \(num(m))") && ok
        }
        return ok
    }

    func num(_ d: Double) -> String { JSONValue.number(d).text(limit: 40) }

    private func text(_ n: SchemaNode, _ s: String, _ at: InstanceLocation, _ errs: inout [SchemaViolation]?) -> Bool {
        var ok = true
        if n.minLength != nil || n.maxLength != nil {
            let length = s.unicodeScalars.count
            if let m = n.minLength, length < m {
                ok = fail(&errs, n, at, "minLength", expected: "at least \(m) characters", got: "\(length)", "is \(length) characters long, shorter than \(m)")
            }
            if let m = n.maxLength, length > m {
                ok = fail(&errs, n, at, "maxLength", expected: "at most \(m) characters", got: "\(length)", "is \(length) characters long, longer than \(m)") && ok
            }
        }
        if let p = n.pattern {
            switch p.matches(s) {
            case .found: break
            case .limitExceeded: ok = limitHit(&errs, n, at, "pattern", p, s) && ok
            case .notFound, .invalid:
                ok = fail(&errs, n, at, "pattern", expected: p.source, got: JSONValue.string(s).text(limit: 40),
                          "\(JSONValue.string(s).text(limit: 40)) does not match \(p.source)") && ok
            }
        }
        if options.assertFormats, let f = n.format, SchemaFormat.check(f, s, dialect: n.dialect) == false {
            ok = fail(&errs, n, at, "format", expected: f, got: JSONValue.string(s).text(limit: 40),
                      "\(JSONValue.string(s).text(limit: 40)) is not a valid \(f)") && ok
        }
        return ok
    }
}
