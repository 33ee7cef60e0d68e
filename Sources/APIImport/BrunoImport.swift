import APISupport
import APIYAML
import APIDiagnostics
import APITargets
/// The files an import of a folder reads, given by the caller (the executable reads the disk,
/// tests may too): a file's bytes (nil: none), a folder's entry names (nil: not a folder).
package struct ImportFolder: Sendable {
    package var read: @Sendable (String) -> [UInt8]?
    package var list: @Sendable (String) -> [String]?

    package init(read: @escaping @Sendable (String) -> [UInt8]?, list: @escaping @Sendable (String) -> [String]?) {
        self.read = read
        self.list = list
    }
}

/// `apicli import bruno`: a Bruno collection → service files, one per origin, one target per
/// request. Reads a folder of `.bru` files (`bruno.json`, `collection.bru`, `folder.bru`,
/// `environments/*.bru`), an OpenCollection folder (`opencollection.yml`, one `.yml` per request,
/// `folder.yml`, `environments/*.yml`), one OpenCollection file holding its `items:`, or a single
/// `.bru` / OpenCollection request file. Folders prefix the target names; headers, auth and vars
/// are inherited from the collection and folders as Bruno does; `{{var}}` becomes `${VAR}` with the
/// collection's, folders' and request's vars (then the first environment's) as defaults; each
/// environment that gives a whole base URL becomes an entry of `environments:`; secret variables
/// never get a default. Scripts and tests are not run; asserts with an `expect:` equivalent map to it.
package struct BrunoImport: Importer {
    package var options: CollectionOptions
    let files: ImportFolder

    package init(options: CollectionOptions, files: ImportFolder) {
        self.options = options
        self.files = files
    }

    package func read(_ input: ImportInput) throws(APIError) -> ImportResult {
        let path = input.name
        let collection: BrunoCollection
        let format: String
        if files.list(path) != nil {
            if files.read(Path.join(path, BrunoOpenCollection.rootFile)) != nil {
                collection = try BrunoOpenCollection.collection(path, files: files)
                format = "OpenCollection"
            } else if files.read(Path.join(path, "bruno.json")) != nil || (files.list(path) ?? []).contains(where: { $0.hasSuffix(".bru") }) {
                collection = try BrunoBru.collection(path, files: files)
                format = "Bruno collection"
            } else {
                throw .invalid(Diagnostic(file: path, mark: nil, message: "not a Bruno collection: the folder has neither bruno.json, .bru files nor \(BrunoOpenCollection.rootFile)",
                                          hint: "name the collection's folder (the one holding bruno.json or opencollection.yml)"))
            }
        } else if path.hasSuffix(".bru") {
            let bru = BruFile(text: input.text)
            guard let r = BrunoBru.request(bru, file: path, name: Path.stem(Path.lastComponent(path))) else {
                throw .invalid(Diagnostic(file: path, mark: nil, message: "the file has no request block (get, post, …)",
                                          hint: "import the collection's folder to read collection.bru, folder.bru and environments"))
            }
            var c = BrunoCollection()
            c.root.requests = [r]
            collection = c
            format = "Bruno request"
        } else {
            let root = try CollectionInput.root(input)
            if BrunoOpenCollection.isCollection(root) {
                collection = try BrunoOpenCollection.collection(root)
                format = "OpenCollection"
            } else if root["http"] != nil || root["graphql"] != nil {
                var c = BrunoCollection()
                let kind = root["info"]?["type"]?.text ?? (root["graphql"] != nil ? "graphql" : "http")
                c.root.requests = [BrunoOpenCollection.request(root, name: root["info"]?["name"]?.text ?? Path.stem(Path.lastComponent(path)), kind: kind)]
                collection = c
                format = "OpenCollection request"
            } else {
                throw CollectionInput.bad(root, "$", "not a Bruno collection: no 'opencollection' version and no 'http' request",
                                          hint: "pass the collection's folder, its opencollection.yml, or a .bru file")
            }
        }
        let service = try CollectionInput.serviceName(options.service, title: collection.name, file: path)
        var mapper = BrunoMapper(collection: collection, prefix: ImportNames.variable(service))
        mapper.walk(collection.root, path: [], inherited: .init())
        guard !mapper.requests.isEmpty else {
            throw .invalid(Diagnostic(file: path, mark: nil, message: "the collection has no HTTP requests to import"))
        }
        var header = ["Imported from \(Path.lastComponent(path)) (\(format)\(collection.name.map { " '\(ImportText.oneLine($0))'" } ?? "")) by apicli import bruno."]
        header += mapper.environmentNotes
        if let docs = collection.root.docs?.trimmingWhitespace(), !docs.isEmpty {
            header += docs.split(separator: "\n", omittingEmptySubsequences: false).prefix(40).map { String($0).trimmingTrailingSpaces() }
        }
        let drafts = CollectionDrafts.services(mapper.requests, service: service, header: header, auth: nil,
                                               notes: mapper.variables.notes,
                                               environments: CollectionDrafts.environments(mapper.requests, mapper.environments, syntax: .postman))
        return ImportResult(drafts: drafts, warnings: collection.warnings + mapper.warnings)
    }
}

/// A `BrunoCollection` → `CollectionRequest`s, with what each inherits.
struct BrunoMapper {
    let prefix: String
    var variables: CollectionVariables
    var requests: [CollectionRequest] = []
    var warnings: [ImportWarning] = []
    var environments: [(name: String, values: [String: String])] = []
    var environmentNotes: [String] = []
    private var baseValues: [String: String] = [:]
    private var secretNames: Set<String> = []
    private var warned: Set<String> = []

    struct Inherited {
        var headers: [BrunoEntry] = []
        var auth: BrunoAuth?
        var vars: [String: String] = [:]
    }

    init(collection: BrunoCollection, prefix: String) {
        self.prefix = prefix
        variables = CollectionVariables(syntax: .postman)
        variables.prefix = prefix
        variables.dynamicKind = "a Bruno"
        variables.expressions = true
        for env in collection.environments { secretNames.formUnion(env.secrets) }
        let rootVars = Dictionary(collection.root.vars.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        if let first = collection.environments.first {
            baseValues = first.values.filter { !secretNames.contains($0.key) }
            environmentNotes.append("Defaults are the values of environment '\(first.name)'\(collection.environments.count > 1 ? "; --env NAME picks another's base URL" : "").")
        }
        if !secretNames.isEmpty {
            environmentNotes.append("Secret variables (set them yourself): \(secretNames.sorted().map { "{{\($0)}}" }.joined(separator: ", ")).")
        }
        environments = collection.environments.map { env in
            (env.name, rootVars.merging(env.values.filter { !secretNames.contains($0.key) }) { $1 })
        }
    }

    /// Each warning once (an inherited header is checked with every request).
    mutating func warn(_ place: BrunoPlace, _ message: String) {
        let w = ImportWarning(file: place.file, mark: place.mark, message: message)
        if warned.insert(w.description).inserted { warnings.append(w) }
    }

    mutating func walk(_ folder: BrunoFolder, path: [String], inherited: Inherited) {
        let owner = path.isEmpty ? "the collection" : "folder '\(path.joined(separator: "/"))'"
        for s in folder.skipped { warn(s.place, Self.notImported(s.what, of: owner)) }
        var next = inherited
        for h in folder.headers {
            next.headers.removeAll { $0.name.lowercased() == h.name.lowercased() }
            next.headers.append(h)
        }
        if let auth = folder.auth { next.auth = auth }
        for v in folder.vars { next.vars[v.name] = v.value }
        for r in folder.requests {
            if let mapped = map(r, folders: path, inherited: next) { requests.append(mapped) }
            for w in variables.takeWarnings() { warn(r.place, w) }
        }
        for sub in folder.folders { walk(sub, path: path + [sub.name], inherited: next) }
    }

    private mutating func map(_ b: BrunoRequest, folders: [String], inherited: Inherited) -> CollectionRequest? {
        let what = "request '\(b.name)'"
        guard b.kind == "http" || b.kind == "graphql" else {
            warn(b.place, "\(what) is a \(b.kind) request, not HTTP; it is not imported")
            return nil
        }
        guard TargetFile.isToken(b.method) else {
            warn(b.place, "'\(b.method)' is not an HTTP method; \(what) is not imported")
            return nil
        }
        var values = baseValues.merging(inherited.vars) { $1 }
        for v in b.vars { values[v.name] = v.value }
        variables.values = values.filter { !secretNames.contains($0.key) }
        let rawURL = variables.inlined(b.url.trimmingWhitespace())
        guard !rawURL.isEmpty else {
            warn(b.place, "\(what) has no URL; it is not imported")
            return nil
        }
        let url = CollectionURL(rawURL)
        var r = CollectionRequest(name: b.name, origin: variables.text(url.origin))
        r.rawOrigin = url.origin
        r.folders = folders
        r.method = b.method
        r.setPath(url.path, defaults: b.pathParams, variables: &variables)
        r.setQuery(url.query + b.query.map { ($0.name, $0.value) }, variables: &variables)
        var headers = inherited.headers.filter { h in !b.headers.contains { $0.name.lowercased() == h.name.lowercased() } }
        headers += b.headers
        let auth = b.auth ?? inherited.auth
        if let auth { self.auth(auth, into: &r) }
        for h in headers {
            if let w = r.addHeader(h.name, h.value, prefix: prefix, variables: &variables) { warn(h.place, w) }
        }
        body(b, into: &r)
        for w in r.secretJSONFields(prefix: prefix) { warn(b.bodyPlace ?? b.place, w) }
        expect(b.asserts, into: &r)
        r.samples = b.examples.map { ($0.name, $0.status, CollectionRequest.sample(status: $0.status, headers: $0.headers, body: $0.body, json: $0.json)) }
        r.followRedirects = b.followRedirects
        r.timeout = b.timeout
        if let docs = b.docs?.trimmingWhitespace(), !docs.isEmpty {
            r.notes += docs.split(whereSeparator: \.isNewline).prefix(20).map { String($0).trimmingTrailingSpaces() }
        }
        for s in b.skipped {
            let script = s.what.contains("script") || s.what.contains("tests")
            warn(s.place, Self.notImported(s.what, of: what))
            r.notes.append("\(s.what.prefix(1).uppercased() + s.what.dropFirst()) was not imported\(script ? " (apicli runs no JavaScript)" : "").")
        }
        return r
    }

    /// "the tests of request 'x' are not run (apicli runs no JavaScript)", "the block 'y' of … is not imported".
    static func notImported(_ what: String, of owner: String) -> String {
        let script = what.contains("script") || what.contains("tests")
        return "\(what) of \(owner) \(what.hasSuffix("tests") ? "are" : "is") not \(script ? "run (apicli runs no JavaScript)" : "imported")"
    }

    private mutating func auth(_ a: BrunoAuth, into r: inout CollectionRequest) {
        let f = { (k: String) in a.fields[k] ?? "" }
        let kind: CollectionAuth.Kind
        switch a.mode {
        case "none": return
        case "basic": kind = .basic(user: f("username"), password: f("password"))
        case "digest": kind = .digest(user: f("username"), password: f("password"))
        case "bearer": kind = .bearer(token: f("token"))
        case "apikey": kind = .apiKey(name: f("key"), value: f("value"), inQuery: f("placement") == "query")
        case "oauth2": kind = .oauth2(grant: f("grant"), tokenURL: f("tokenURL"), clientId: f("clientId"), scope: f("scope"))
        case "awsv4":
            var fields: [YAMLOut.Entry] = []
            if !f("service").isEmpty { fields.append(.pair("service", .string(variables.text(f("service"))))) }
            if !f("region").isEmpty { fields.append(.pair("region", .string(variables.text(f("region"))))) }
            for (key, source, variable) in [("accessKey", "accessKeyId", "AWS_ACCESS_KEY_ID"), ("secretKey", "secretAccessKey", "AWS_SECRET_ACCESS_KEY"),
                                            ("sessionToken", "sessionToken", "AWS_SESSION_TOKEN")] where !f(source).isEmpty {
                let v = variables.hasVariable(f(source)) ? variables.text(f(source), secret: true) : "${\(prefix)_\(variable)}"
                fields.append(.pair(key, .string(v)))
            }
            r.auth = .map([.pair("aws", .map(fields))])
            return
        default: kind = .unsupported(a.mode)
        }
        let m = CollectionAuth.map(kind, prefix: prefix, variables: &variables)
        for w in m.warnings { warn(a.place, w) }
        if case .string("none") = m.auth {} else if m.auth != nil { r.auth = m.auth }
        if let q = m.query { r.query.append(q) }
        r.notes += m.notes
    }

    private mutating func body(_ b: BrunoRequest, into r: inout CollectionRequest) {
        let place = b.bodyPlace ?? b.place
        var notes: [String] = []
        switch b.body {
        case .none:
            return
        case .text(let kind, let text):
            let type = ["xml": "application/xml", "sparql": "application/sparql-query", "json": "application/json"][kind]
            r.setText(text, json: kind == "json", contentType: type, variables: &variables)
        case .form(let entries):
            notes = r.setForm(entries.map { ($0.name, $0.value) }, variables: &variables)
        case .multipart(let parts):
            notes = r.setMultipart(parts.map { ($0.entry.name, $0.entry.value, $0.file) }, variables: &variables)
        case .graphql(let query, let vars):
            notes = r.setGraphQL(query: query, variablesText: vars, variables: &variables)
        case .file(let path):
            notes = [r.fileBody(path)]
        }
        for n in notes { warn(place, n) }
    }
}
