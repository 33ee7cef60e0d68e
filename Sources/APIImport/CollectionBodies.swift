import APISupport
import APIYAML
import APITransport
import APISecrets
/// The parts of a request both the Postman and the Insomnia importers fill the same way: query,
/// headers (credentials out of the file), and bodies (JSON, text, form, multipart, GraphQL).
/// Each returns the warnings it has; the caller knows where in the input they stand.
extension CollectionRequest {
    static let bodilessMethods: Set<String> = ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    /// Repeated keys become a list with `arrays: noBrackets` (`k=a&k=b`); a key without a value is null.
    mutating func setQuery(_ pairs: [(key: String, value: String?)], variables: inout CollectionVariables) {
        var order: [String] = []
        var values: [String: [YAMLOut]] = [:]
        for (k, v) in pairs {
            if values[k] == nil { order.append(k) }
            values[k, default: []].append(v.map { .string(variables.text($0)) } ?? .null)
        }
        for k in order {
            let vs = values[k]!
            query.append(.pair(k, vs.count == 1 ? vs[0] : .list(vs)))
            if vs.count > 1 { repeatedQuery = true }
        }
    }

    /// A header, or why it is left out. A credential is never written: `Authorization: Bearer …`
    /// and `Basic …` become `auth:`, another secret-named header with a literal value `${SERVICE_NAME}`.
    mutating func addHeader(_ name: String, _ value: String, prefix: String, variables: inout CollectionVariables) -> String? {
        if let problem = ImportText.headerProblem(name: name, value: value) { return "\(problem); it is not imported" }
        let lower = name.lowercased()
        if lower == "authorization", auth == nil, !variables.hasVariable(value) {
            let parts = value.split(separator: " ", maxSplits: 1)
            let kind: CollectionAuth.Kind? = parts.count != 2 ? nil
                : parts[0].lowercased() == "bearer" ? .bearer(token: String(parts[1]))
                : parts[0].lowercased() == "basic" ? .basic(user: "", password: "(base64)") : nil
            if let kind {
                let m = CollectionAuth.map(kind, prefix: prefix, variables: &variables)
                auth = m.auth
                notes += m.notes
                return nil
            }
        }
        if variables.hasVariable(value) || !(Credentials.isHeader(name) || CollectionVariables.isSecret(name: name, value: value)) {
            headers.append(.pair(name, .string(variables.text(value))))
            return nil
        }
        let variable = ImportSecrets(prefix: prefix).variable(name)
        notes.append("The input's \(name) header value is not written: set ${\(variable)}.")
        headers.append(.pair(name, .string("${\(variable)}")))
        return nil
    }

    /// The path: `:name` segments (Postman's and Bruno's path variables, Insomnia's path
    /// parameters) → `{name}` with `defaults[name]` as the param's value; other segments with their
    /// variables as `${NAME}`. `only`: just the `:name`s it holds (Insomnia sends a `:name` that is
    /// not one of its path parameters as it is).
    mutating func setPath(_ path: String, defaults: [String: String], only: Set<String>? = nil, variables: inout CollectionVariables) {
        var segments: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.hasPrefix(":"), segment.count > 1, only?.contains(String(segment.dropFirst())) ?? true {
                let source = String(segment.dropFirst())
                let name = ImportNames.placeholder(source)
                segments.append("{\(name)}")
                if !params.contains(where: { if case .pair(name, _) = $0 { return true } else { return false } }) {
                    params.append(.pair(name, .string(variables.text(defaults[source] ?? ""))))
                }
            } else {
                segments.append(variables.text(CollectionURL.segment(segment)))
            }
        }
        self.path = segments.joined(separator: "/")
    }

    func hasHeader(_ lowercasedName: String) -> Bool {
        headers.contains { if case .pair(let k, _) = $0 { return k.lowercased() == lowercasedName } else { return false } }
    }

    /// A text body: `json:` when it is JSON (an object or array) and meant as JSON, else `body:`
    /// with `contentType:` when no header gives one.
    mutating func setText(_ text: String, json meant: Bool, contentType: String?, variables: inout CollectionVariables) {
        guard !text.isEmpty else { return }
        if meant, let json = CurlMapper.json(text) {
            body = [.pair("json", variables.json(json))]
            return
        }
        body = [.pair("body", .string(variables.text(text)))]
        if let contentType, !hasHeader("content-type") { body.append(.pair("contentType", .string(contentType))) }
    }

    /// `form:` from enabled fields; a repeated name keeps its last value (a warning).
    mutating func setForm(_ fields: [(key: String, value: String)], variables: inout CollectionVariables) -> [String] {
        var warnings: [String] = []
        var entries: [YAMLOut.Entry] = []
        for (key, value) in fields {
            if entries.contains(where: { if case .pair(key, _) = $0 { return true } else { return false } }) {
                warnings.append("form field '\(key)' is given twice; the last value is kept")
                entries.removeAll { if case .pair(key, _) = $0 { return true } else { return false } }
            }
            entries.append(.pair(key, .string(variables.text(value))))
        }
        if !entries.isEmpty { body = [.pair("form", .map(entries))] }
        return warnings
    }

    /// `multipart:` parts; a file part is an empty value with a comment (a target file names only
    /// files that exist). Not on a method that carries no body.
    mutating func setMultipart(_ parts: [(key: String, value: String, file: String?)], variables: inout CollectionVariables) -> [String] {
        guard !parts.isEmpty else { return [] }
        guard !Self.bodilessMethods.contains(method) else {
            return ["a \(method) request carries no multipart body in apicli; the body is not imported"]
        }
        var warnings: [String] = []
        var out: [YAMLOut] = []
        for (key, value, file) in parts {
            var part: [YAMLOut.Entry] = [.pair("name", .string(key))]
            if let file {
                part.append(.pair("value", .string("")))
                notes.append("Part '\(key)' is a file (\(ImportText.oneLine(file))): send it with -F \(key)=@PATH.")
                warnings.append("form-data part '\(key)' is a file: written as an empty value; send it with -F \(key)=@PATH")
            } else {
                part.append(.pair("value", .string(variables.text(value))))
            }
            out.append(.map(part))
        }
        body = [.pair("multipart", .list(out))]
        return warnings
    }

    /// `graphql: { query, variables, operationName }`; the query and the name are sent as written.
    /// Variables come as JSON text (Postman, Insomnia) or as a mapping (some Postman exports).
    mutating func setGraphQL(query: String, variablesText: String?, variablesValue: YAMLOut? = nil, operationName: String? = nil,
                             variables: inout CollectionVariables) -> [String] {
        guard !query.isEmpty else { return [] }
        var warnings: [String] = []
        var entries: [YAMLOut.Entry] = [.pair("query", .string(query))]
        if query.contains("{{") || query.contains("${") {
            warnings.append("the GraphQL query holds '{{' or '${': it is sent as written; pass values in variables")
        }
        if let value = variablesValue, value.pairs != nil {
            if value.pairs?.isEmpty == false { entries.append(.pair("variables", variables.json(value))) }
        } else if let text = variablesText, !text.trimmingWhitespace().isEmpty, text.trimmingWhitespace() != "{}" {
            if let vars = CurlMapper.json(text), vars.pairs != nil {
                entries.append(.pair("variables", variables.json(vars)))
            } else {
                warnings.append("GraphQL variables that are not a JSON object are not imported")
            }
        }
        if let name = operationName?.trimmingWhitespace(), !name.isEmpty {
            if name.contains("{{") { warnings.append("the GraphQL operationName holds '{{': it is sent as written") }
            entries.append(.pair("operationName", .string(name)))
        }
        if method == "GET" {
            entries.append(.pair("method", .string("GET")))
        }
        body = [.pair("graphql", .map(entries))]
        return warnings
    }

    /// A JSON body's fields whose names read as secrets (`password`, `token`, `apiKey`, …) with
    /// a literal value → `${PREFIX_NAME}` (a note each on the target); the warnings to give.
    /// (`form:` and query fields go through `ImportSecrets.apply` with every importer's drafts.)
    mutating func secretJSONFields(prefix: String) -> [String] {
        var secrets = ImportSecrets(prefix: prefix)
        var warnings: [String] = []
        func walk(_ v: YAMLOut) -> YAMLOut {
            switch v {
            case .list(let items): return .list(items.map(walk))
            case .map(let entries), .blockMap(let entries):
                return .map(entries.map { entry in
                    guard case .pair(let k, let x) = entry else { return entry }
                    guard Credentials.isSecretName(k), case .string(let text) = x, ImportSecrets.isLiteralSecret(text) else { return .pair(k, walk(x)) }
                    let reference = secrets.reference(k, "the JSON field \(k)")
                    warnings.append("the JSON field \(k) is written as \(reference), not as given: set \(reference.dropFirst(2).dropLast()) to send it")
                    return .pair(k, .string(reference))
                })
            default: return v
            }
        }
        body = body.map { if case .pair("json", let v) = $0 { return .pair("json", walk(v)) } else { return $0 } }
        if !warnings.isEmpty { notes.append("The input's credentials in the JSON body are not written: set \(secrets.written.map { "${\($0.name)}" }.joined(separator: ", ")).") }
        return warnings
    }

    /// A recorded or saved response as a `sample:`: the status (unless 200), the headers but those
    /// of the connection (and ones a file cannot hold), the body as JSON when it says or is JSON, else as text.
    /// Everything literal (`ImportText.literal`): a sample's `{name}` or `${VAR}` would be expanded.
    static func sample(status: Int, headers: [(String, String)], body: String?, json: Bool) -> YAMLOut {
        var e: [YAMLOut.Entry] = []
        if status != 200 { e.append(.pair("status", .number(String(status)))) }
        var kept: [YAMLOut.Entry] = []
        var isJSON = json
        for (name, value) in headers {
            let lower = name.lowercased()
            guard !["content-length", "transfer-encoding", "content-encoding", "connection"].contains(lower),
                  ImportText.headerProblem(name: name, value: value) == nil,
                  !kept.contains(where: { if case .pair(let k, _) = $0 { return k.lowercased() == lower } else { return false } }) else { continue }
            if lower == "content-type" { isJSON = isJSON || value.lowercased().contains("json") }
            kept.append(.pair(name, .string(ImportText.literal(value))))
        }
        if !kept.isEmpty { e.append(.pair("headers", .map(kept))) }
        if let body, !body.isEmpty {
            if isJSON, let value = CurlMapper.json(body) {
                e.append(.pair("json", ImportText.literal(value)))
            } else {
                e.append(.pair("body", .string(ImportText.literal(body))))
            }
        }
        return .map(e)
    }

    /// A file as the whole body: a comment, since the file is not there when the target is read.
    mutating func fileBody(_ src: String) -> String {
        notes.append("The body is a file (\(ImportText.oneLine(src))): add task: { upload: PATH } or send it with -d @PATH.")
        return "a file body (\(src)) is not imported: a target file names only files that exist"
    }
}

extension CollectionVariables {
    /// A JSON body's strings with their variables as `${NAME}` and the rest literal.
    mutating func json(_ value: YAMLOut) -> YAMLOut {
        switch value {
        case .string(let s): return .string(text(s))
        case .list(let items): return .list(items.map { json($0) })
        case .map(let entries), .blockMap(let entries):
            return .map(entries.map { if case .pair(let k, let v) = $0 { return .pair(k, json(v)) } else { return $0 } })
        default: return value
        }
    }
}
