import APISupport
import APIYAML
import APIJSON
import APISecrets
/// `capture:` and `needs:` of a target.
extension ServiceDecoder {
    mutating func captures(_ node: Node, _ what: String) -> [Capture] {
        guard let entries = reader.mapping(node, "capture of \(what)") else { return [] }
        return entries.compactMap { capture($0.key, $0.value, keyMark: $0.keyMark) }
    }

    private mutating func capture(_ name: String, _ node: Node, keyMark: Mark) -> Capture? {
        guard TargetFile.isName(name) else {
            reader.error("capture name '\(name)' may only hold letters, digits, '_' and '-'", at: keyMark,
                         hint: "it is used as {\(name)} in the targets that need this one")
            return nil
        }
        guard let entries = reader.mapping(node, "capture '\(name)'", known: TargetFile.Keys.capture) else { return nil }
        var sources: [(String, Capture.Source, Mark)] = []
        var secret: Bool?
        var schema: SchemaExpectation?
        for e in entries {
            switch MappingKey(e.key) {
            case "schema": schema = schemaExpectation(e.value)
            case "json":
                guard let t = reader.text(e.value, "capture json") else { continue }
                switch JSONPath.parse(t.text) {
                case .success(let path): sources.append((e.key, .json(path), e.keyMark))
                case .failure(let error):
                    reader.error("capture '\(name)': '\(t.text)' is not a JSONPath: \(error.message)", at: e.value.mark,
                                 hint: "write json: \"$.field\", \"$.items[0].id\" or \"$['odd name']\"")
                }
            case "header":
                guard let t = reader.text(e.value, "capture header") else { continue }
                sources.append((e.key, .header(t.text), e.keyMark))
            case "body":
                guard let t = reader.text(e.value, "capture body") else { continue }
                do {
                    _ = try BoundedRegex.compile(t.text)
                } catch {
                    reader.error("capture '\(name)': '\(t.text)' is not a valid regular expression: \(error.message)", at: e.value.mark)
                    continue
                }
                sources.append((e.key, .body(t.text), e.keyMark))
            default: secret = reader.boolean(e.value, "secret")
            }
        }
        guard sources.count == 1 else {
            if sources.count > 1 {
                reader.error("capture '\(name)' takes one of json:, header:, body:", at: sources[1].2)
            } else if entries.allSatisfy({ $0.key == "secret" || $0.key == "schema" }) {
                reader.error("capture '\(name)' needs a source", at: node.mark,
                             hint: "write { json: \"$.token\" }, { header: Location } or { body: \"id=([0-9]+)\" }")
            }
            return nil
        }
        let source = sources[0].1
        var isSecret = secret ?? Secrets.isSecretName(name)
        if secret == nil, case .header(let h) = source, Redactor.credentialHeaders.contains(h.lowercased()) { isSecret = true }
        return Capture(name: name, source: source, secret: isSecret, mark: keyMark, schema: schema)
    }

    /// `needs: login` or `needs: [login, auth.token]`.
    mutating func needs(_ node: Node) -> [Need] {
        let items = node.items ?? [node]
        var out: [Need] = []
        for item in items {
            guard let t = reader.text(item, "an entry of needs") else { continue }
            let parts = t.text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count <= 2, parts.allSatisfy(TargetFile.isName) else {
                reader.error("needs '\(t.text)' is not a target name", at: item.mark,
                             hint: "name a target of this service (login) or of another (auth.login)")
                continue
            }
            out.append(Need(name: t.text, mark: item.mark))
        }
        return out
    }
}
