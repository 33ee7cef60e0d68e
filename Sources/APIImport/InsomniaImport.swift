import APISupport
import APIYAML
import APIDiagnostics
import APITargets
import APITransport
/// `apicli import insomnia`: an Insomnia export (format 4, JSON or YAML, both through the YAML
/// layer) → service files, one per origin. Request groups prefix the target names; the base
/// environment's values are the variables' defaults (`{{ _.base_url }}` → `${BASE_URL:-…}`), a
/// value made of other variables is written in their place, and each sub-environment that gives
/// a whole base URL becomes an entry of `environments:`.
package struct InsomniaImport: Importer {
    /// The service name; default from the workspace's name, else the file's name.
    package var options: CollectionOptions

    package init(options: CollectionOptions) {
        self.options = options
    }

    package func read(_ input: ImportInput) throws(APIError) -> ImportResult {
        let root = try CollectionInput.root(input)
        guard root.isMapping, let resources = root["resources"], resources.node.items != nil else {
            throw CollectionInput.bad(root, "$", "not an Insomnia export: there is no 'resources' list",
                                      hint: "export from Insomnia with Export Data → Insomnia v4 (JSON or YAML)")
        }
        if let format = root["__export_format"]?.text, format != "4" {
            throw CollectionInput.bad(root["__export_format"]!, "$.__export_format", "Insomnia export format \(format) is not read; only format 4",
                                      hint: "export again from a current Insomnia (Export Data → Insomnia v4)")
        }
        let file = input.name
        var mapper = InsomniaMapper(resources: resources)
        let title = mapper.workspaceName
        let service = try CollectionInput.serviceName(options.service, title: title, file: file)
        mapper.prefix = ImportNames.variable(service)
        mapper.variables.prefix = mapper.prefix
        mapper.mapRequests()
        guard !mapper.requests.isEmpty else {
            throw CollectionInput.bad(resources, "$.resources", "the export has no HTTP requests to import")
        }
        let header = ["Imported from \(Path.lastComponent(file)) (Insomnia export\(title.map { " '\(ImportText.oneLine($0))'" } ?? "")) by apicli import insomnia."]
        let drafts = CollectionDrafts.services(mapper.requests, service: service, header: header, auth: nil,
                                               notes: mapper.variables.notes, environments: mapper.environments())
        let warnings = mapper.warnings + mapper.variables.warnings.map { ImportWarning(file: file, mark: nil, message: $0) }
        return ImportResult(drafts: drafts, warnings: warnings)
    }
}

struct InsomniaMapper {
    let resources: [(index: Int, node: SpecNode)]
    var prefix = "INSOMNIA"
    var variables: CollectionVariables
    var requests: [CollectionRequest] = []
    var warnings: [ImportWarning] = []
    /// Sub-environments: name → their values (base values under them).
    private var subEnvironments: [(name: String, values: [String: String])] = []
    private var byID: [String: SpecNode] = [:]

    init(resources: SpecNode) {
        let all = resources.items.enumerated().map { ($0.offset, $0.element) }
        var ids: [String: SpecNode] = [:]
        for (_, r) in all { if let id = r["_id"]?.text { ids[id] = r } }
        let workspace = all.first { $0.1["_type"]?.text == "workspace" }?.1["_id"]?.text
        let environments = all.map(\.1).filter { $0["_type"]?.text == "environment" }
        let base = environments.first { $0["parentId"]?.text == workspace }
            ?? environments.first { ids[$0["parentId"]?.text ?? ""]?["_type"]?.text != "environment" }
        var values: [String: String] = [:]
        if let data = base?["data"] { Self.flatten(data, prefix: "", into: &values) }
        // Request groups' own environments add to the base one.
        for g in all.map(\.1) where g["_type"]?.text == "request_group" {
            if let data = g["environment"] { Self.flatten(data, prefix: "", into: &values) }
        }
        let baseID = base?["_id"]?.text
        for env in environments where baseID != nil && env["parentId"]?.text == baseID {
            var sub = values
            if let data = env["data"] { Self.flatten(data, prefix: "", into: &sub) }
            subEnvironments.append((env["name"]?.text ?? "env", sub))
        }
        self.resources = all
        self.byID = ids
        self.variables = CollectionVariables(syntax: .insomnia, values: values)
    }

    var workspaceName: String? {
        resources.first { $0.node["_type"]?.text == "workspace" }?.node["name"]?.text
    }

    /// `{ a: 1, o: { b: x } }` → `a`, `o.b`.
    static func flatten(_ node: SpecNode, prefix: String, into values: inout [String: String]) {
        for (key, _, value) in node.entries {
            if value.isMapping {
                if prefix.count < 512 { flatten(value, prefix: prefix + key + ".", into: &values) }
            } else if let text = value.text {
                values[prefix + key] = text
            }
        }
    }

    mutating func warn(_ node: SpecNode, _ path: String, _ message: String) {
        warnings.append(ImportWarning(file: node.file, mark: node.mark, message: "\(path): \(message)"))
    }

    mutating func mapRequests() {
        for (i, node) in resources {
            let path = "$.resources[\(i)]"
            switch node["_type"]?.text ?? "" {
            case "request":
                if let r = request(node, at: path) { requests.append(r) }
                for w in variables.takeWarnings() { warn(node, path, w) }
            case "grpc_request", "websocket_request", "socketio_request":
                warn(node, path, "\(node["_type"]!.text!) '\(node["name"]?.text ?? "")' is not HTTP; it is not imported")
            default:
                continue
            }
        }
    }

    /// Folder names from the top down to the request's parent (cycle- and depth-safe).
    func folders(of node: SpecNode) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        var id = node["parentId"]?.text
        while let current = id, let parent = byID[current], parent["_type"]?.text == "request_group",
              seen.insert(current).inserted, names.count < PostmanMapper.maxDepth {
            names.insert(parent["name"]?.text ?? "", at: 0)
            id = parent["parentId"]?.text
        }
        return names
    }

    /// The auth a request group gives its requests (the nearest one that has one).
    func groupAuth(of node: SpecNode) -> SpecNode? {
        var seen: Set<String> = []
        var id = node["parentId"]?.text
        while let current = id, let parent = byID[current], seen.insert(current).inserted {
            if let auth = parent["authentication"], auth["type"]?.text != nil, auth["disabled"]?.bool != true { return auth }
            id = parent["parentId"]?.text
        }
        return nil
    }

    /// `environments:` for each origin: the sub-environments that make it a whole literal URL.
    func environments() -> [String: [YAMLOut.Entry]] {
        CollectionDrafts.environments(requests, subEnvironments, syntax: .insomnia)
    }
}
