import APISupport
import APITargets
import APITransport
import APISecrets
/// The variables of a Postman collection (`{{name}}`) or an Insomnia export (`{{ _.name }}`) →
/// apicli's `${NAME}`. Everything around a variable is literal text (`Template.escaping`), so a
/// `{id}` or `${HOME}` in the input stays text. A variable whose value the input gives becomes
/// the default (`${BASE_URL:-https://api.example.com}`) unless the value looks like a secret (by
/// its name or its shape) or holds characters a default cannot (`{`, `}`, `$`, controls).
struct CollectionVariables {
    enum Syntax { case postman, insomnia }

    let syntax: Syntax
    /// `SERVICE`: put before a name the shell or the system already uses (`${SERVICE_HOME}`, not
    /// `${HOME}`), so a collection's `{{home}}` never reads the user's home folder.
    var prefix = ""
    /// Whose `{{$name}}` dynamic variables these are, for the warning: "a Postman", "an HTTP client".
    var dynamicKind = "a Postman"
    /// `.http` files and Bruno: `{{ … }}` holding a script expression (`{{Buffer.from(a)}}`,
    /// `{{a + b}}`) is no variable: it is sent as written, with a warning.
    var expressions = false
    static let reserved: Set<String> = ["HOME", "PATH", "USER", "SHELL", "PWD", "OLDPWD", "LANG", "TERM", "TMPDIR", "TMP", "TEMP",
                                        "HOSTNAME", "HOST", "LOGNAME", "MAIL", "EDITOR", "DISPLAY", "UID", "LD_PRELOAD",
                                        "LD_LIBRARY_PATH", "SSH_AUTH_SOCK", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"]
    /// The input's values by the input's names.
    var values: [String: String]
    /// `${NAME}`s written so far, in order, with whether each got a default.
    private(set) var used: [(name: String, source: String, hasDefault: Bool)] = []
    private(set) var warnings: [String] = []
    private var warned: Set<String> = []

    init(syntax: Syntax, values: [String: String] = [:]) {
        self.syntax = syntax
        self.values = values
    }

    /// `text` as target-file text: variables as `${NAME}`, the rest literal.
    /// `secret`: the text is a credential (an auth password or token): its variables get the
    /// prefix and never a default, whatever their names.
    mutating func text(_ text: String, secret: Bool = false) -> String {
        if syntax == .insomnia, text.contains("{%") {
            warn("Insomnia template tags ({% … %}) have no apicli equivalent; they are sent as written")
        }
        var out = ""
        var rest = text[...]
        while let open = rest.firstRange(of: "{{") {
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { break }
            var literal = String(rest[..<open.lowerBound])
            let inner = String(rest[open.upperBound..<close.lowerBound])
            guard let source = sourceName(inner) else {
                if expressions, !inner.trimmingSpaces().isEmpty {
                    warn("{{\(ImportText.oneLine(inner).prefix(60))}} is a script expression, not a variable; it is sent as written")
                }
                out += Template.escaping(String(rest[..<close.upperBound]))
                rest = rest[close.upperBound...]
                continue
            }
            if literal.hasSuffix("$") {
                literal.removeLast()
                warn("a '$' right before {{\(inner)}} cannot be written before a variable; it is left out")
            }
            out += Template.escaping(literal) + reference(source, secret: secret)
            rest = rest[close.upperBound...]
        }
        return out + Template.escaping(String(rest))
    }

    /// `text` with every variable replaced by its value, over and over (values may name others),
    /// or nil when one has no value.
    func resolved(_ text: String) -> String? {
        var out = text
        for _ in 0..<8 {
            let (next, missing) = substitute(out) { values[$0] }
            if missing { return nil }
            if !hasVariable(next) { return next }
            out = next
        }
        return nil
    }

    /// `text` with each variable whose value is made of other variables replaced by that value
    /// (Insomnia's `base_url: "{{ scheme }}://{{ host }}"`), so the parts can be set one by one.
    func inlined(_ text: String) -> String {
        var out = text
        for _ in 0..<8 {
            let next = substitute(out) { name in values[name].flatMap { hasVariable($0) ? $0 : nil } }.text
            if next == out { break }
            out = next
        }
        return out
    }

    /// Each `{{ name }}` replaced by `value(name)`, kept when that is nil (`missing` then).
    private func substitute(_ text: String, _ value: (String) -> String?) -> (text: String, missing: Bool) {
        var out = ""
        var rest = text[...]
        var missing = false
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            out += rest[..<open.lowerBound]
            if let name = sourceName(String(rest[open.upperBound..<close.lowerBound])) {
                if let v = value(name) { out += v } else { missing = true; out += rest[open.lowerBound..<close.upperBound] }
            } else {
                out += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return (out + rest, missing)
    }

    /// Whether `text` holds a variable of the input's syntax.
    func hasVariable(_ text: String) -> Bool {
        guard let open = text.firstRange(of: "{{"), let close = text[open.upperBound...].firstRange(of: "}}") else { return false }
        return sourceName(String(text[open.upperBound..<close.lowerBound])) != nil
    }

    /// The input's variable name inside `{{ }}`, or nil when it is not one (`{{ }}`, a filter).
    private func sourceName(_ inner: String) -> String? {
        var name = inner.trimmingSpaces()
        if syntax == .insomnia {
            if name.hasPrefix("_.") { name.removeFirst(2) }
            if name.contains("|") || name.contains("(") { return nil }
        }
        guard !name.isEmpty, !name.contains("{"), !name.contains("}"), !name.contains(where: \.isNewline) else { return nil }
        if expressions, !name.hasPrefix("$"), name.contains(where: { " ()'\"+[],;=<>!?".contains($0) }) { return nil }
        return name
    }

    /// `${NAME}` or `${NAME:-default}` for the input's variable `source`. A variable the input does
    /// not define, a secret-named one and one the shell or the system uses get the service's
    /// prefix (`${SHOP_GITHUB_TOKEN}`), so a collection never reads the user's own secret or
    /// setting to send it to the collection's host.
    private mutating func reference(_ source: String, secret: Bool = false) -> String {
        var name = Self.name(source)
        let value = values[source]
        let prefix = self.prefix.isEmpty ? "IMPORTED" : self.prefix
        if value == nil || secret || Self.isSecret(name: source, value: value ?? "") || Self.reserved.contains(name) || name.hasPrefix("APICLI_"),
           !name.hasPrefix(prefix + "_") {
            name = prefix + "_" + name
        }
        if source.hasPrefix("$") {
            warn("{{\(source)}} is \(dynamicKind) dynamic variable; apicli has none: set ${\(name)}")
        }
        let safe = value.flatMap { secret || Self.isSecret(name: source, value: $0) || !Self.isDefaultable($0) ? nil : $0 }
        if !used.contains(where: { $0.name == name }) {
            used.append((name, source, safe != nil))
        }
        return safe.map { "${\(name):-\($0)}" } ?? "${\(name)}"
    }

    /// `baseUrl`, `base_url`, `base-url` → `BASE_URL`; `$randomInt` → `RANDOM_INT`.
    static func name(_ source: String) -> String {
        var out = ""
        var previous: Character?
        for c in source {
            if c.isASCII, c.isLetter || c.isNumber {
                if c.isUppercase, let p = previous, p.isLowercase || p.isNumber, out.last != "_" { out += "_" }
                out += c.uppercased()
            } else if !out.isEmpty, out.last != "_" {
                out += "_"
            }
            previous = c
        }
        while out.hasSuffix("_") { out.removeLast() }
        if out.isEmpty { return "VAR" }
        return out.first!.isNumber ? "_" + out : out
    }

    /// A name (by `Credentials`, the one list) or a value that should never be written into a file as a default.
    static func isSecret(name: String, value: String) -> Bool {
        if Credentials.isSecretName(name) { return true }
        let v = value.trimmingSpaces()
        return v.hasPrefix("eyJ") || v.lowercased().hasPrefix("bearer ") || v.lowercased().hasPrefix("basic ")
    }

    /// Text a `${VAR:-default}` can hold as it is.
    static func isDefaultable(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !"{}$".unicodeScalars.contains($0) }
    }

    /// The warnings since the last call, for the caller to place.
    mutating func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    private mutating func warn(_ message: String) {
        if warned.insert(message).inserted { warnings.append(message) }
    }

    /// Comment lines naming the variables to set: those without a default first.
    var notes: [String] {
        let needed = used.filter { !$0.hasDefault }.map { "${\($0.name)}" }
        let optional = used.filter(\.hasDefault).map { "${\($0.name)}" }
        var out: [String] = []
        if !needed.isEmpty { out.append("Set before calling (export, or in targets/.env): \(needed.joined(separator: ", ")).") }
        if !optional.isEmpty { out.append("With defaults from the input's values: \(optional.joined(separator: ", ")).") }
        return out
    }
}
