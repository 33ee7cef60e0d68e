/// A string from a target file that may hold `{param}` placeholders and `${VAR}` / `${VAR:-default}`
/// environment references. It keeps its mark so an unresolved name can be reported where it stands.
public struct Template: Sendable, Equatable {
    public var text: String
    public var mark: Mark

    public init(_ text: String, mark: Mark) {
        self.text = text
        self.mark = mark
    }

    /// Whether the text holds anything to expand.
    public var isLiteral: Bool { !text.contains("{") }

    /// The `{name}` placeholders, in order of appearance.
    public var placeholders: [String] {
        var names: [String] = []
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "$", text[text.index(after: i)...].hasPrefix("{") {
                i = text[i...].firstIndex(of: "}").map { text.index(after: $0) } ?? text.endIndex
                continue
            }
            if text[i] == "{", let (name, end) = Self.placeholder(in: text, at: i) {
                names.append(name)
                i = end
                continue
            }
            i = text.index(after: i)
        }
        return names
    }

    /// `{identifier}` starting at `i`: the name and the index after the closing brace.
    static func placeholder(in text: String, at i: String.Index) -> (String, String.Index)? {
        var j = text.index(after: i)
        let nameStart = j
        while j < text.endIndex, text[j] != "}" {
            let c = text[j]
            let ok = c.isASCII && (c.isLetter || c == "_" || (j > nameStart && (c.isNumber || c == "-" || c == ".")))
            if !ok { return nil }
            j = text.index(after: j)
        }
        guard j < text.endIndex, j > nameStart else { return nil }
        return (String(text[nameStart..<j]), text.index(after: j))
    }
}

/// What templates expand against: placeholder values and environment variables.
public struct Bindings: Sendable {
    public var params: [String: String]
    public var environment: [String: String]
    /// Values that came from variables named like a secret, collected as templates expand.
    /// Shared by every copy of these bindings.
    public var secrets: Secrets

    public init(params: [String: String] = [:], environment: [String: String] = [:], secrets: Secrets = Secrets()) {
        self.params = params
        self.environment = environment
        self.secrets = secrets
    }

    public enum Unresolved: Sendable {
        /// An unknown `{name}` is an error (URLs, headers, structured bodies).
        case fail
        /// An unknown `{name}` stays as written (raw text bodies, where braces are common).
        case keep
    }

    /// Expands `template` in one pass, so expanded text is never expanded again.
    /// `$${` writes a literal `${`. `encode` transforms placeholder values (percent-encoding in paths);
    /// environment values go in as they are. `place` names where the template stands, for messages.
    public func expand(_ template: Template, in place: String, file: String?, unresolved: Unresolved = .fail,
                       encode: (String) -> String = { $0 }) throws(APIError) -> String {
        if template.isLiteral && !template.text.contains("$") { return template.text }
        let text = template.text
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let rest = text[i...]
            if rest.hasPrefix("$${") {
                out += "${"
                i = text.index(i, offsetBy: 3)
            } else if rest.hasPrefix("${") {
                guard let close = rest.firstIndex(of: "}") else {
                    throw .invalid(Diagnostic(file: file, mark: template.mark,
                                              message: "unterminated '${' in \(place)", hint: "write ${NAME} or ${NAME:-default}"))
                }
                out += try variable(String(text[text.index(i, offsetBy: 2)..<close]), template, place, file)
                i = text.index(after: close)
            } else if c == "{", let (name, end) = Template.placeholder(in: text, at: i) {
                if let value = params[name] {
                    out += encode(value)
                } else if unresolved == .keep {
                    out += text[i..<end]
                } else {
                    throw .invalid(Diagnostic(file: file, mark: template.mark,
                                              message: "no value for placeholder {\(name)} in \(place)",
                                              hint: "add '\(name)' to the target's params: or pass -p \(name)=VALUE"))
                }
                i = end
            } else {
                out.append(c)
                i = text.index(after: i)
            }
        }
        return out
    }

    private func variable(_ body: String, _ template: Template, _ place: String, _ file: String?) throws(APIError) -> String {
        let name: Substring
        var fallback: Substring?
        if let range = body.range(of: ":-") {
            name = body[..<range.lowerBound]
            fallback = body[range.upperBound...]
        } else {
            name = body[...]
        }
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw .invalid(Diagnostic(file: file, mark: template.mark,
                                      message: "'${\(body)}' in \(place) is not a variable reference",
                                      hint: "names are letters, digits and '_': ${NAME} or ${NAME:-default}; write $${ for a literal '${'"))
        }
        if let value = environment[String(name)] ?? fallback.map(String.init) {
            if Secrets.isSecretName(name) { secrets.record(value) }
            return value
        }
        throw .invalid(Diagnostic(file: file, mark: template.mark,
                                  message: "environment variable \(name) is not set (used in \(place))",
                                  hint: "export \(name)=…, or give a default: ${\(name):-value}"))
    }
}
