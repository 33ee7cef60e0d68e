import APISupport
import APIDiagnostics
import APISecrets
/// What templates expand against: placeholder values and environment variables.
package struct Bindings: Sendable {
    package var params: [String: String]
    package var environment: [String: String]
    /// Values that came from variables named like a secret, collected as templates expand.
    /// Shared by every copy of these bindings.
    package var secrets: Secrets
    /// What an unset `${VAR}` without a default becomes.
    package var unset: Unset
    /// Params whose values hold `placeholder` for an unset variable (`--stub`): name → the variables.
    package var placeholderParams: [String: [String]]
    /// `secrets:` of `apicli.yaml`: a variable not in `environment` whose value a command prints.
    package var providers: SecretProviders?

    package init(params: [String: String] = [:], environment: [String: String] = [:], secrets: Secrets = Secrets(),
                providers: SecretProviders? = nil, unset: Unset = .fail, placeholderParams: [String: [String]] = [:]) {
        self.params = params
        self.environment = environment
        self.secrets = secrets
        self.providers = providers
        self.unset = unset
        self.placeholderParams = placeholderParams
    }

    package enum Unset: Sendable, Equatable {
        /// An unset variable is an error: what a request that is sent needs.
        case fail
        /// An unset variable is `placeholder` (`--stub`, `mock`: nothing is sent, so a secret that
        /// only feeds the request is not needed; `secrets:` providers are still asked first).
        /// Never for a live request (`Caller` makes sure).
        case placeholder
    }

    /// What an unset variable stands as in an offline request: shown as it is in `-v` and `--curl`.
    package static let placeholder = Redactor.mask

    /// These bindings where nothing may stand in for a value: what samples expand with, since a
    /// sample's text is the answer itself. A placeholder param or an unset variable is an error there.
    package var strict: Bindings {
        var out = self
        out.unset = .fail
        return out
    }

    package enum Unresolved: Sendable {
        /// An unknown `{name}` is an error (URLs, headers, structured bodies).
        case fail
        /// An unknown `{name}` stays as written (raw text bodies, where braces are common).
        case keep
    }

    /// Expands `template` in one pass, so expanded text is never expanded again.
    /// `$${` writes a literal `${` and `${{}` a literal `{` (so `${{}id}` is the text `{id}`, not a
    /// placeholder). `encode` transforms `{name}` values and `encodeReserved`
    /// `{+name}` values (percent-encoding in paths: RFC 6570's simple and reserved expansion);
    /// environment values go in as they are. `place` names where the template stands, for messages.
    package func expand(_ template: Template, in place: @autoclosure () -> String, file: String?, unresolved: Unresolved = .fail,
                       encode: (String) -> String = { $0 },
                       encodeReserved: (String) -> String = { $0 }) throws(APIError) -> String {
        var ignored: [String] = []
        return try expand(template, in: place(), file: file, unresolved: unresolved, encode: encode,
                          encodeReserved: encodeReserved, placeholders: &ignored)
    }

    /// `expand`, adding to `placeholders` the name of every unset variable that `placeholder` stands for.
    package func expand(_ template: Template, in place: @autoclosure () -> String, file: String?, unresolved: Unresolved = .fail,
                encode: (String) -> String = { $0 }, encodeReserved: (String) -> String = { $0 },
                placeholders: inout [String]) throws(APIError) -> String {
        // By bytes (no `{` or `$` byte: no such character), not by characters: every request's base URL comes here.
        if template.isLiteral && !template.text.containsByte(UInt8(ascii: "$")) { return template.text }
        let text = template.text
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let rest = text[i...]
            if rest.hasPrefix("$${") {
                out += "${"
                i = text.index(i, offsetBy: 3)
            } else if rest.hasPrefix(Template.literalBrace) {
                out += "{"
                i = text.index(i, offsetBy: 4)
            } else if rest.hasPrefix("${") {
                guard let close = rest.firstIndex(of: "}") else {
                    throw .invalid(Diagnostic(file: file, mark: template.mark,
                                              message: "unterminated '${' in \(place())", hint: "write ${NAME} or ${NAME:-default}"))
                }
                out += try variable(String(text[text.index(i, offsetBy: 2)..<close]), template, place(), file, &placeholders)
                i = text.index(after: close)
            } else if c == "{", let (name, reserved, end) = Template.placeholder(in: text, at: i) {
                if unset == .fail, let variables = placeholderParams[name] {
                    let list = variables.map { "${\($0)}" }.joined(separator: ", ")
                    throw .invalid(Diagnostic(file: file, mark: template.mark,
                                              message: "{\(name)} in \(place()) needs \(list), which is not set",
                                              hint: "export \(variables[0])=…, or pass -p \(name)=VALUE"))
                }
                if let value = params[name] {
                    out += reserved ? encodeReserved(value) : encode(value)
                } else if unresolved == .keep {
                    out += text[i..<end]
                } else {
                    throw .invalid(Diagnostic(file: file, mark: template.mark,
                                              message: "no value for placeholder {\(name)} in \(place())",
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

    private func variable(_ body: String, _ template: Template, _ place: String, _ file: String?,
                          _ placeholders: inout [String]) throws(APIError) -> String {
        let name: Substring
        var fallback: Substring?
        if let range = body.firstRange(of: ":-") {
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
        if environment[String(name)] == nil, let value = try providers?.value(of: String(name)) {
            secrets.record(value)  // whatever its name: it came from a secret store
            return value
        }
        if let value = environment[String(name)] ?? fallback.map(String.init) {
            if Secrets.isSecretName(name) { secrets.record(value) }
            return value
        }
        if unset == .placeholder {
            placeholders.append(String(name))
            secrets.record(Self.placeholder)  // so its percent-encoded form in a URL shows as it is too
            return Self.placeholder
        }
        throw .invalid(Diagnostic(file: file, mark: template.mark,
                                  message: "environment variable \(name) is not set (used in \(place))",
                                  hint: "export \(name)=…, or give a default: ${\(name):-value}"))
    }
}
