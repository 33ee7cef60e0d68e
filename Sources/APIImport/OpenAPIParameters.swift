import APIYAML
import APITargets
import APITransport
/// Parameters → `params:` (path), `task: query` and `headers:`. Required ones are written with an
/// example value; optional ones as comments (`# limit: 20`) a person can uncomment.
extension OpenAPIMapper {
    struct Parameter {
        var name: String
        var location: String
        var required: Bool
        var node: SpecNode
    }

    /// The path item's parameters and the operation's (which win by name and location), resolved.
    func parameters(_ op: SpecNode, item: SpecNode) -> [Parameter] {
        var out: [Parameter] = []
        for raw in (item["parameters"]?.items ?? []) + (op["parameters"]?.items ?? []) {
            guard let p = loader.resolve(raw) else { continue }
            guard let name = p["name"]?.text, let location = p["in"]?.text else {
                warn(p, "a parameter without name: or in: is left out")
                continue
            }
            let param = Parameter(name: name, location: location, required: p["required"]?.bool ?? (location == "path"), node: p)
            if let i = out.firstIndex(where: { $0.name == name && $0.location == location }) { out[i] = param } else { out.append(param) }
        }
        return out
    }

    /// Fills `params:`, `task: query` and `headers:`, and returns the path with its placeholders renamed
    /// where a parameter's name is not a valid placeholder.
    func apply(_ params: [Parameter], path: String, item: SpecNode, to t: inout TargetDraft) -> String {
        var path = path
        var query: [YAMLOut.Entry] = []
        var listInQuery = false
        for p in params {
            var value = example(p)
            if p.node["schema"] == nil, p.node["content"] != nil, Self.isCollection(value) {
                value = .string(value.jsonValue.jsonText)  // `content:` serializes the value as its media type (JSON)
            }
            switch p.location {
            case "path":
                let (style, explode) = self.style(of: p)
                let placeholder = ImportNames.placeholder(p.name)
                // A styled value holds `,;=`: `{+name}` keeps them, as the style means them.
                let styled = style != "simple" || Self.isCollection(value)
                let written = styled ? "{+\(placeholder)}" : "{\(placeholder)}"
                if written != "{\(p.name)}" { path = path.replacing("{\(p.name)}", with: written) }
                let text = styled ? YAMLOut.string(Self.styled(value, name: p.name, style: style, explode: explode)) : Self.scalar(value)
                t.params.append(.pair(placeholder, ImportText.literal(text)))
            case "query":
                let (style, explode) = self.style(of: p)
                switch value {
                case .list where style == "form" && explode:
                    listInQuery = true
                    query.append(entry(p, ImportText.literal(value)))
                case .map(let entries) where style == "form" && explode:  // one pair per property
                    for case .pair(let k, let v) in entries {
                        query.append(entry(Parameter(name: k, location: "query", required: p.required, node: p.node), ImportText.literal(v)))
                    }
                case .map where style == "deepObject":  // `id[role]=admin`: how apicli sends an object
                    query.append(entry(p, ImportText.literal(value)))
                case _ where Self.isCollection(value):
                    if style == "deepObject" { warn(p.node, "deepObject query parameter '\(p.name)' has an example that is not an object; it is sent comma-separated") }
                    query.append(entry(p, .string(ImportText.literal(Self.delimited(value, style: style)))))
                default:
                    query.append(entry(p, ImportText.literal(value)))
                }
            case "header":
                let (style, explode) = self.style(of: p)
                let text = Self.styled(value, name: p.name, style: style, explode: explode)
                if Self.ignoredHeaders.contains(p.name.lowercased()) {
                    warn(p.node, "header parameter '\(p.name)' is not imported: OpenAPI ignores it (content types and auth have their own keys)")
                } else if let problem = ImportText.headerProblem(name: p.name, value: text) {
                    warn(p.node, "\(problem); the header is left out")
                } else {
                    t.headers.append(entry(p, .string(ImportText.literal(text))))
                }
            case "querystring":  // 3.2: the whole query string, serialized by its one media type
                let type = p.node["content"]?.entries.first?.key.lowercased() ?? ""
                if type == "application/x-www-form-urlencoded", case .map(let entries) = example(p) {
                    for case .pair(let k, let v) in entries {
                        query.append(entry(Parameter(name: k, location: "query", required: p.required, node: p.node), ImportText.literal(v)))
                    }
                } else {
                    warn(p.node, "querystring parameter '\(p.name)' (\(type.isEmpty ? "no content" : type)) is not imported: a target's query is name=value pairs; write task: { query: \"TEXT\" } by hand")
                }
            default:
                warn(p.node, "\(p.location) parameter '\(p.name)' is not imported; send it with -H")
            }
        }
        for name in Template(path, mark: Mark(line: 1, column: 1)).placeholders
        where !t.params.contains(where: { if case .pair(name, _) = $0 { return true } else { return false } }) {
            warn(item, "path \(path) has {\(name)} but no path parameter '\(name)'; its default is written as \(name)")
            t.params.append(.pair(name, .string(name)))
        }
        if !query.isEmpty { t.task.append(.pair("query", .map(query))) }
        if listInQuery { t.task.append(.pair("arrays", .string("noBrackets"))) }
        return path
    }

    static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// A required parameter as a pair; an optional one as a comment showing the same pair.
    private func entry(_ p: Parameter, _ value: YAMLOut) -> YAMLOut.Entry {
        if p.required { return .pair(p.name, value) }
        let about = p.node["description"]?.text.map { ": " + ImportText.oneLine($0) } ?? ""
        return .comment(YAMLScalar.key(p.name) + ": " + YAMLWriter.flow(value) + "   # optional" + about)
    }

    /// A scalar for a `{placeholder}` default (collections as their flow text).
    static func scalar(_ v: YAMLOut) -> YAMLOut {
        switch v {
        case .list, .map: return .string(v.flowText)
        case .null: return .string("")
        default: return v
        }
    }

    /// The parameter's example, first named example, schema example or a value built from its schema.
    func example(_ p: Parameter) -> YAMLOut {
        if let e = p.node["example"] { return YAMLOut(e.node) }
        if let named = p.node["examples"]?.entries.first, let e = loader.resolve(named.value), let v = e["value"] ?? e["dataValue"] {
            return YAMLOut(v.node)
        }
        if let schema = p.node["schema"], let v = sampler.value(schema) { return v }
        if let media = p.node["content"]?.entries.first, let v = mediaExample(media.value) { return v.value }
        return .string(p.name)
    }
}

extension YAMLOut {
    /// The value in YAML flow style, as one line.
    var flowText: String { YAMLWriter.flow(self) }
}
