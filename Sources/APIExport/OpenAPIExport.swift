import APISupport
import APIYAML
import APIDiagnostics
import APITargets

/// `apicli export openapi`: an OpenAPI 3.1 description written from target files, the inverse of
/// `import openapi`. Paths and methods from the targets (`{name}` → path parameters), query and
/// headers (the service's and the target's) as parameters with their values as examples, request
/// bodies from tasks, responses and examples from samples, schemas from `expect: schema:`, servers
/// from `baseURL` (`${VAR:-default}` → server variables, environments → more servers), security
/// schemes from `auth:` (names and kinds only: never a value). What a description cannot say
/// (WebSocket and event-stream targets, a method OpenAPI 3.1 has no field for, a second target of
/// the same method and path) is left out with a warning each.
package struct OpenAPIExport {
    package struct Options: Sendable {
        /// The description's `info.title` (default: the service's name, or "apicli targets").
        package var title: String?
        package var version: String
        package init(title: String? = nil, version: String = "1") {
            self.title = title
            self.version = version
        }
    }

    package struct Result: Sendable {
        /// The description, in the writers' shape (ordered mappings, numbers as written).
        package var document: YAMLOut
        package var warnings: [Diagnostic]
        /// Targets written as operations.
        package var operations: Int

        /// As YAML (APIYAML's writer).
        package var yaml: String { YAMLWriter.document(document) }
        /// As JSON (APIJSON's string escaping; numbers as written when JSON allows it).
        package var json: String {
            var out = ""
            ExportJSON.write(document, indent: 0, into: &out)
            return out + "\n"
        }
    }

    package var options: Options

    package init(options: Options = Options()) {
        self.options = options
    }

    /// The description of `services` (in order; the first one's base URL is the description's
    /// server, another service's different one its paths' `servers:`); `trees` are their files'
    /// YAML trees in the same order, for `doc:` and the inline `expect: schema:`s (nil: neither).
    package func run(_ services: [Service], trees: [Node]?, project: Project = Project()) -> Result {
        var state = ExportState()
        let services = services.map { Self.withDefaults($0, of: project) }
        if !project.rules.isEmpty, let file = project.file {
            var d = Diagnostic(file: file, mark: nil, message: "rules: of the project file are not exported (a description has no such layer); the operations are the targets without them")
            d.isWarning = true
            state.warnings.append(d)
        }
        for service in services where !service.rules.isEmpty {
            state.warn(service, "rules: of service \(service.name) are not exported (a description has no such layer); the operations are the targets without them")
        }
        let first = services.first
        var firstServers: [YAMLOut] = []
        for (i, service) in services.enumerated() {
            let tree = trees.flatMap { i < $0.count ? $0[i] : nil }
            let servers = ExportServers.servers(service, warn: { state.warn(service, $0) })
            if i == 0 { firstServers = servers }
            state.add(service, tree: tree, servers: i == 0 || servers == firstServers ? nil : servers, serviceAuth: first?.auth)
        }
        var doc: [YAMLOut.Entry] = [.pair("openapi", .string("3.1.0"))]
        var info: [YAMLOut.Entry] = [
            .pair("title", .string(options.title ?? (services.count == 1 ? first!.name : "apicli targets"))),
            .pair("version", .string(options.version)),
        ]
        if services.count == 1, let about = trees?.first.flatMap({ ExportTree.child($0, "doc")?.scalarText }) {
            info.append(.pair("description", .string(about)))
        }
        doc.append(.pair("info", .map(info)))
        if !firstServers.isEmpty { doc.append(.pair("servers", .list(firstServers))) }
        if let first, let auth = first.auth, let scheme = state.scheme(for: auth, in: first) {
            doc.append(.pair("security", ExportState.requirement(scheme, auth)))
        }
        doc.append(.pair("paths", .map(state.paths.map { .pair($0.path, .map($0.item)) })))
        var components: [YAMLOut.Entry] = []
        if !state.components.schemas.isEmpty {
            components.append(.pair("schemas", .map(state.components.schemas.map { .pair($0.name, $0.value) })))
        }
        if !state.schemes.isEmpty {
            components.append(.pair("securitySchemes", .map(state.writtenSchemes.map { .pair($0.name, $0.scheme) })))
        }
        if !components.isEmpty { doc.append(.pair("components", .map(components))) }
        return Result(document: .map(doc), warnings: state.warnings, operations: state.count)
    }
}

extension OpenAPIExport {
    /// `service` with the project file's (`apicli.yaml`) headers under its own and its auth when it has none.
    static func withDefaults(_ service: Service, of project: Project) -> Service {
        var out = service
        var headers = project.headers
        for h in service.headers {
            if let i = headers.firstIndex(where: { $0.name.lowercased() == h.name.lowercased() }) { headers[i] = h } else { headers.append(h) }
        }
        out.headers = headers
        if out.auth == nil { out.auth = project.auth }
        return out
    }

    /// The services named (`--service a,b`; nil: all) with their trees, or exit 2 naming an unknown one.
    package static func select(_ services: [Service], trees: [Node]?, names: [String]?, folder: String) throws(APIError) -> ([Service], [Node]?) {
        guard let names else { return (services, trees) }
        for name in names where !services.contains(where: { $0.name == name }) {
            let hint = Suggestions.hint(for: name, in: services.map(\.name)).map { " (\($0))" } ?? ""
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "no service '\(name)' in \(folder)\(hint)"))
        }
        let chosen = services.indices.filter { names.contains(services[$0].name) }
        return (chosen.map { services[$0] }, trees.map { t in chosen.compactMap { $0 < t.count ? t[$0] : nil } })
    }
}

/// Steps through a target file's YAML tree by keys.
enum ExportTree {
    static func child(_ node: Node?, _ key: String) -> Node? {
        node?.pairs?.first { $0.key.scalarText == key }?.value
    }

    static func child(_ node: Node?, _ keys: [String]) -> Node? {
        keys.reduce(node) { child($0, $1) }
    }
}
