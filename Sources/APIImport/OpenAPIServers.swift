import APISecrets
import APITargets
import APITransport
/// `servers:` → base URLs: variables become `${SERVICE_NAME:-default}`, relative URLs are made
/// absolute against http://localhost (with a warning). The first variable with an `enum` gives
/// one environment per value (used when there is one server).
extension OpenAPIMapper {
    struct Server {
        var name: String
        var url: String
        /// Environment name → base URL, one per `enum` value of the first variable that has one.
        var variants: [(name: String, url: String)] = []
    }

    func servers() -> [Server] {
        var taken = UniqueNames()
        var out: [Server] = []
        for (i, s) in (root["servers"]?.items ?? []).enumerated() {
            guard var url = s["url"]?.text.map(ImportText.literalVariables) else {
                warn(s, "a server without url: is left out")
                continue
            }
            // `example` is the URL with every variable at its default: what decides whether it is absolute.
            var example = url
            var choice: (token: String, values: [String])?
            for (name, _, variable) in s["variables"]?.entries ?? [] {
                let value = variable["default"]?.text ?? ""
                let env = variablePrefix + "_" + ImportNames.variable(name)
                example = example.replacing("{\(name)}", with: value)
                if Secrets.isSecretName(env) || value.contains("}") || value.contains("{") {
                    // A spec does not get to read a secret-named variable (it would be sent to its server).
                    warn(variable, "server variable {\(name)} is written as its default '\(value)' (${\(env)} would name a secret or cannot hold it)")
                    url = url.replacing("{\(name)}", with: ImportText.literal(value))
                } else {
                    let token = "${\(env):-\(ImportText.literalVariables(value))}"
                    url = url.replacing("{\(name)}", with: token)
                    let values = variable["enum"]?.items.compactMap(\.text) ?? []
                    if choice == nil, values.count > 1, !values.contains(where: { $0.contains("{") || $0.contains("}") }) {
                        choice = (token, values)
                    }
                }
            }
            for name in Template(url, mark: s.mark).placeholders {
                let env = variablePrefix + "_" + ImportNames.variable(name)
                if Secrets.isSecretName(env) {
                    warn(s, "server variable {\(name)} is not declared; it is written as 'localhost' (${\(env)} would name a secret)")
                    url = url.replacing("{\(name)}", with: "localhost")
                } else {
                    warn(s, "server variable {\(name)} is not declared; it is written as ${\(env)}")
                    url = url.replacing("{\(name)}", with: "${\(env)}")
                }
                example = example.replacing("{\(name)}", with: "x")
            }
            if !(example.hasPrefix("http://") || example.hasPrefix("https://")) {
                warn(s, "server url '\(url)' is not absolute; it is written as http://localhost\(url.hasPrefix("/") ? "" : "/")\(url)")
                url = "http://localhost" + (url.hasPrefix("/") ? "" : "/") + url
            }
            if url.hasSuffix("/") && url.count > "https://x/".count { url.removeLast() }
            let described = s["description"]?.text.flatMap(ImportNames.lowerCamel)
            let name = taken.claim(described ?? (i == 0 ? "default" : "server\(i + 1)"))
            var server = Server(name: name, url: url)
            if let choice {
                var names = UniqueNames()
                server.variants = choice.values.map { value in
                    (names.claim(ImportNames.lowerCamel(value) ?? "server"),
                     url.replacing(choice.token, with: ImportText.literalVariables(value)))
                }
            }
            out.append(server)
        }
        return out
    }
}
