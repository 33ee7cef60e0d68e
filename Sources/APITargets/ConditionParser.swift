import APISupport
/// Reads the text of a `when:` into a `Condition` (the grammar is on `Condition`). Bounded: at
/// most `maxLength` characters and `maxDepth` nested `(` and `!`, so a hostile file can neither
/// recurse without end nor make a large tree; the regex of each `=~` is compiled here.
package struct ConditionParser {
    package static let maxLength = 1024
    package static let maxDepth = 32

    /// Where and why the text is not a condition: `offset` counts characters from its start.
    package struct Failure: Error, Sendable, Equatable {
        package var message: String
        package var offset: Int
        package var hint: String
    }

    private let chars: [Character]
    private var i = 0
    private var depth = 0

    private init(_ text: String) {
        chars = Array(text)
    }

    package static func parse(_ text: String) -> Result<Condition, Failure> {
        guard text.count <= maxLength else {
            return .failure(Failure(message: "the condition is \(text.count) characters long; at most \(maxLength) are read",
                                    offset: 0, hint: "split it: a target's when: and an expect block's when: are separate conditions"))
        }
        var parser = ConditionParser(text)
        do throws(Failure) {
            let condition = try parser.or()
            parser.skipSpace()
            if parser.i < parser.chars.count {
                throw parser.failure("unexpected '\(parser.rest(8))' after a whole condition",
                                     hint: "join conditions with && or ||")
            }
            return .success(condition)
        } catch {
            return .failure(error)
        }
    }

    private mutating func or() throws(Failure) -> Condition {
        var parts = [try and()]
        while take("||") { parts.append(try and()) }
        return parts.count == 1 ? parts[0] : .any(parts)
    }

    private mutating func and() throws(Failure) -> Condition {
        var parts = [try not()]
        while take("&&") { parts.append(try not()) }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    private mutating func not() throws(Failure) -> Condition {
        skipSpace()
        if peek("!") && !peek("!=") || peek("(") {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else {
                throw failure("the condition nests deeper than \(Self.maxDepth) levels of ( and !", hint: "write it flatter")
            }
            if take("!") { return .not(try not()) }
            _ = take("(")
            let inner = try or()
            guard take(")") else { throw failure("expected ')'", hint: "close every ( with a )") }
            return inner
        }
        return try test()
    }

    private mutating func test() throws(Failure) -> Condition {
        skipSpace()
        if word("exists") { return .exists(try operand()) }
        if word("true") { return .all([]) }  // `when: false` turns a target off; `true` for symmetry
        if word("false") { return .any([]) }
        let start = i
        let left = try operand()
        if take("==") { return .equal(left, try operand()) }
        if take("!=") { return .notEqual(left, try operand()) }
        if take("=~") {
            skipSpace()
            let at = i
            guard case .literal(let pattern) = try operand(), at < chars.count, chars[at] == "'" || chars[at] == "\"" else {
                i = at
                throw failure("=~ takes a quoted regular expression on its right", hint: "write {name} =~ '^v[0-9]+'")
            }
            if case .failure(let error) = Result(catching: { () throws(BoundedRegex.CompileError) in try BoundedRegex.compile(pattern) }) {
                i = at
                throw failure("'\(pattern)' is not a valid regular expression: \(error.message)", hint: "PCRE2 syntax; escape a literal . as \\.")
            }
            return .matches(left, pattern)
        }
        skipSpace()
        i = max(i, start)
        throw failure(i < chars.count ? "expected ==, != or =~ before '\(rest(8))'" : "expected ==, != or =~ after the value",
                      hint: "a test is exists {name}, A == B, A != B or A =~ 'regex'")
    }

    /// `{name}`, `${NAME}`, a quoted text or a number.
    private mutating func operand() throws(Failure) -> Condition.Operand {
        skipSpace()
        guard i < chars.count else {
            throw failure("expected a value at the end of the condition", hint: "a value is {name}, ${NAME}, 'text' or a number")
        }
        let c = chars[i]
        if c == "'" || c == "\"" { return .literal(try quoted(c)) }
        if c == "$" || c == "{" {
            let dollar = c == "$"
            let start = i
            i += dollar ? 1 : 0
            guard i < chars.count, chars[i] == "{" else {
                throw failure("expected '{' after '$'", hint: "write ${NAME} for an environment variable")
            }
            i += 1
            let nameStart = i
            while i < chars.count, chars[i] != "}" { i += 1 }
            guard i < chars.count else {
                i = start
                throw failure("unterminated '\(dollar ? "${" : "{")'", hint: dollar ? "write ${NAME}" : "write {name}")
            }
            let name = String(chars[nameStart..<i])
            i += 1
            let ok = dollar ? Self.isVariableName(name) : Self.isPlaceholderName(name)
            guard ok else {
                i = start
                throw failure("'\(String(chars[start..<nameStart]))\(name)}' is not a \(dollar ? "variable" : "placeholder") name",
                              hint: dollar ? "variable names are letters, digits and '_'" : "placeholder names are letters, digits, '_', '-' and '.'")
            }
            return dollar ? .variable(name) : .placeholder(name)
        }
        let start = i
        while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "." || (i == start && chars[i] == "-") { i += 1 }
        if i > start, i == chars.count || !(chars[i].isLetter || chars[i] == "_") { return .literal(String(chars[start..<i])) }
        i = start
        var end = i
        while end < chars.count, chars[end].isLetter || chars[end].isNumber || chars[end] == "_" || chars[end] == "-" { end += 1 }
        let bare = String(chars[i..<max(end, min(i + 1, chars.count))])
        throw failure("'\(bare)' is not a value",
                      hint: "write '\(bare)' (quoted) for text, ${\(bare)} for an environment variable or {\(bare)} for a placeholder")
    }

    /// Text between `quote`s: a backslash takes the next character as it is (`'it\'s'`).
    private mutating func quoted(_ quote: Character) throws(Failure) -> String {
        let start = i
        i += 1
        var out = ""
        while i < chars.count, chars[i] != quote {
            if chars[i] == "\\", i + 1 < chars.count { i += 1 }
            out.append(chars[i])
            i += 1
        }
        guard i < chars.count else {
            i = start
            throw failure("unterminated text: no closing \(quote)", hint: "close it with \(quote)")
        }
        i += 1
        return out
    }

    static func isVariableName(_ s: String) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    static func isPlaceholderName(_ s: String) -> Bool {
        guard let first = s.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }
    }

    private mutating func skipSpace() {
        while i < chars.count, chars[i] == " " || chars[i] == "\t" || chars[i] == "\n" { i += 1 }
    }

    private mutating func peek(_ token: String) -> Bool {
        skipSpace()
        var j = i
        for c in token {
            guard j < chars.count, chars[j] == c else { return false }
            j += 1
        }
        return true
    }

    private mutating func take(_ token: String) -> Bool {
        guard peek(token) else { return false }
        i += token.count
        return true
    }

    /// A keyword not followed by a letter, digit or `_` (`exists {id}`, `exists{id}`, `false`), taken.
    private mutating func word(_ keyword: String) -> Bool {
        guard peek(keyword) else { return false }
        if i + keyword.count < chars.count {
            let next = chars[i + keyword.count]
            guard !(next.isLetter || next.isNumber || next == "_") else { return false }
        }
        i += keyword.count
        return true
    }

    private func rest(_ n: Int) -> String {
        String(chars[i..<min(chars.count, i + n)]) + (chars.count > i + n ? "…" : "")
    }

    private func failure(_ message: String, hint: String) -> Failure {
        Failure(message: message, offset: i, hint: hint)
    }
}
