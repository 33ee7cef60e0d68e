/// `servers:` → base URLs: variables become `${SERVICE_NAME:-default}`, relative URLs are made
/// absolute against http://localhost (with a warning).
extension OpenAPIMapper {
    struct Server {
        var name: String
        var url: String
    }

    func servers() -> [Server] {
        var taken: Set<String> = []
        var out: [Server] = []
        for (i, s) in (root["servers"]?.items ?? []).enumerated() {
            guard var url = s["url"]?.text else {
                warn(s, "a server without url: is left out")
                continue
            }
            for (name, _, variable) in s["variables"]?.entries ?? [] {
                let value = variable["default"]?.text ?? ""
                let env = variablePrefix + "_" + ImportNames.variable(name)
                url = url.replacing("{\(name)}", with: "${\(env):-\(value)}")
            }
            for name in Template(url, mark: s.mark).placeholders {
                let env = variablePrefix + "_" + ImportNames.variable(name)
                warn(s, "server variable {\(name)} is not declared; it is written as ${\(env)}")
                url = url.replacing("{\(name)}", with: "${\(env)}")
            }
            if !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                warn(s, "server url '\(url)' is not absolute; it is written as http://localhost\(url.hasPrefix("/") ? "" : "/")\(url)")
                url = "http://localhost" + (url.hasPrefix("/") ? "" : "/") + url
            }
            if url.hasSuffix("/") && url.count > "https://x/".count { url.removeLast() }
            let described = s["description"]?.text.flatMap(ImportNames.lowerCamel)
            let name = ImportNames.unique(described ?? (i == 0 ? "default" : "server\(i + 1)"), &taken)
            out.append(Server(name: name, url: url))
        }
        return out
    }
}
