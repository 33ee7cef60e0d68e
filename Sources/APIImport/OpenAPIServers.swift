import APISecrets
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// `servers:` → base URLs: variables become `${SERVICE_NAME:-default}`, relative URLs are resolved
/// (RFC 3986) against the description's `$self` when that is a URL, else against http://localhost
/// (with a warning). The first variable with an `enum` gives
/// one environment per value (used when there is one server).
extension OpenAPIMapper {
    struct Server {
        var name: String
        var url: String
        /// The URL before its trailing `/` is dropped: what relative URLs resolve against.
        var base: String
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
            if !Self.isAbsolute(example) {
                // Relative to where the description is served (OpenAPI 4.8.5): its `$self` when that
                // is a URL; else a local server.
                let location = Self.isAbsolute(root["$self"]?.text ?? "") ? root["$self"]?.text : nil
                let resolved = Self.resolve(url, against: location ?? "http://localhost/") ?? "http://localhost/" + url
                if location == nil { warn(s, "server url '\(url)' is not absolute; it is written as \(resolved)") }
                url = resolved
            }
            let base = url
            if url.hasSuffix("/") && url.count > "https://x/".count { url.removeLast() }
            let described = s["description"]?.text.flatMap(ImportNames.lowerCamel)
            let name = taken.claim(described ?? (i == 0 ? "default" : "server\(i + 1)"))
            var server = Server(name: name, url: url, base: base)
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

extension OpenAPIMapper {
    /// An `http://` or `https://` URL (of any letter case).
    static func isAbsolute(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// `reference` resolved against `base` as RFC 3986 section 5 says (Foundation's URL resolves):
    /// what the description writes as a relative URL (`tokenUrl: token`, `url: /v1`) is relative to
    /// its server. `${…}` variables and escapes in either stay as written. nil when either is no URL.
    static func resolve(_ reference: String, against base: String) -> String? {
        if isAbsolute(reference) { return reference }
        var tokens: [String] = []
        func hide(_ s: String) -> String {
            s.replacing(/\$\{[^}]*\}/) { match in
                tokens.append(String(match.output))
                return "apicliv\(tokens.count - 1)v"
            }
        }
        let (r, b) = (hide(reference), hide(base))
        guard !r.contains("{"), !b.contains("{"), let baseURL = URL(string: b), baseURL.host != nil,
              let resolved = URL(string: r, relativeTo: baseURL)?.absoluteString else { return nil }
        var out = resolved
        for (i, token) in tokens.enumerated().reversed() { out = out.replacing("apicliv\(i)v", with: token) }
        return out
    }
}
