import APISupport
import APIYAML
import APISecrets
import APITargets
/// The one secret policy of every importer and of `call --save`: a credential (the value of an
/// `Authorization`, `Cookie` or other credential header, of a secret-named query or form field,
/// the token or password of `auth:`) is never written as the input gives it, but as a variable
/// named with the service's prefix (`${SHOP_TOKEN}`, `${LOCAL_COOKIE_SECRET}`), so the file holds
/// no secret and cannot read one of the user's own (`${GITHUB_TOKEN}`) to send to the input's host.
/// Which names are credentials is `Credentials` (APISecrets), the list every writer and output uses.
struct ImportSecrets {
    /// `SHOP` in `${SHOP_TOKEN}`.
    let prefix: String
    /// The file the variables are written in, for warnings (`shop.yaml`); nil: not named.
    var file: String?
    /// How the input had the values: "recorded" (HAR), "given".
    var source = "given"
    /// Variables written in place of credentials, in order, and what each stands for.
    private(set) var written: [(name: String, what: String)] = []

    init(prefix: String) {
        self.prefix = prefix
    }

    init(service: String, source: String = "given") {
        self.init(prefix: ImportNames.variable(service))
        file = "\(service).yaml"
        self.source = source
    }

    /// The variable a credential named `name` is read from: `LOCAL_ACCESS_TOKEN`. A name that does
    /// not read as a secret gets `_SECRET` (`LOCAL_COOKIE_SECRET`), so outputs hide its value;
    /// `secretName: false` leaves it as it is (the user of a basic auth).
    func variable(_ name: String, secretName: Bool = true) -> String {
        var v = prefix + "_" + ImportNames.variable(name)
        while v.contains("__") { v = v.replacing("__", with: "_") }
        if v.hasSuffix("_") { v.removeLast() }
        return !secretName || Secrets.isSecretName(v) ? v : v + "_SECRET"
    }

    /// `${VARIABLE}` for the credential named `name`; `what` says what it stands for (a warning each).
    mutating func reference(_ name: String, _ what: String, secretName: Bool = true) -> String {
        let v = variable(name, secretName: secretName)
        if !written.contains(where: { $0.name == v }) { written.append((v, what)) }
        return "${\(v)}"
    }

    /// One line per variable written: what it holds and what to set.
    var warnings: [String] {
        written.map { "\($0.what) is written as ${\($0.name)}\(file.map { " in \($0)" } ?? ""), not as \(source): set \($0.name) to call it" }
    }

    /// Whether target-file text holds a `${VARIABLE}` (not only literal text).
    static func hasVariable(_ text: String) -> Bool {
        text.contains("${") && Template(text, mark: Mark(line: 1, column: 1)).references.contains { $0.hasPrefix("${") }
    }

    /// A value the input gave literally (no variable in it) and that is not empty: what must not be written.
    static func isLiteralSecret(_ text: String) -> Bool {
        !text.isEmpty && !hasVariable(text)
    }
}

/// The rules every importer's drafts go through last (`Importer.run`): the secret policy above
/// and one rule for header values: a header a target file cannot send (a name that is not a
/// token, a value with a line break or another control character) is left out with a warning,
/// whether the draft is printed, written or added to a file.
extension ImportSecrets {
    /// Applies the rules to `draft`; the warnings say what was changed.
    static func apply(to draft: inout ServiceDraft, source: String = "given") -> [String] {
        var secrets = ImportSecrets(service: draft.service, source: source)
        var warnings: [String] = []
        if let auth = draft.auth {
            draft.auth = secrets.auth(auth, of: nil)
        }
        for i in draft.targets.indices {
            var t = draft.targets[i]
            let before = secrets.written.count
            t.headers = t.headers.compactMap { (entry: YAMLOut.Entry) -> YAMLOut.Entry? in
                guard case .pair(let name, .string(let value)) = entry else { return entry }
                if let problem = ImportText.headerProblem(name: name, value: value) {
                    warnings.append("target \(t.name): \(problem); it is not imported")
                    return nil
                }
                guard Credentials.isHeader(name), isLiteralSecret(value) else { return entry }
                return .pair(name, .string(secrets.reference(name, "the \(name) header of \(t.name)")))
            }
            t.task = t.task.map { (entry: YAMLOut.Entry) -> YAMLOut.Entry in
                guard case .pair(let key, let value) = entry, key == "query" || key == "form" else { return entry }
                return .pair(key, secrets.fields(value, what: key == "query" ? "query parameter" : "form field", of: t.name))
            }
            t.auth = t.auth.map { secrets.auth($0, of: t.name) }
            let added = secrets.written[before...].map { "${\($0.name)}" }
            if !added.isEmpty {
                t.notes.append("The input's credentials are not written: set \(added.joined(separator: ", ")).")
            }
            draft.targets[i] = t
        }
        return warnings + secrets.warnings
    }

    /// `query:` or `form:`: a mapping (a repeated key's values as a list), or the query as text
    /// (`a=1&token=x`). Each value of a key given more than once gets its own variable
    /// (`${SHOP_KEY}`, `${SHOP_KEY_2}`): one variable for both would send one value twice.
    private mutating func fields(_ value: YAMLOut, what: String, of target: String) -> YAMLOut {
        var seen: [String: Int] = [:]
        func secret(_ key: String) -> String {
            let n = seen[key, default: 0] + 1
            seen[key] = n
            return n == 1 ? reference(key, "the \(what) \(key) of \(target)")
                : reference("\(key)_\(n)", "the \(what) \(key) of \(target) (value \(n))")
        }
        switch value {
        case .map(let entries):
            return .map(entries.map { (entry: YAMLOut.Entry) -> YAMLOut.Entry in
                guard case .pair(let k, let v) = entry, Credentials.isSecretName(k) else { return entry }
                switch v {
                case .string(let text) where Self.isLiteralSecret(text):
                    return .pair(k, .string(secret(k)))
                case .list(let items):
                    return .pair(k, .list(items.map { (item: YAMLOut) -> YAMLOut in
                        guard case .string(let text) = item, Self.isLiteralSecret(text) else { return item }
                        return .string(secret(k))
                    }))
                default:
                    return entry
                }
            })
        case .string(let text):
            let items = text.split(separator: "&", omittingEmptySubsequences: false).map { (item: Substring) -> String in
                guard let eq = item.firstIndex(of: "=") else { return String(item) }
                let key = item[..<eq].removingPercentEscapes() ?? String(item[..<eq])
                let v = String(item[item.index(after: eq)...])
                guard Credentials.isSecretName(key), Self.isLiteralSecret(v) else { return String(item) }
                return String(item[...eq]) + secret(key)
            }
            return .string(items.joined(separator: "&"))
        default:
            return value
        }
    }

    /// `auth:` with its token, password, key or client secret as variables when written literally.
    private mutating func auth(_ auth: YAMLOut, of target: String?) -> YAMLOut {
        guard case .map(let entries) = auth, let first = auth.pairs?.first else { return auth }
        let (kind, value) = first
        let whose = target.map { " of \($0)" } ?? " of the service"
        func secret(_ v: YAMLOut, _ name: String, _ what: String) -> YAMLOut {
            guard case .string(let text) = v, Self.isLiteralSecret(text) else { return v }
            return .string(reference(name, what + whose))
        }
        func fields(_ m: YAMLOut, _ names: [String: String]) -> YAMLOut {
            guard case .map(let inner) = m else { return m }
            return .map(inner.map { (entry: YAMLOut.Entry) -> YAMLOut.Entry in
                guard case .pair(let k, let v) = entry, let name = names[k] else { return entry }
                return .pair(k, secret(v, name, "the \(k) of the \(kind) auth"))
            })
        }
        switch kind {
        case "bearer":
            return .map([.pair("bearer", secret(value, "token", "the bearer token"))])
        case "basic", "digest":
            return .map([.pair(kind, fields(value, ["password": "password"]))])
        case "oauth2":
            return .map([.pair(kind, fields(value, ["clientSecret": "client_secret", "password": "password", "refreshToken": "refresh_token"]))])
        case "header":
            return .map(entries.map { (entry: YAMLOut.Entry) -> YAMLOut.Entry in
                guard case .pair("value", let v) = entry else { return entry }
                return .pair("value", secret(v, "api_key", "the API key"))
            })
        default:
            return auth
        }
    }
}
