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
        let resources = try InsomniaResources.read(root)
        let file = input.name
        var mapper = InsomniaMapper(resources: resources)
        let title = mapper.workspaceName
        let service = try CollectionInput.serviceName(options.service, title: title, file: file)
        mapper.prefix = ImportNames.variable(service)
        mapper.variables.prefix = mapper.prefix
        mapper.mapRequests()
        guard !mapper.requests.isEmpty else {
            let list = root["resources"].map { ($0, "$.resources") } ?? root["collection"].map { ($0, "$.collection") } ?? (root, "$")
            throw CollectionInput.bad(list.0, list.1, "the export has no HTTP requests to import")
        }
        let header = ["Imported from \(Path.lastComponent(file)) (Insomnia export\(title.map { " '\(ImportText.oneLine($0))'" } ?? "")) by apicli import insomnia."]
        let drafts = CollectionDrafts.services(mapper.requests, service: service, header: header, auth: nil,
                                               notes: mapper.variables.notes, doc: mapper.doc, environments: mapper.environments())
        let warnings = mapper.warnings + mapper.variables.warnings.map { ImportWarning(file: file, mark: nil, message: $0) }
        return ImportResult(drafts: drafts, warnings: warnings)
    }
}

/// One resource of an Insomnia export: a workspace, request group, request, environment, …,
/// linked to its parent by id. Format 4 lists them (`resources`, `_type`, `_id`, `parentId`);
/// format 5 (YAML, `type: collection.insomnia.rest/5.0`) nests them (`collection` with
/// `children`, `environments` with `subEnvironments`), read here into the same list.
struct InsomniaResource {
    var node: SpecNode
    /// Its JSON path in the file, for warnings.
    var path: String
    var type: String
    var id: String
    var parent: String?
}

enum InsomniaResources {
    static let v5 = "collection.insomnia.rest/5.0"

    static func read(_ root: SpecNode) throws(APIError) -> [InsomniaResource] {
        guard root.isMapping else {
            throw CollectionInput.bad(root, "$", "not an Insomnia export: it is \(root.node.kindName), not a mapping",
                                      hint: "export from Insomnia with Export → Insomnia v5 (YAML) or v4 (JSON)")
        }
        if let type = root["type"]?.text, root["resources"] == nil {
            guard type == v5 else {
                throw CollectionInput.bad(root["type"]!, "$.type", "'\(type)' is not an Insomnia collection; only \(v5) (and format 4) are read",
                                          hint: type.hasSuffix(".insomnia.rest/5.0") ? "export the request collection, not a design document, mock or environment file" : nil)
            }
            return version5(root)
        }
        guard let resources = root["resources"], resources.node.items != nil else {
            throw CollectionInput.bad(root, "$", "not an Insomnia export: there is no 'resources' list nor 'type: \(v5)'",
                                      hint: "export from Insomnia with Export → Insomnia v5 (YAML) or v4 (JSON)")
        }
        if let format = root["__export_format"]?.text, format != "4" {
            throw CollectionInput.bad(root["__export_format"]!, "$.__export_format", "Insomnia export format \(format) is not read; only formats 4 and 5",
                                      hint: "export again from a current Insomnia (Export → Insomnia v5)")
        }
        return resources.items.enumerated().map { i, r in
            InsomniaResource(node: r, path: "$.resources[\(i)]", type: r["_type"]?.text ?? "", id: r["_id"]?.text ?? "#\(i)",
                             parent: r["parentId"]?.text)
        }
    }

    /// Format 5: the root is the workspace, `collection` its tree, `environments` the base
    /// environment with `subEnvironments`. Ids are the resources' paths.
    private static func version5(_ root: SpecNode) -> [InsomniaResource] {
        var out = [InsomniaResource(node: root, path: "$", type: "workspace", id: "$", parent: nil)]
        if let env = root["environments"], env.isMapping {
            out.append(InsomniaResource(node: env, path: "$.environments", type: "environment", id: "$.environments", parent: "$"))
            for (i, sub) in (env["subEnvironments"]?.items ?? []).enumerated() where sub.isMapping {
                let path = "$.environments.subEnvironments[\(i)]"
                out.append(InsomniaResource(node: sub, path: path, type: "environment", id: path, parent: "$.environments"))
            }
        }
        func walk(_ list: SpecNode?, at path: String, parent: String, depth: Int) {
            for (i, item) in (list?.items ?? []).enumerated() where item.isMapping {
                let here = "\(path)[\(i)]"
                let id = item["meta"]?["id"]?.text ?? ""
                let type: String
                if item["children"] != nil {
                    type = "request_group"
                } else if id.hasPrefix("greq_") || item["protoMethodName"] != nil || item["reflectionApi"] != nil {
                    type = "grpc_request"
                } else if id.hasPrefix("ws-req_") {
                    type = "websocket_request"
                } else if id.hasPrefix("sio-req_") {
                    type = "socketio_request"
                } else {
                    type = "request"
                }
                out.append(InsomniaResource(node: item, path: here, type: type, id: here, parent: parent))
                if type == "request_group", depth < PostmanMapper.maxDepth {
                    walk(item["children"], at: "\(here).children", parent: here, depth: depth + 1)
                }
            }
        }
        walk(root["collection"], at: "$.collection", parent: "$", depth: 0)
        return out
    }
}

struct InsomniaMapper {
    let resources: [InsomniaResource]
    var prefix = "INSOMNIA"
    var variables: CollectionVariables
    var requests: [CollectionRequest] = []
    var warnings: [ImportWarning] = []
    /// Sub-environments: name → their values (base values under them).
    private var subEnvironments: [(name: String, values: [String: String])] = []
    private var byID: [String: InsomniaResource] = [:]

    init(resources: [InsomniaResource]) {
        var ids: [String: InsomniaResource] = [:]
        for r in resources where ids[r.id] == nil { ids[r.id] = r }
        let workspace = resources.first { $0.type == "workspace" }?.id
        let environments = resources.filter { $0.type == "environment" }
        let base = environments.first { $0.parent == workspace }
            ?? environments.first { ids[$0.parent ?? ""]?.type != "environment" }
        var values: [String: String] = [:]
        if let data = base?.node["data"] { Self.flatten(data, prefix: "", into: &values) }
        // Request groups' own environments add to the base one.
        for g in resources where g.type == "request_group" {
            if let data = g.node["environment"] { Self.flatten(data, prefix: "", into: &values) }
        }
        let baseID = base?.id
        for env in environments where baseID != nil && env.parent == baseID {
            var sub = values
            if let data = env.node["data"] { Self.flatten(data, prefix: "", into: &sub) }
            subEnvironments.append((env.node["name"]?.text ?? "env", sub))
        }
        self.resources = resources
        self.byID = ids
        self.variables = CollectionVariables(syntax: .insomnia, values: values)
    }

    var workspaceName: String? {
        resources.first { $0.type == "workspace" }?.node["name"]?.text
    }

    /// The service's `doc:`: the workspace's description (format 5 also keeps it in `meta`),
    /// then the request groups'.
    var doc: String? {
        let workspace = resources.first { $0.type == "workspace" }?.node
        let own = CollectionInput.description(workspace?["description"]) ?? CollectionInput.description(workspace?["meta"]?["description"])
        let groups = resources.filter { $0.type == "request_group" }.compactMap { g -> (path: [String], text: String)? in
            guard let text = CollectionInput.description(g.node["description"]) ?? CollectionInput.description(g.node["meta"]?["description"]) else { return nil }
            return (folders(of: g) + [g.node["name"]?.text ?? ""], text)
        }
        return CollectionDrafts.doc(own, folders: groups)
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
        for res in resources {
            let node = res.node, path = res.path
            switch res.type {
            case "request":
                if let r = request(res) { requests.append(r) }
                for w in variables.takeWarnings() { warn(node, path, w) }
            case "grpc_request", "websocket_request", "socketio_request":
                warn(node, path, "\(res.type) '\(node["name"]?.text ?? "")' is not HTTP; it is not imported")
            case "request_group":
                for (script, at, what) in scripts(res) {
                    warn(script, at, "the \(what) of request group '\(node["name"]?.text ?? "")' is not run for its requests (apicli runs no JavaScript)")
                }
            default:
                continue
            }
        }
    }

    /// A request's or request group's scripts that are not empty: format 4's `preRequestScript`
    /// and `afterResponseScript`, format 5's `scripts: { preRequest:, afterResponse: }`.
    func scripts(_ res: InsomniaResource) -> [(node: SpecNode, path: String, what: String)] {
        [("preRequestScript", "preRequest", "pre-request script"), ("afterResponseScript", "afterResponse", "after-response script")].compactMap { key, key5, what in
            let (script, at) = res.node[key].map { ($0, "\(res.path).\(key)") } ?? (res.node["scripts"]?[key5], "\(res.path).scripts.\(key5)")
            guard let script, !(script.text ?? "").trimmingWhitespace().isEmpty else { return nil }
            return (script, at, what)
        }
    }

    /// Folder names from the top down to the resource's parent (cycle- and depth-safe).
    func folders(of res: InsomniaResource) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        var id = res.parent
        while let current = id, let parent = byID[current], parent.type == "request_group",
              seen.insert(current).inserted, names.count < PostmanMapper.maxDepth {
            names.insert(parent.node["name"]?.text ?? "", at: 0)
            id = parent.parent
        }
        return names
    }

    /// The auth a request group gives its requests (the nearest one that has one).
    func groupAuth(of res: InsomniaResource) -> SpecNode? {
        var seen: Set<String> = []
        var id = res.parent
        while let current = id, let parent = byID[current], seen.insert(current).inserted {
            if let auth = parent.node["authentication"], auth["type"]?.text != nil, auth["disabled"]?.bool != true { return auth }
            id = parent.parent
        }
        return nil
    }

    /// `environments:` for each origin: the sub-environments that make it a whole literal URL.
    func environments() -> [String: [YAMLOut.Entry]] {
        CollectionDrafts.environments(requests, subEnvironments, syntax: .insomnia)
    }
}
