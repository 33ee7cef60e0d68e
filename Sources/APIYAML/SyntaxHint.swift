/// Says in the user's words what a libyaml syntax error usually means in a target file, and how to
/// fix it: a tab, a second `:` in a plain value, an unquoted `{`, `[`, `@`, `` ` `` or `*` at the
/// start of a value, a key indented to no level of the mapping around it.
///
/// Reads only libyaml's problem and context texts and the source lines at their marks; nil when
/// none of the known shapes fits (libyaml's own text then stands alone).
enum SyntaxHint {
    /// `line(n)`: source line `n` (1-based) without its line break, nil past the end.
    static func hint(problem: String, context: String?, mark: Mark, contextMark: Mark?,
                     line: (Int) -> String?) -> String? {
        guard let text = line(mark.line) else { return nil }
        let chars = Array(text.unicodeScalars)
        let index = mark.column - 1
        let atMark: Unicode.Scalar? = index >= 0 && index < chars.count ? chars[index] : nil

        if atMark == "\t" || (problem.contains("tab") && text.hasPrefix("\t")) {
            return "YAML indents with spaces, not tabs: replace the tab on line \(mark.line) with spaces"
        }
        if context == "while scanning an alias" || problem.hasPrefix("unknown alias") {
            return quoteHint(text, startingWith: "*", why: "'*' at the start of a value is an alias (*name repeats &name)")
        }
        if problem == "found character that cannot start any token", let c = atMark, c == "@" || c == "`" {
            return quoteHint(text, startingWith: Character(c), why: "'\(c)' cannot start a plain value")
        }
        if problem == "mapping values are not allowed in this context" {
            if let colon = colonSpace(chars), colon < index {
                let key = string(chars[..<colon]).trimmingLeadingSpaces()
                let value = string(chars[(colon + 2)...]).trimmingLeadingSpaces()
                return "a second ':' in a plain value; quote the value: \(key): \"\(escaped(String(value)))\""
            }
            // `key: value` on a line under a plain value: libyaml reads it as the value's next
            // line, so the ':' is out of place. The line is indented deeper than its sibling above.
            return indentHint(text, lineNumber: mark.line, line: line)
        }
        if problem == "did not find expected key" || problem == "did not find expected ',' or '}'"
            || problem == "did not find expected ',' or ']'" {
            if let flow = flowValue(text), index >= flow.column {
                return quoteHint(text, startingWith: flow.opener,
                                 why: "'\(flow.opener)' at the start of a value opens a YAML flow \(flow.opener == "{" ? "mapping" : "list")")
            }
            if context == "while parsing a block mapping", let contextMark {
                let indent = leadingSpaces(text)
                if indent > 0, indent + 1 != contextMark.column {
                    return "line \(mark.line) is indented \(spaces(indent)), but the keys of the mapping on line "
                        + "\(contextMark.line) are indented \(contextMark.column - 1); indent it like the key it belongs beside"
                }
            }
        }
        return nil
    }

    /// The hint for a value starting with `c` that must be quoted, showing the quoted line.
    /// Nil unless the line is `key: c…` (inside a flow collection the cause may be another).
    private static func quoteHint(_ text: String, startingWith c: Character, why: String) -> String? {
        let chars = Array(text.unicodeScalars)
        guard let colon = colonSpace(chars) else { return nil }
        let value = string(chars[(colon + 2)...]).trimmingLeadingSpaces()
        guard value.first == c else { return nil }
        let key = string(chars[..<colon]).trimmingLeadingSpaces()
        return "\(why); quote the value: \(key): \"\(escaped(String(value)))\""
    }

    /// Index of the first `:` followed by a space (the end of a `key: ` on this line).
    private static func colonSpace(_ chars: [Unicode.Scalar]) -> Int? {
        var i = 0
        while i + 1 < chars.count {
            if chars[i] == ":", chars[i + 1] == " " { return i }
            i += 1
        }
        return nil
    }

    private static func string(_ chars: ArraySlice<Unicode.Scalar>) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: chars)
        return String(s)
    }

    private static func indentHint(_ text: String, lineNumber: Int, line: (Int) -> String?) -> String? {
        let indent = leadingSpaces(text)
        var n = lineNumber - 1
        while n >= 1 {
            if let above = line(n), !above.allSatisfy({ $0 == " " }), !above.trimmingLeadingSpaces().hasPrefix("#") {
                let aboveIndent = leadingSpaces(above)
                guard aboveIndent < indent, colonSpace(Array(above.unicodeScalars)) != nil else { return nil }
                return "line \(lineNumber) is indented \(spaces(indent)), deeper than the key on line \(n) "
                    + "(\(spaces(aboveIndent))); keys of one mapping are indented alike"
            }
            n -= 1
        }
        return nil
    }

    /// `key: {…` or `key: […`: the opener and its 0-based column.
    private static func flowValue(_ text: String) -> (opener: Character, column: Int)? {
        let chars = Array(text.unicodeScalars)
        guard let colon = colonSpace(chars) else { return nil }
        var i = colon + 2
        while i < chars.count, chars[i] == " " { i += 1 }
        guard i < chars.count, chars[i] == "{" || chars[i] == "[" else { return nil }
        return (Character(chars[i]), i)
    }

    private static func spaces(_ n: Int) -> String { n == 1 ? "1 space" : "\(n) spaces" }

    private static func leadingSpaces(_ text: String) -> Int {
        text.unicodeScalars.prefix(while: { $0 == " " }).count
    }

    private static func escaped(_ s: String) -> String {
        var out = ""
        for c in s.trimmingTrailingSpaces() {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }
}

private extension StringProtocol {
    func trimmingLeadingSpaces() -> Substring {
        let s = self[...]
        return Substring(s.drop(while: { $0 == " " }))
    }

    func trimmingTrailingSpaces() -> String {
        var s = String(self)
        while s.last == " " { s.removeLast() }
        return s
    }
}
