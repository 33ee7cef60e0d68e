import APIYAML
import APITargets
import APITransport
/// A Postman request's auth, body and saved responses.
extension PostmanMapper {
    /// Postman's `auth` object: `{ type: bearer, bearer: [{ key: token, value: … }] }` (v2.1) or
    /// `{ type: bearer, bearer: { token: … } }` (v2.0). `inherit` is nil: the parent's.
    func authKind(_ node: SpecNode, at path: String) -> CollectionAuth.Kind {
        let type = node["type"]?.text ?? ""
        func param(_ key: String) -> String {
            let holder = node[type]
            if let list = holder?.node.items {
                for item in list.map({ SpecNode(node: $0, file: node.file) }) where item["key"]?.text == key {
                    return item["value"]?.text ?? ""
                }
                return ""
            }
            return holder?[key]?.text ?? ""
        }
        switch type {
        case "noauth": return .none
        case "bearer": return .bearer(token: param("token"))
        case "basic": return .basic(user: param("username"), password: param("password"))
        case "digest": return .digest(user: param("username"), password: param("password"))
        case "apikey":
            return .apiKey(name: param("key"), value: param("value"), inQuery: param("in") == "query")
        case "oauth2":
            return .oauth2(grant: param("grant_type"), tokenURL: param("accessTokenUrl"), clientId: param("clientId"), scope: param("scope"))
        default: return .unsupported(type.isEmpty ? "?" : type)
        }
    }

    /// Whether an `auth` object says "the parent's".
    static func inherits(_ node: SpecNode?) -> Bool {
        node == nil || node?["type"]?.text == "inherit"
    }

    mutating func body(_ b: SpecNode, at path: String, into r: inout CollectionRequest) {
        let mode = b["mode"]?.text ?? ""
        var warnings: [String] = []
        switch mode {
        case "raw":
            let language = b["options"]?["raw"]?["language"]?.text
            let declared = r.headers.contains { if case .pair(let k, .string(let v)) = $0 { return k.lowercased() == "content-type" && v.lowercased().contains("json") } else { return false } }
            let types = ["json": "application/json", "xml": "application/xml", "html": "text/html", "javascript": "application/javascript"]
            r.setText(b["raw"]?.text ?? "", json: language == "json" || language == nil || declared,
                      contentType: language.flatMap { types[$0] }, variables: &variables)
        case "urlencoded":
            warnings = r.setForm(CollectionInput.enabled(b["urlencoded"]).map { ($0.key, $0.value) }, variables: &variables)
        case "formdata":
            let parts = CollectionInput.enabled(b["formdata"]).map { field in
                (field.key, field.value, field.node["type"]?.text == "file"
                    ? field.node["src"]?.text ?? field.node["src"]?.items.first?.text ?? "?" : nil)
            }
            warnings = r.setMultipart(parts, variables: &variables)
        case "file":
            warnings = [r.fileBody(b["file"]?["src"]?.text ?? "?")]
        case "graphql":
            let g = b["graphql"]
            warnings = r.setGraphQL(query: g?["query"]?.text ?? "", variablesText: g?["variables"]?.text,
                                    variablesValue: g?["variables"].flatMap { $0.isMapping ? YAMLOut($0.node) : nil },
                                    operationName: g?["operationName"]?.text, variables: &variables)
        default:
            warnings = ["body mode '\(mode)' is not a Postman body mode; the body is not imported"]
        }
        for w in warnings { warn(b, path, w) }
    }

    /// Saved example responses → the target's sample (the first) and samples, as literal text.
    mutating func responses(_ list: SpecNode?, at path: String, into r: inout CollectionRequest) {
        for (i, response) in (list?.items ?? []).enumerated() where response.isMapping {
            let code = response["code"]?.text.flatMap { Int($0) } ?? 200
            guard (100...599).contains(code) else {
                warn(response, "\(path)[\(i)].code", "status \(code) is not 100–599; the example is not imported")
                continue
            }
            let headers = CollectionInput.enabled(response["header"]).map { ($0.key, $0.value) }
            let json = response["_postman_previewlanguage"]?.text == "json"
            let e = CollectionRequest.sample(status: code, headers: headers, body: response["body"]?.text, json: json)
            r.samples.append((response["name"]?.text ?? String(code), code, e))
        }
    }
}
