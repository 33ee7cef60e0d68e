/// The `auth:` block: `none`, `{ bearer: … }`, `{ basic: { user: …, password: … } }` or
/// `{ header: Name, value: … }`.
extension ServiceDecoder {
    mutating func auth(_ node: Node, _ what: String) -> Auth? {
        if node.pairs == nil {
            guard let t = reader.text(node, "auth of \(what)") else { return nil }
            if t.text == "none" { return Auth.none }
            reader.error("unknown auth '\(t.text)' in \(what)", at: node.mark,
                         hint: "write auth: none, { bearer: … }, { basic: { user: …, password: … } } or { header: Name, value: … }")
            return nil
        }
        guard let entries = reader.mapping(node, "auth of \(what)", known: TargetFile.Keys.auth) else { return nil }
        let keys = Set(entries.map(\.key))
        let value = { (key: String) in entries.first { $0.key == key } }
        if keys == ["bearer"], let e = value("bearer") {
            return reader.text(e.value, "bearer token").map { .bearer($0) }
        }
        if keys == ["basic"], let e = value("basic") {
            guard let fields = reader.mapping(e.value, "basic auth", known: ["user", "password"]) else { return nil }
            let user = fields.first { $0.key == "user" }.flatMap { reader.text($0.value, "basic user") }
            let password = fields.first { $0.key == "password" }.flatMap { reader.text($0.value, "basic password") }
            guard let user, let password else {
                reader.error("basic auth needs user: and password:", at: e.value.mark)
                return nil
            }
            return .basic(user: user, password: password)
        }
        if keys == ["header", "value"], let name = value("header"), let v = value("value") {
            guard let header = reader.text(name.value, "auth header"), let text = reader.text(v.value, "auth value") else { return nil }
            guard TargetFile.isToken(header.text) else {
                reader.error("'\(header.text)' is not a valid header name", at: name.value.mark)
                return nil
            }
            return .header(name: header.text, value: text)
        }
        reader.error("auth of \(what) takes one of bearer:, basic:, or header: with value:", at: node.mark,
                     hint: "write { bearer: \"${TOKEN}\" }, { basic: { user: u, password: \"${PW}\" } } or { header: X-API-Key, value: \"${KEY}\" }")
        return nil
    }
}
