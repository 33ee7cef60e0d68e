import APIYAML

/// A target's `auth:` as it may be written into a file: its credential replaced by a `${VAR}`
/// named after the service (`${SHOP_TOKEN}`, `${SHOP_PASSWORD}`: names `Secrets.isSecretName`
/// reads as secret, so the value is hidden wherever it is printed), never the value itself.
/// (`call --save`; the importers name their variables with `ImportNames`.)
package enum CredentialVariables {
    /// The credential that became a variable: what it was, in words, and the variable's name.
    package struct Replaced: Sendable, Equatable {
        /// `the bearer token`, `the password`.
        package var what: String
        package var variable: String
    }

    /// `auth` with a bearer token or a basic password replaced; other kinds as they are (nil: nothing replaced).
    package static func replace(_ auth: YAMLOut?, service: String) -> (auth: YAMLOut?, replaced: Replaced?) {
        guard let pairs = auth?.pairs, let (kind, value) = pairs.first else { return (auth, nil) }
        let prefix = String(service.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        switch kind {
        case "bearer":
            let name = prefix + "_TOKEN"
            return (.map([.pair("bearer", .string("${\(name)}"))]), Replaced(what: "the bearer token", variable: name))
        case "basic":
            let name = prefix + "_PASSWORD"
            let user = value.pairs?.first { $0.0 == "user" }?.1 ?? .string("")
            return (.map([.pair("basic", .map([.pair("user", user), .pair("password", .string("${\(name)}"))]))]),
                    Replaced(what: "the password", variable: name))
        default:
            return (auth, nil)
        }
    }
}
