import APIYAML
/// The `auth:` block: `none`, `{ bearer: … }`, `{ basic: { user: …, password: … } }` or
/// `{ header: Name, value: … }`, `{ digest: { username: …, password: … } }` or `{ oauth2: … }`.
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
        if keys == ["digest"], let e = value("digest") {
            guard let fields = reader.mapping(e.value, "digest auth", known: ["username", "password"]) else { return nil }
            let user = fields.first { $0.key == "username" }.flatMap { reader.text($0.value, "digest username") }
            let password = fields.first { $0.key == "password" }.flatMap { reader.text($0.value, "digest password") }
            guard let user, let password else {
                reader.error("digest auth needs username: and password:", at: e.value.mark,
                             hint: "write digest: { username: u, password: \"${PW}\" }")
                return nil
            }
            return .digest(user: user, password: password)
        }
        if keys == ["aws"], let e = value("aws") {
            return aws(e.value).map { .aws($0) }
        }
        if keys == ["oauth2"], let e = value("oauth2") {
            return oauth2(e.value).map { .oauth2($0) }
        }
        reader.error("auth of \(what) takes one of bearer:, basic:, digest:, aws:, oauth2:, or header: with value:", at: node.mark,
                     hint: "write { bearer: \"${TOKEN}\" }, { basic: { user: u, password: \"${PW}\" } } or { header: X-API-Key, value: \"${KEY}\" }")
        return nil
    }
}

extension ServiceDecoder {
    /// `aws: { service, region?, accessKey?, secretKey?, sessionToken? }`.
    mutating func aws(_ node: Node) -> AWSSettings<Template>? {
        guard let entries = reader.mapping(node, "aws auth", known: TargetFile.Keys.aws) else { return nil }
        var fields: [String: Template] = [:]
        for e in entries {
            if let t = reader.text(e.value, "aws \(e.key)") { fields[e.key] = t }
        }
        guard let service = fields["service"] else {
            reader.error("aws auth needs service: (the signing name, e.g. execute-api, s3, dynamodb)", at: node.mark,
                         hint: "write aws: { service: execute-api, region: eu-west-1 } (keys from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")
            return nil
        }
        return AWSSettings(region: fields["region"], service: service, accessKey: fields["accessKey"],
                           secretKey: fields["secretKey"], sessionToken: fields["sessionToken"])
    }

    /// `oauth2: { tokenURL, clientId, clientSecret?, scope?, grant?, username?, password?, refreshToken? }`.
    mutating func oauth2(_ node: Node) -> OAuth2Settings<Template>? {
        guard let entries = reader.mapping(node, "oauth2", known: TargetFile.Keys.oauth2) else { return nil }
        var fields: [String: Template] = [:]
        var grant = OAuth2Settings<Template>.Grant.clientCredentials
        for e in entries {
            if e.key == "grant" {
                grant = reader.choice(e.value, "oauth2 grant", as: OAuth2Settings<Template>.Grant.self) ?? grant
            } else if let t = reader.text(e.value, "oauth2 \(e.key)") {
                fields[e.key] = t
            }
        }
        var missing = ["tokenURL", "clientId"].filter { fields[$0] == nil }
        if grant == .password { missing += ["username", "password"].filter { fields[$0] == nil } }
        if grant == .refreshToken, fields["refreshToken"] == nil { missing.append("refreshToken") }
        guard missing.isEmpty, let tokenURL = fields["tokenURL"], let clientId = fields["clientId"] else {
            reader.error("oauth2 (grant \(grant.rawValue)) needs " + missing.map { "\($0):" }.joined(separator: ", "), at: node.mark,
                         hint: "write oauth2: { tokenURL: https://auth.example.com/token, clientId: app, clientSecret: \"${CLIENT_SECRET}\" }")
            return nil
        }
        return OAuth2Settings(tokenURL: tokenURL, clientId: clientId, clientSecret: fields["clientSecret"], scope: fields["scope"],
                              grant: grant, username: fields["username"], password: fields["password"],
                              refreshToken: fields["refreshToken"])
    }
}
