import APISupport
import APIYAML
/// A `when:` condition: a small expression over placeholder values (`{name}`: params, captures of
/// `needs:`, data rows, `-p`), environment variables (`${NAME}`) and literals, parsed when the file
/// is read (`ConditionParser`) and decided before the request is built (`holds(in:)`).
///
///     when: ${ENV} == 'staging' && !exists {token}
///     when: {region} =~ '^eu-' || ${FORCE_EU} == 'yes'
///
/// The grammar, loosest first (docs/target-files.md, "Conditions"):
///
///     or      = and { "||" and }
///     and     = not { "&&" not }
///     not     = "!" not | "(" or ")" | test
///     test    = "exists" operand | operand ("==" | "!=") operand | operand "=~" 'regex'
///     operand = {name} | ${NAME} | 'text' | "text" | a number
package indirect enum Condition: Sendable, Equatable {
    case any([Condition])
    case all([Condition])
    case not(Condition)
    case exists(Operand)
    case equal(Operand, Operand)
    case notEqual(Operand, Operand)
    /// The right side is a literal pattern, compiled when the file is read (`BoundedRegex`, PCRE2).
    case matches(Operand, String)

    package enum Operand: Sendable, Equatable {
        /// `{name}`: a placeholder value.
        case placeholder(String)
        /// `${NAME}`: an environment variable.
        case variable(String)
        case literal(String)
    }

    /// Whether the condition holds with these values. An unset operand is absent: `exists` is
    /// false, `==` holds only between two absent values, `!=` holds against a present one, and
    /// `=~` does not match. A match that exceeds the regex work limit does not match either.
    package func holds(in values: ConditionValues) -> Bool {
        switch self {
        case .any(let all): return all.contains { $0.holds(in: values) }
        case .all(let all): return all.allSatisfy { $0.holds(in: values) }
        case .not(let c): return !c.holds(in: values)
        case .exists(let o): return values.value(of: o) != nil
        case .equal(let a, let b): return values.value(of: a) == values.value(of: b)
        case .notEqual(let a, let b): return values.value(of: a) != values.value(of: b)
        case .matches(let a, let pattern):
            guard let text = values.value(of: a) else { return false }
            return BoundedRegex.firstMatch(pattern, in: text) == .found
        }
    }
}

/// What a condition reads: placeholder values and the environment (`Bindings` gives both).
package struct ConditionValues: Sendable {
    package var placeholders: [String: String]
    package var environment: [String: String]

    package init(placeholders: [String: String], environment: [String: String]) {
        self.placeholders = placeholders
        self.environment = environment
    }

    func value(of operand: Condition.Operand) -> String? {
        switch operand {
        case .placeholder(let name): return placeholders[name]
        case .variable(let name): return environment[name]
        case .literal(let text): return text
        }
    }
}

/// A `when:` as written: the condition, and its text for messages ("when: … is false").
package struct When: Sendable, Equatable {
    package var condition: Condition
    package var text: String
    package var mark: Mark

    package init(condition: Condition, text: String, mark: Mark) {
        self.condition = condition
        self.text = text
        self.mark = mark
    }

    /// Why a target or an expectation block whose condition is false is left out.
    package var skipReason: String { "when: \(text) is false" }
}

/// One block of a list `expect:` that has a `when:`.
package struct ConditionalExpectations: Sendable, Equatable {
    package var when: When
    package var expect: Expectations

    package init(when: When, expect: Expectations) {
        self.when = when
        self.expect = expect
    }
}

/// A target's conditions (`Target.when`, `Target.conditionalExpect`).
struct TargetConditions: Sendable {
    var when: When?
    var expect: [ConditionalExpectations] = []

    var isEmpty: Bool { when == nil && expect.isEmpty }
}

extension Bindings {
    /// What a `when:` reads: the placeholder values (params, captures, rows, `-p`) and the environment.
    package var conditionValues: ConditionValues { ConditionValues(placeholders: params, environment: environment) }
}
