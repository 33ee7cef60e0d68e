import APISupport
import APIYAML
import APIDiagnostics
import APISecrets
import APITargets

/// What the export has gathered so far: path items in the order their first target came, security
/// schemes, warnings.
struct ExportState {
    var paths: [(path: String, item: [YAMLOut.Entry])] = []
    /// Path templates with their parameter names blanked (`/users/{}`) → index in `paths`.
    private var shapes: [String: Int] = [:]
    var schemes: [(name: String, scheme: YAMLOut)] = []
    /// An OAuth 2 scheme's scopes (its `flows` are written with them at the end).
    var scopes: [String: [String]] = [:]
    /// Schemas copied from the descriptions `expect: schema: { openapi: }` names.
    var components = ExportComponents()
    private var operationIds: Set<String> = []
    var warnings: [Diagnostic] = []
    var count = 0

    /// OpenAPI 3.1's operation fields.
    static let methods: Set<String> = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]

    mutating func warn(_ service: Service, _ message: String, at mark: Mark? = nil) {
        var d = Diagnostic(file: service.file, mark: mark, message: message)
        d.isWarning = true
        warnings.append(d)
    }

    mutating func add(_ service: Service, tree: Node?, servers: [YAMLOut]?, serviceAuth: Auth?) {
        for target in service.targets {
            let about = "target \(target.qualifiedName) is left out"
            if let reason = Self.inexpressible(target) {
                warn(service, "\(about): \(reason)", at: target.mark)
                continue
            }
            guard let path = Self.pathTemplate(target.path?.text ?? "") else {
                warn(service, "\(about): its path '\(target.path?.text ?? "")' holds a query string or a ${VARIABLE}, which an OpenAPI path cannot", at: target.mark)
                continue
            }
            let shape = Self.shape(path)
            let method = target.method.lowercased()
            if let i = shapes[shape] {
                if paths[i].path != path {
                    warn(service, "\(about): its path \(path) is \(paths[i].path) with other parameter names", at: target.mark)
                    continue
                }
                if paths[i].item.contains(where: { if case .pair(method, _) = $0 { return true } else { return false } }) {
                    warn(service, "\(about): another target already is \(target.method) \(path)", at: target.mark)
                    continue
                }
            }
            let treeTarget = ExportTree.child(tree, ["targets", target.name])
            var op = ExportOperation(service: service, target: target, path: path, tree: treeTarget)
            // operationIds are unique in a description: another service's target of the same name is `service_name`
            var id = target.name
            if operationIds.contains(id) { id = service.name + "_" + target.name }
            while operationIds.contains(id) { id += "_" }
            operationIds.insert(id)
            let operation = op.build(operationId: id, security: securityEntry(target, service: service, serviceAuth: serviceAuth), components: &components)
            warnings += op.warnings
            if let i = shapes[shape] {
                paths[i].item.append(.pair(method, operation))
            } else {
                shapes[shape] = paths.count
                paths.append((path, (servers.map { [.pair("servers", .list($0))] } ?? []) + [.pair(method, operation)]))
            }
            count += 1
        }
    }

    /// Why `target` has no place in a description, or nil.
    static func inexpressible(_ t: Target) -> String? {
        if t.task.websocket != nil { return "a WebSocket conversation is no HTTP operation of a description" }
        if t.stream != nil || t.allSamples.contains(where: { $0.sample.events != nil || $0.sample.messages != nil }) {
            return "an event stream or message answer is not described by OpenAPI 3.1"
        }
        if !methods.contains(t.method) { return "OpenAPI 3.1 has no field for the method \(t.method)" }
        if case .graphql(let g)? = t.task.body, g.get { return "a GraphQL operation sent with GET goes in the URL, which no parameter describes" }
        return nil
    }

    /// The target's path as an OpenAPI path: `{+name}` as `{name}`, `/` when empty; nil when it
    /// holds a query, a fragment or an environment reference.
    static func pathTemplate(_ text: String) -> String? {
        if text.contains("?") || text.contains("#") || text.contains("${") { return nil }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "{", let (name, _, end) = Template.placeholder(in: text, at: i) {
                out += "{\(name)}"
                i = end
                continue
            }
            out.append(text[i])
            i = text.index(after: i)
        }
        if !out.hasPrefix("/") { out = "/" + out }
        return out
    }

    /// `/users/{name}` → `/users/{}`: paths that OpenAPI counts as one.
    static func shape(_ path: String) -> String {
        var out = ""
        var inside = false
        for c in path {
            if c == "{" { inside = true; out.append(c) } else if c == "}" { inside = false; out.append(c) } else if !inside { out.append(c) }
        }
        return out
    }

    /// The operation's `security:` when its auth is not the service's: `[]` for `auth: none`.
    private mutating func securityEntry(_ t: Target, service: Service, serviceAuth: Auth?) -> YAMLOut? {
        let auth = t.auth ?? service.auth
        guard auth != serviceAuth else { return nil }
        guard let auth, auth != .none else { return serviceAuth == nil || serviceAuth == Auth.none ? nil : .list([]) }
        guard let name = scheme(for: auth, in: service, target: t) else { return nil }
        return Self.requirement(name, auth)
    }

    /// `[{name: [scopes]}]`: an OAuth 2 target's scopes are its requirement's (what `import openapi` reads).
    static func requirement(_ name: String, _ auth: Auth) -> YAMLOut {
        .list([.map([.pair(name, .list(oauthScopes(auth).map { .string($0) }))])])
    }

    static func oauthScopes(_ auth: Auth) -> [String] {
        guard case .oauth2(let o) = auth else { return [] }
        return (o.scope.map { ExportText.example($0) } ?? "").split(separator: " ").map(String.init)
    }

    /// The schemes as written: OAuth 2 flows with every scope a target named.
    var writtenSchemes: [(name: String, scheme: YAMLOut)] {
        schemes.map { s in
            guard let list = scopes[s.name], case .map(var entries) = s.scheme, case .pair("flows", .map(let flows))? = entries.last,
                  case .pair(let flow, .map(let fields))? = flows.first else { return s }
            entries[entries.count - 1] = .pair("flows", .map([.pair(flow, .map(fields + [.pair("scopes", .map(list.map { .pair($0, .string("")) }))]))]))
            return (s.name, .map(entries))
        }
    }

    /// The security scheme's name for `auth`, added to `schemes` the first time; nil (and a warning)
    /// for auth OpenAPI cannot describe.
    mutating func scheme(for auth: Auth, in service: Service, target: Target? = nil) -> String? {
        let described: (name: String, scheme: YAMLOut)
        switch auth {
        case .none: return nil
        case .bearer: described = ("bearerAuth", .map([.pair("type", .string("http")), .pair("scheme", .string("bearer"))]))
        case .basic: described = ("basicAuth", .map([.pair("type", .string("http")), .pair("scheme", .string("basic"))]))
        case .digest: described = ("digestAuth", .map([.pair("type", .string("http")), .pair("scheme", .string("digest"))]))
        case .header(let name, _):
            described = ("apiKey" + name.filter { $0.isLetter || $0.isNumber },
                         .map([.pair("type", .string("apiKey")), .pair("in", .string("header")), .pair("name", .string(name))]))
        case .oauth2(let o):
            let flow: String
            switch o.grant {
            case .clientCredentials: flow = "clientCredentials"
            case .password: flow = "password"
            case .refreshToken:
                warn(service, "auth oauth2 with grant refresh_token has no OAuth flow in OpenAPI; no security scheme is written for it", at: target?.mark)
                return nil
            }
            described = ("oauth2" + flow.prefix(1).uppercased() + flow.dropFirst(),
                         .map([.pair("type", .string("oauth2")),
                               .pair("flows", .map([.pair(flow, .map([.pair("tokenUrl", .string(ExportText.example(o.tokenURL)))]))]))]))
        case .aws:
            warn(service, "auth aws (SigV4) has no security scheme in OpenAPI; none is written for it", at: target?.mark)
            return nil
        }
        var name = described.name
        var n = 1
        while let same = schemes.first(where: { $0.name == name }), same.scheme != described.scheme {
            n += 1
            name = described.name + String(n)
        }
        if !schemes.contains(where: { $0.name == name }) { schemes.append((name, described.scheme)) }
        for scope in Self.oauthScopes(auth) where !scopes[name, default: []].contains(scope) { scopes[name, default: []].append(scope) }
        if case .oauth2 = auth, scopes[name] == nil { scopes[name] = [] }
        return name
    }
}

/// Target-file text made into example values, expanded as requests expand it (`Bindings`) but
/// with no environment: `${VAR:-default}` as its default, an unset `${VAR}` as `••••` (the process
/// environment, which may hold secrets, is never read), `{param}` as the param's default, the
/// escapes `$${` and `${{}` as what they stand for.
enum ExportText {
    static func example(_ t: Template, params: [(name: String, value: Template)] = []) -> String {
        let plain = Bindings(unset: .placeholder)
        var values: [String: String] = [:]
        for p in params where values[p.name] == nil {
            values[p.name] = (try? plain.expand(p.value, in: "a param", file: nil, unresolved: .keep)) ?? p.value.text
        }
        return (try? Bindings(params: values, unset: .placeholder).expand(t, in: "an example", file: nil, unresolved: .keep)) ?? t.text
    }
}
