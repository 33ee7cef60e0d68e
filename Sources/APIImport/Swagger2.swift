import APIYAML
/// Swagger 2.0 → the OpenAPI 3.0 shape, node by node, so the one mapper (`OpenAPIMapper`) reads
/// both and every converted node keeps the mark it came from: a warning about a converted
/// operation points at the Swagger file's line and column.
///
/// host/basePath/schemes → `servers`; `consumes`/`produces` → the media types of `requestBody`
/// and responses; `in: body` → `requestBody`; `in: formData` → a form or multipart `requestBody`
/// (properties from the parameters); `collectionFormat` → `style`/`explode`; `x-example` →
/// `example`; responses' `schema`/`examples` → `content`; `definitions`, `parameters`,
/// `responses`, `securityDefinitions` → `components` (`$ref`s rewritten to match); OAuth2's
/// `implicit`/`password`/`application`/`accessCode` → `flows`. Schemas: `x-nullable` →
/// `nullable`, `type: file` → a binary string, a `discriminator` string → `{ propertyName }`:
/// OpenAPI 3.0's schema dialect is then Swagger's (both draft 4's "extended subset").
struct Swagger2 {
    let root: SpecNode
    let warn: (ImportWarning) -> Void

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch"]

    /// The whole document converted.
    func convert() -> Node {
        let m = root.mark
        var out: [(String, Node)] = [("openapi", text("3.0.3", m))]
        for (key, _, value) in root.entries {
            switch key {
            case "swagger", "host", "basePath", "schemes", "consumes", "produces",
                 "definitions", "parameters", "responses", "securityDefinitions":
                continue
            case "paths":
                if let servers = servers() { out.append(("servers", servers)) }
                out.append(("paths", paths(value)))
            default:
                out.append((key, Swagger2.rewritingRefs(value.node)))
            }
        }
        if root["paths"] == nil, let servers = servers() { out.append(("servers", servers)) }
        var components: [(String, Node)] = []
        if let d = root["definitions"] {
            components.append(("schemas", map(d.entries.map { ($0.key, schema($0.value)) }, d.mark)))
        }
        if let p = root["parameters"] {
            let plain = p.entries.filter { !["body", "formData"].contains(resolved($0.value)["in"]?.text ?? "") }
            components.append(("parameters", map(plain.map { ($0.key, parameter($0.value)) }, p.mark)))
        }
        if let r = root["responses"] {
            let produces = mediaTypes(root["produces"])
            components.append(("responses", map(r.entries.map { ($0.key, response($0.value, produces: produces)) }, r.mark)))
        }
        if let s = root["securityDefinitions"] {
            components.append(("securitySchemes", map(s.entries.map { ($0.key, securityScheme($0.value)) }, s.mark)))
        }
        if !components.isEmpty { out.append(("components", map(components, m))) }
        return map(out, m)
    }

    // MARK: servers and paths

    private func servers(schemes given: SpecNode? = nil) -> Node? {
        let base = root["basePath"]?.text ?? ""
        guard let host = root["host"]?.text, !host.isEmpty else {
            return base.isEmpty || base == "/" || given != nil ? nil : list([map([("url", text(base, root["basePath"]!.mark))], root.mark)], root.mark)
        }
        var schemes = (given ?? root["schemes"])?.items.compactMap(\.text) ?? []
        if schemes.isEmpty, given != nil { return nil }
        if schemes.isEmpty {
            warn(root.warning("no schemes: https assumed for host \(host)"))
            schemes = ["https"]
        }
        let mark = given?.mark ?? root["host"]!.mark
        return list(schemes.map { map([("url", text("\($0)://\(host)\(base == "/" ? "" : base)", mark)), ("description", text($0, mark))], mark) }, mark)
    }

    private func paths(_ paths: SpecNode) -> Node {
        map(paths.entries.map { key, _, item in
            (key, item.ref != nil || !key.hasPrefix("/") ? Swagger2.rewritingRefs(item.node) : pathItem(item))
        }, paths.mark)
    }

    func pathItem(_ item: SpecNode) -> Node {
        let shared = item["parameters"]?.items ?? []
        var out: [(String, Node)] = []
        for (key, _, value) in item.entries where key != "parameters" {
            out.append((key, Self.methods.contains(key) && value.ref == nil ? operation(value, shared: shared) : Swagger2.rewritingRefs(value.node)))
        }
        return map(out, item.mark)
    }

    /// The parameters of the path item and the operation (the operation's win by name and place).
    private func parameters(_ op: SpecNode, shared: [SpecNode]) -> [SpecNode] {
        let own = (op["parameters"]?.items ?? []).map(resolved)
        let keys = Set(own.map { "\($0["in"]?.text ?? "") \($0["name"]?.text ?? "")" })
        return shared.map(resolved).filter { !keys.contains("\($0["in"]?.text ?? "") \($0["name"]?.text ?? "")") } + own
    }

    private func operation(_ op: SpecNode, shared: [SpecNode]) -> Node {
        let consumes = mediaTypes(op["consumes"] ?? root["consumes"])
        let produces = mediaTypes(op["produces"] ?? root["produces"])
        let params = parameters(op, shared: shared)
        var out: [(String, Node)] = []
        for (key, _, value) in op.entries {
            switch key {
            case "parameters", "consumes", "produces": continue
            case "schemes":  // the operation's own: as its servers (which the mapper warns about when they differ)
                if let servers = servers(schemes: value) { out.append(("servers", servers)) }
            case "responses":
                out.append(("responses", map(value.entries.map { ($0.key, response($0.value, produces: produces)) }, value.mark)))
            default:
                out.append((key, Swagger2.rewritingRefs(value.node)))
            }
        }
        let plain = params.filter { !["body", "formData"].contains($0["in"]?.text ?? "") }
        if !plain.isEmpty { out.append(("parameters", list(plain.map(parameter), op["parameters"]?.mark ?? op.mark))) }
        if let body = params.first(where: { $0["in"]?.text == "body" }) {
            out.append(("requestBody", requestBody(body, consumes: consumes)))
        } else {
            let form = params.filter { $0["in"]?.text == "formData" }
            if !form.isEmpty { out.append(("requestBody", formBody(form, consumes: consumes, at: form[0].mark))) }
        }
        return map(out, op.mark)
    }

    /// A parameter given as a local `$ref` (`#/parameters/limit`) is read where it points.
    func resolved(_ p: SpecNode) -> SpecNode {
        guard let ref = p.ref, ref.hasPrefix("#"), let target = SpecLoader.follow(pointer: String(ref.dropFirst()), in: root) else { return p }
        return target
    }

    private func mediaTypes(_ node: SpecNode?) -> [String] {
        let types = node?.items.compactMap(\.text) ?? []
        return types.isEmpty ? ["application/json"] : types
    }

    // MARK: helpers for the other files

    func text(_ s: String, _ mark: Mark) -> Node { Node(content: .scalar(.init(value: s, isPlain: false)), mark: mark) }
    func plain(_ s: String, _ mark: Mark) -> Node { Node(content: .scalar(.init(value: s, isPlain: true)), mark: mark) }
    func map(_ pairs: [(String, Node)], _ mark: Mark) -> Node {
        Node(content: .mapping(pairs.map { Node.Pair(key: plain($0.0, $0.1.mark), value: $0.1) }), mark: mark)
    }
    func list(_ items: [Node], _ mark: Mark) -> Node { Node(content: .sequence(items), mark: mark) }
}
