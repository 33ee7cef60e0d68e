import APISupport
import APITargets
import APITransport
/// A Postman request → a `CollectionRequest`: method, URL (origin, path with `:name` → `{name}`,
/// query), headers (disabled ones left out), body and auth.
extension PostmanMapper {
    mutating func request(_ node: SpecNode, at path: String, name: String, folders: [String],
                          inherited: SpecNode?) -> CollectionRequest? {
        // v2 allows a request given as its URL alone.
        let urlNode = node.text != nil ? node : node["url"]
        let urlPath = node.text != nil ? path : "\(path).url"
        guard let urlNode, let raw = Self.rawURL(urlNode), !raw.trimmingWhitespace().isEmpty else {
            warn(urlNode ?? node, urlPath, "request '\(name)' has no URL; it is not imported (give it one in Postman and export again)")
            return nil
        }
        let url = CollectionURL(raw)
        var r = CollectionRequest(name: name, origin: variables.text(url.origin))
        r.folders = folders
        let method = node["method"]?.text?.uppercased() ?? "GET"
        guard TargetFile.isToken(method) else {
            warn(node["method"]!, "\(path).method", "'\(method)' is not an HTTP method; request '\(name)' is not imported")
            return nil
        }
        r.method = method
        pathAndParams(url, node: urlNode, into: &r)
        query(url, node: urlNode, at: urlPath, into: &r)
        headers(node["header"], at: "\(path).header", into: &r)
        if let body = node["body"], body["disabled"]?.bool != true {
            self.body(body, at: "\(path).body", into: &r)
            for w in r.secretJSONFields(prefix: prefix) { warn(body, "\(path).body", w) }
        }
        let own = Self.inherits(node["auth"]) ? nil : node["auth"]
        if let auth = own ?? inherited {
            let here = own != nil ? "\(path).auth" : "(the folder's auth)"
            var m = CollectionAuth.map(authKind(auth, at: here), prefix: prefix, variables: &variables)
            for w in m.warnings { warn(auth, here, w) }
            if case .string("none") = m.auth, serviceAuth.auth == nil { m.auth = nil }
            r.auth = m.auth
            r.notes += m.notes
            if let q = m.query { r.query.append(q) }
        } else if let q = serviceAuth.query {
            r.query.append(q)
        }
        return r
    }

    /// The URL's text: `raw`, else built from its parts; a string URL as it is.
    static func rawURL(_ node: SpecNode) -> String? {
        if let text = node.text { return text }
        if let raw = node["raw"]?.text { return raw }
        let host = node["host"].map { $0.items.compactMap(\.text).joined(separator: ".") + ($0.text ?? "") } ?? ""
        guard !host.isEmpty else { return nil }
        let scheme = node["protocol"]?.text.map { "\($0)://" } ?? ""
        let port = node["port"]?.text.map { ":\($0)" } ?? ""
        let path = node["path"].map { $0.items.compactMap(\.text).joined(separator: "/") + ($0.text ?? "") } ?? ""
        return scheme + host + port + (path.isEmpty ? "" : "/" + path)
    }

    private mutating func pathAndParams(_ url: CollectionURL, node: SpecNode, into r: inout CollectionRequest) {
        var defaults: [String: String] = [:]
        for (key, value, _) in CollectionInput.enabled(node["variable"]) { defaults[key] = value }
        r.setPath(url.path, defaults: defaults, variables: &variables)
    }

    private mutating func query(_ url: CollectionURL, node: SpecNode, at path: String, into r: inout CollectionRequest) {
        var pairs: [(key: String, value: String?)] = url.query
        if let list = node["query"], list.node.items != nil {
            pairs = list.items.compactMap { item in
                guard item["disabled"]?.bool != true, let k = item["key"]?.text else { return nil }
                let v = item["value"].flatMap { $0.text }
                return (CollectionURL.decode(k[...]), v.map { CollectionURL.decode($0[...]) })
            }
        }
        r.setQuery(pairs, variables: &variables)
    }

    private mutating func headers(_ node: SpecNode?, at path: String, into r: inout CollectionRequest) {
        var list = CollectionInput.enabled(node).map { ($0.key, $0.value, $0.node) }
        if let text = node?.text {  // v2.0: "Name: value\nName2: value"
            list = text.split(whereSeparator: \.isNewline).compactMap { line in
                line.firstIndex(of: ":").map { (String(line[..<$0]).trimmingSpaces(), String(line[line.index(after: $0)...]).trimmingSpaces(), node!) }
            }
        }
        for (i, (name, value, n)) in list.enumerated() {
            if let w = r.addHeader(name, value, prefix: prefix, variables: &variables) { warn(n, "\(path)[\(i)]", w) }
        }
    }
}
