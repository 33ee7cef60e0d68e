import APIYAML
/// One entry of `environments:` (apicli.yaml or a service file), chosen with `--env NAME` or
/// `APICLI_ENV`: a base URL and headers that replace the file's own.
package struct Environment: Sendable {
    package var name: String
    package var baseURL: Template?
    package var headers: [Header]
    package var mark: Mark
}

extension ServiceDecoder {
    mutating func environments(_ node: Node) -> [Environment] {
        guard let entries = reader.mapping(node, "environments") else { return [] }
        var out: [Environment] = []
        for e in entries where !e.key.hasPrefix("x-") {
            let what = "environment '\(e.key)'"
            guard let fields = reader.mapping(e.value, what, known: TargetFile.Keys.environment) else { continue }
            var env = Environment(name: e.key, baseURL: nil, headers: [], mark: e.keyMark)
            for f in fields {
                switch f.key {
                case "baseURL": env.baseURL = baseURL(f.value)
                case "headers": env.headers = headers(f.value, "the headers of \(what)") ?? []
                default: break
                }
            }
            out.append(env)
        }
        return out
    }
}
