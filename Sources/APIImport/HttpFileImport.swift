import APISupport
import APIYAML
import APIDiagnostics
import APITargets
/// `apicli import http`: `.http` / `.rest` files (the JetBrains HTTP Client format; VS Code
/// REST Client, httpyac and Kulala read the same) → service files, one per origin, one target per
/// request. `{{var}}` becomes `${VAR}`, with the in-file `@var = value` values, the public
/// environment file's `$shared` values and its first environment's as defaults; each environment
/// that gives a whole base URL becomes an entry of `environments:`; the private environment file's
/// variables are secrets (`${SERVICE_NAME}`, never a default). Scripts and response handlers are
/// not run: a warning each, at FILE:LINE.
package struct HttpFileImport: Importer {
    package var options: CollectionOptions
    /// The bytes of a file beside an input (`http-client.env.json`), nil when there is none.
    let readFile: (String) -> [UInt8]?

    static let environmentFile = "http-client.env.json"
    static let privateEnvironmentFile = "http-client.private.env.json"

    package init(options: CollectionOptions, readFile: @escaping (String) -> [UInt8]?) {
        self.options = options
        self.readFile = readFile
    }

    package func read(_ input: ImportInput) throws(APIError) -> ImportResult {
        try read([input])
    }

    /// Several files into one import (the first names the service; each file's stem prefixes its targets).
    package func run(_ inputs: [ImportInput]) throws(APIError) -> ImportResult {
        var result = try read(inputs)
        result.finish(file: inputs.first?.name ?? "", source: Self.source)
        return result
    }

    package func read(_ inputs: [ImportInput]) throws(APIError) -> ImportResult {
        guard let first = inputs.first else { throw .invalid(Diagnostic(file: nil, mark: nil, message: "no .http file to import")) }
        let service = try CollectionInput.serviceName(options.service, title: nil, file: first.name)
        var mapper = HttpFileMapper(prefix: ImportNames.variable(service))
        var folders: [String] = []
        for dir in inputs.map({ Path.parent($0.name) }) where !folders.contains(dir) { folders.append(dir) }
        for dir in folders { try mapper.environments(in: dir, read: readFile) }
        for input in inputs {
            let file = HttpFile(text: input.text)
            mapper.map(file, name: input.name, folder: inputs.count > 1 ? Path.stem(Path.lastComponent(input.name)) : nil)
        }
        guard !mapper.requests.isEmpty else {
            throw .invalid(Diagnostic(file: first.name, mark: nil, message: "no HTTP request to import",
                                      hint: "a request is a line 'METHOD URL' (requests separated by ###)"))
        }
        let names = inputs.map { Path.lastComponent($0.name) }.joined(separator: ", ")
        var header = ["Imported from \(names) (HTTP client requests) by apicli import http."]
        header += mapper.environmentNotes
        let drafts = CollectionDrafts.services(mapper.requests, service: service, header: header, auth: nil,
                                               notes: mapper.variables.notes,
                                               environments: CollectionDrafts.environments(mapper.requests, mapper.publicEnvironments, syntax: .postman))
        return ImportResult(drafts: drafts, warnings: mapper.warnings, files: inputs.map(\.name))
    }
}

/// The environment files and the requests of `.http` files → `CollectionRequest`s.
struct HttpFileMapper {
    let prefix: String
    var variables: CollectionVariables
    var requests: [CollectionRequest] = []
    var warnings: [ImportWarning] = []
    /// Environments of the public file: name → values (`$shared` under each).
    var publicEnvironments: [(name: String, values: [String: String])] = []
    var environmentNotes: [String] = []
    /// `$shared` and the first environment's values: the defaults.
    private var baseValues: [String: String] = [:]
    /// Names the private environment file gives: never a default.
    private var secretNames: Set<String> = []
    /// Files whose path-only requests were warned about.
    private var warnedHost: Set<String> = []

    init(prefix: String) {
        self.prefix = prefix
        variables = CollectionVariables(syntax: .postman)
        variables.prefix = prefix
        variables.dynamicKind = "an HTTP client"
        variables.expressions = true
    }

    mutating func warn(_ file: String, _ line: Int?, _ message: String) {
        warnings.append(ImportWarning(file: file, mark: line.map { Mark(line: $0, column: 1) }, message: message))
    }

    /// Reads `http-client.env.json` and `http-client.private.env.json` in `dir`, when there.
    mutating func environments(in dir: String, read: (String) -> [UInt8]?) throws(APIError) {
        for (name, isPrivate) in [(HttpFileImport.environmentFile, false), (HttpFileImport.privateEnvironmentFile, true)] {
            let path = dir.isEmpty ? name : Path.join(dir, name)
            guard let bytes = read(path) else { continue }
            let root = try CollectionInput.root(ImportInput(name: path, bytes: bytes))
            guard root.isMapping else {
                throw CollectionInput.bad(root, "$", "an environment file is a JSON object of environments, not \(root.node.kindName)")
            }
            var shared: [String: String] = [:]
            var envs: [(name: String, values: [String: String])] = []
            for (env, _, node) in root.entries {
                guard node.isMapping else {
                    warnings.append(node.warning("$.\(env): an environment is an object of variables; it is not imported"))
                    continue
                }
                var values: [String: String] = [:]
                for (key, _, value) in node.entries {
                    if let text = value.text, !value.isMapping, value.node.items == nil {
                        values[key] = text
                    } else {
                        warnings.append(value.warning("$.\(env).\(key): client settings (\(key)) have no target-file equivalent; they are not imported"))
                    }
                }
                if env == "$shared" { shared = values } else { envs.append((env, values)) }
            }
            if isPrivate {
                secretNames.formUnion(shared.keys)
                for e in envs { secretNames.formUnion(e.values.keys) }
                if !shared.isEmpty || !envs.isEmpty {
                    environmentNotes.append("The variables of \(name) are secrets: set each ${\(prefix)_…} yourself (they are not written).")
                }
                continue
            }
            for (k, v) in shared where baseValues[k] == nil { baseValues[k] = v }
            if let first = envs.first {
                for (k, v) in first.values where baseValues[k] == nil { baseValues[k] = v }
                environmentNotes.append("Defaults are the values of environment '\(first.name)' of \(name)\(envs.count > 1 ? "; --env NAME picks another's base URL" : "").")
            }
            for e in envs where !publicEnvironments.contains(where: { $0.name == e.name }) {
                publicEnvironments.append((e.name, shared.merging(e.values) { $1 }))
            }
        }
        for name in secretNames { baseValues[name] = nil }
        publicEnvironments = publicEnvironments.map { env in (env.name, env.values.filter { !secretNames.contains($0.key) }) }
    }

    /// Every request of `file`; `folder` prefixes the target names (several files).
    mutating func map(_ file: HttpFile, name: String, folder: String?) {
        var values = baseValues
        for v in file.variables where !secretNames.contains(v.name) { values[v.name] = v.value }
        variables.values = values
        for note in file.notes { warn(name, note.line, note.message) }
        for request in file.requests {
            if let r = self.request(request, file: name, folder: folder) { requests.append(r) }
            for w in variables.takeWarnings() { warn(name, request.line, w) }
        }
    }

    private mutating func request(_ q: HttpFile.Request, file: String, folder: String?) -> CollectionRequest? {
        let title = q.tags.last { $0.tag == "name" }?.value ?? q.title ?? ""
        let what = title.isEmpty ? "the request" : "request '\(title)'"
        if HttpFile.otherProtocols.contains(q.method) {
            warn(file, q.line, "\(what) is a \(q.method) request, not HTTP; it is not imported")
            return nil
        }
        guard TargetFile.isToken(q.method) else {
            warn(file, q.line, "'\(q.method)' is not an HTTP method; \(what) is not imported")
            return nil
        }
        var raw = variables.inlined(q.url.trimmingWhitespace())
        var hostHeader = false
        if raw.hasPrefix("/") {
            if let host = q.headers.first(where: { $0.name.lowercased() == "host" })?.value, !host.isEmpty {
                raw = (host.contains("://") ? "" : "http://") + host + raw  // the specification's origin-form target
                hostHeader = true
            } else {
                raw = "{{host}}" + raw  // httpyac: a path alone is sent to {{host}}
                if !warnedHost.contains(file) {
                    warnedHost.insert(file)
                    warn(file, q.line, "\(what) gives a path without a host: its base URL is {{host}} (so are the file's other such requests)")
                }
            }
        }
        guard !raw.isEmpty else {
            warn(file, q.line, "\(what) has no URL; it is not imported")
            return nil
        }
        let url = CollectionURL(raw)
        // Without a title, the name comes from the route as the file writes it: `{{id}}` reads as `{id}` ("byId").
        let route = url.path.replacing("{{", with: "{").replacing("}}", with: "}")
        var r = CollectionRequest(name: title.isEmpty ? ImportNames.fromRoute(q.method, route) : title, origin: variables.text(url.origin))
        r.rawOrigin = url.origin
        r.nameFromRoute = title.isEmpty
        r.folders = folder.map { [$0] } ?? []
        r.method = q.method
        r.path = url.path.split(separator: "/", omittingEmptySubsequences: false)
            .map { variables.text(CollectionURL.segment($0)) }.joined(separator: "/")
        r.setQuery(url.query, variables: &variables)
        tags(q, file: file, into: &r)
        var contentType = ""
        var graphQL = false
        for h in q.headers {
            let lower = h.name.lowercased()
            if lower == "content-type" { contentType = h.value.lowercased() }
            if lower == "x-request-type", h.value.lowercased() == "graphql" { graphQL = true; continue }
            if lower == "authorization", let kind = Self.spacedCredentials(h.value) {
                let m = CollectionAuth.map(kind, prefix: prefix, variables: &variables)
                r.auth = m.auth
                r.notes += m.notes
                continue
            }
            if lower == "content-type", contentType.hasPrefix("multipart/") { continue }  // apicli writes its own boundary
            if lower == "host", hostHeader { continue }
            if let w = r.addHeader(h.name, h.value, prefix: prefix, variables: &variables) { warn(file, h.line, w) }
        }
        body(q, contentType: contentType, graphQL: graphQL, file: file, into: &r)
        for w in r.secretJSONFields(prefix: prefix) { warn(file, q.bodyLine, w) }
        if let response = q.response { sample(response, file: file, into: &r) }
        for s in q.skipped {
            let script = s.what.contains("script") || s.what.contains("handler")
            warn(file, s.line, "\(s.what) of \(what) is not \(script ? "run (apicli runs no JavaScript)" : "imported")")
            r.notes.append("\(s.what.prefix(1).uppercased() + s.what.dropFirst()) was not imported\(script ? " (apicli runs no JavaScript)" : "").")
        }
        return r
    }

    /// httpyac's response written below a request (`HTTP/1.1 200 OK`, headers, a blank line, the
    /// body) → the target's `sample:`.
    private mutating func sample(_ response: (line: Int, lines: [String]), file: String, into r: inout CollectionRequest) {
        let words = response.lines[0].split(separator: " ")
        guard words.count >= 2, let status = Int(words[1]), (100...599).contains(status) else {
            warn(file, response.line, "'\(response.lines[0].prefix(40))' is no response status line; the response is not imported")
            return
        }
        var headers: [(String, String)] = []
        var rest = response.lines.dropFirst()
        while let line = rest.first, !line.trimmingWhitespace().isEmpty {
            rest = rest.dropFirst()
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]).trimmingWhitespace(), String(line[line.index(after: colon)...]).trimmingWhitespace()))
        }
        var body = Array(rest.dropFirst())
        while let last = body.last, last.trimmingWhitespace().isEmpty { body.removeLast() }
        r.samples.append((String(status), status, CollectionRequest.sample(status: status, headers: headers, body: body.joined(separator: "\n"), json: false)))
    }

    /// `Basic user password` and `Digest user password` (the HTTP client encodes them itself).
    static func spacedCredentials(_ value: String) -> CollectionAuth.Kind? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count == 3 else { return nil }
        switch words[0].lowercased() {
        case "basic": return .basic(user: words[1], password: words[2])
        case "digest": return .digest(user: words[1], password: words[2])
        default: return nil
        }
    }

    /// Request tags: `@name` (the target's name), `@no-redirect`, `@timeout`; the others a warning each.
    private mutating func tags(_ q: HttpFile.Request, file: String, into r: inout CollectionRequest) {
        for (tag, value, line) in q.tags {
            switch tag.lowercased() {
            case "name", "title":
                continue
            case "no-redirect", "noredirect":
                r.followRedirects = false
            case "timeout":
                if let seconds = Self.seconds(value) {
                    r.timeout = seconds
                } else {
                    warn(file, line, "'@timeout \(value)' is not a duration (600, 600 ms, 10 s, 2 m); it is not imported")
                }
            case "description", "note":
                if !value.isEmpty { r.notes.append(ImportText.oneLine(value)) }
            default:
                warn(file, line, "the request tag @\(tag) has no target-file equivalent; it is not imported")
                r.notes.append("The request tag @\(tag)\(value.isEmpty ? "" : " \(value)") was not imported.")
            }
        }
    }

    /// `600` (seconds), `600 ms`, `10s`, `2 m` → seconds as target-file text; nil when not one, or out of 1 ms…1 day.
    static func seconds(_ text: String) -> String? {
        let t = text.replacing(" ", with: "").lowercased()
        let digits = t.prefix { $0.isNumber }
        guard let n = Int(digits.prefix(9)), digits.count <= 9 else { return nil }
        let unit = t.dropFirst(digits.count)
        let ms: Int
        switch unit {
        case "", "s": ms = n * 1000
        case "ms": ms = n
        case "m": ms = n * 60_000
        default: return nil
        }
        guard ms >= 1, ms <= 86_400_000 else { return nil }
        return ms % 1000 == 0 ? String(ms / 1000) : String(Double(ms) / 1000)
    }

    private mutating func body(_ q: HttpFile.Request, contentType: String, graphQL: Bool, file: String, into r: inout CollectionRequest) {
        guard !q.body.isEmpty else { return }
        let text = q.body.joined(separator: "\n")
        let trimmed = text.trimmingWhitespace()
        var notes: [String] = []
        if q.body.count == 1 || !trimmed.contains("\n"), trimmed.hasPrefix("<"), !trimmed.hasPrefix("<{"), !trimmed.hasPrefix("<?"),
           trimmed.dropFirst().first == " " || trimmed.dropFirst().first == "@" {
            let path = trimmed.dropFirst().drop { $0 == "@" || $0 == " " }
            notes = [r.fileBody(String(path))]
        } else if contentType.hasPrefix("multipart/form-data") {
            notes = multipart(q, contentType: contentType, into: &r)
        } else if contentType.hasPrefix("application/x-www-form-urlencoded") {
            let joined = q.body.map { $0.trimmingWhitespace() }.joined()
            let pairs = CollectionURL.pairs(joined[...]).map { ($0.key, $0.value ?? "") }
            notes = r.setForm(pairs, variables: &variables)
        } else if graphQL || contentType.hasPrefix("application/graphql") || (q.method == "POST" && Self.isGraphQL(trimmed)) {
            var lines = q.body[...]
            var vars: [String] = []
            if let blank = lines.firstIndex(where: { $0.trimmingWhitespace().isEmpty }),
               lines[(blank + 1)...].first(where: { !$0.trimmingWhitespace().isEmpty })?.trimmingWhitespace().hasPrefix("{") == true {
                vars = Array(lines[(blank + 1)...])
                lines = lines[..<blank]
            }
            notes = r.setGraphQL(query: lines.joined(separator: "\n"), variablesText: vars.isEmpty ? nil : vars.joined(separator: "\n"),
                                 variables: &variables)
            r.headers.removeAll { if case .pair(let k, _) = $0 { return k.lowercased() == "content-type" } else { return false } }
        } else {
            r.setText(text, json: contentType.contains("json"), contentType: nil, variables: &variables)
        }
        for n in notes { warn(file, q.bodyLine, n) }
    }

    /// A body that is a GraphQL document (httpyac sends one as a GraphQL request whatever the Content-Type).
    static func isGraphQL(_ text: String) -> Bool {
        ["query ", "query{", "mutation ", "mutation{", "subscription ", "subscription{"].contains { text.hasPrefix($0) }
    }

    /// A `multipart/form-data` body written out with its boundary → `multipart:` parts; a part
    /// whose content is `< ./file` is a file part (written as an empty value, with a warning).
    private mutating func multipart(_ q: HttpFile.Request, contentType: String, into r: inout CollectionRequest) -> [String] {
        let header = q.headers.first { $0.name.lowercased() == "content-type" }?.value ?? contentType
        guard let b = header.firstRange(of: "boundary=") else {
            r.setText(q.body.joined(separator: "\n"), json: false, contentType: nil, variables: &variables)
            return ["a multipart body without a boundary= parameter is sent as text"]
        }
        var boundary = String(header[b.upperBound...].prefix { $0 != ";" }).trimmingWhitespace()
        if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 { boundary = String(boundary.dropFirst().dropLast()) }
        var parts: [(key: String, value: String, file: String?)] = []
        var warnings: [String] = []
        var current: [String]?
        func close(_ lines: [String]) {
            guard let blank = lines.firstIndex(where: { $0.trimmingWhitespace().isEmpty }) else { return }
            let headers = lines[..<blank]
            var content = Array(lines[(blank + 1)...])
            while let last = content.last, last.trimmingWhitespace().isEmpty { content.removeLast() }
            let disposition = headers.first { $0.lowercased().hasPrefix("content-disposition:") } ?? ""
            guard let name = Self.parameter("name", in: disposition) else {
                warnings.append("a multipart part without a name is not imported")
                return
            }
            let value = content.joined(separator: "\n")
            let v = value.trimmingWhitespace()
            if v.hasPrefix("< ") {
                parts.append((name, "", String(v.dropFirst(2)).trimmingWhitespace()))
            } else {
                if let type = headers.first(where: { $0.lowercased().hasPrefix("content-type:") }) {
                    warnings.append("the part '\(name)' of type \(type.dropFirst(13).trimmingWhitespace()) is sent as a text value (without its type)")
                }
                parts.append((name, value, nil))
            }
        }
        for line in q.body {
            let t = line.trimmingWhitespace()
            if t == "--" + boundary || t == "--" + boundary + "--" {
                if let c = current { close(c) }
                current = t.hasSuffix(boundary + "--") ? nil : []
            } else {
                current?.append(line)
            }
        }
        if let c = current { close(c) }
        return warnings + r.setMultipart(parts, variables: &variables)
    }

    /// `name` of `form-data; name="x"; filename="y"`.
    static func parameter(_ name: String, in header: String) -> String? {
        for item in header.split(separator: ";").dropFirst() {
            let kv = item.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingWhitespace().lowercased() == name else { continue }
            var v = kv[1].trimmingWhitespace()
            if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
            return v
        }
        return nil
    }
}
