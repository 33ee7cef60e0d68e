import APISupport
import APIDiagnostics
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The resolver's auth layer: a target's `auth:` expanded into the credential its requests carry (OAuth2 settings included).
extension EndpointResolver {
    /// Expands the `auth:` that applies; `auth: none` (or no auth at all) is nil.
    func credential(_ auth: Auth?, _ bindings: Bindings, _ name: String, _ file: String) throws(APIError) -> Credential? {
        switch auth {
        case nil, .none?: return nil
        case .bearer(let token)?:
            return .bearer(try headerValue(token, bindings, in: "the bearer token of \(name)", file: file))
        case .basic(let user, let password)?:
            return .basic(user: try bindings.expand(user, in: "the basic user of \(name)", file: file),
                          password: try bindings.expand(password, in: "the basic password of \(name)", file: file))
        case .header(let header, let value)?:
            return .header(name: header, value: try headerValue(value, bindings, in: "auth header '\(header)' of \(name)", file: file))
        case .digest(let user, let password)?:
            let login = DigestLogin(user: try bindings.expand(user, in: "the digest username of \(name)", file: file),
                                    password: try bindings.expand(password, in: "the digest password of \(name)", file: file))
            secrets.record(login.password)
            return .digest(login)
        case .aws(let a)?:
            return .aws(try awsCredentials(a, bindings, name, file))
        case .oauth2(let o)?:
            func x(_ t: Template?, _ what: String) throws(APIError) -> String? {
                guard let t else { return nil }
                return try bindings.expand(t, in: "oauth2 \(what) of \(name)", file: file)
            }
            let tokenURL = try x(o.tokenURL, "tokenURL") ?? ""
            if let problem = URLBuilder.problem(withBaseURL: tokenURL) {
                throw .invalid(Diagnostic(file: file, mark: o.tokenURL.mark, message: "oauth2 tokenURL '\(tokenURL)' of \(name) \(problem)"))
            }
            let settings = OAuth2Settings<String>(tokenURL: tokenURL, clientId: try x(o.clientId, "clientId") ?? "",
                                                  // An empty secret is a public client's: client_id goes in the form.
                                                  clientSecret: try x(o.clientSecret, "clientSecret").flatMap { $0.isEmpty ? nil : $0 },
                                                  scope: try x(o.scope, "scope").flatMap { $0.isEmpty ? nil : $0 },
                                                  grant: OAuth2Settings<String>.Grant(rawValue: o.grant.rawValue) ?? .clientCredentials,
                                                  username: try x(o.username, "username"), password: try x(o.password, "password"),
                                                  refreshToken: try x(o.refreshToken, "refreshToken"))
            for secret in [settings.clientSecret, settings.password, settings.refreshToken].compactMap({ $0 }) { secrets.record(secret) }
            return .oauth2(settings)
        }
    }
}

extension EndpointResolver {
    /// `auth: { aws: }` expanded; a key not written comes from the standard variable
    /// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION` or `AWS_DEFAULT_REGION`).
    /// `fromFlag`: region and service came from `--aws-sigv4`, so a missing key is not the file's fault.
    func awsCredentials(_ a: AWSSettings<Template>, _ bindings: Bindings, _ name: String, _ file: String,
                        fromFlag: Bool = false) throws(APIError) -> AWSCredentials {
        func field(_ t: Template?, _ key: String, _ variables: [String]) throws(APIError) -> String? {
            if let t {
                let value = try headerValue(t, bindings, in: "aws \(key) of \(name)", file: file)
                return value.isEmpty ? nil : value
            }
            return variables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        func required(_ t: Template?, _ key: String, _ variables: [String]) throws(APIError) -> String {
            if let value = try field(t, key, variables) { return value }
            guard let first = variables.first else {
                throw .invalid(Diagnostic(file: file, mark: a.service.mark, message: "aws \(key) of \(name) is empty",
                                          hint: "write the signing name, e.g. \(key): execute-api"))
            }
            if fromFlag {
                throw .invalid(Diagnostic(file: nil, mark: nil,
                                          message: "--aws-sigv4 for \(name) has no \(key): \(variables.joined(separator: " and ")) "
                                            + "\(variables.count > 1 ? "are" : "is") not set",
                                          hint: "export \(first) (or write auth: { aws: { \(key): \"${\(first)}\" } })"))
            }
            throw .invalid(Diagnostic(file: file, mark: a.service.mark,
                                      message: "aws auth of \(name) has no \(key): it is not written and \(variables.joined(separator: " and ")) "
                                        + "\(variables.count > 1 ? "are" : "is") not set",
                                      hint: "write \(key): \"${\(first)}\" in aws:, or export \(first)"))
        }
        let credentials = AWSCredentials(accessKey: try required(a.accessKey, "accessKey", ["AWS_ACCESS_KEY_ID"]),
                                         secretKey: try required(a.secretKey, "secretKey", ["AWS_SECRET_ACCESS_KEY"]),
                                         sessionToken: try field(a.sessionToken, "sessionToken", ["AWS_SESSION_TOKEN"]),
                                         region: try required(a.region, "region", ["AWS_REGION", "AWS_DEFAULT_REGION"]),
                                         service: try required(a.service, "service", []))
        for key in ["region", "service"] {
            let value = key == "region" ? credentials.region : credentials.service
            if value.contains(where: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }) {
                throw .invalid(Diagnostic(file: file, mark: a.service.mark,
                                          message: "aws \(key) '\(value)' of \(name) is not a region or service name",
                                          hint: "write letters, digits and '-', e.g. region: eu-west-1, service: execute-api"))
            }
        }
        secrets.record(credentials.secretKey)
        if let token = credentials.sessionToken { secrets.record(token) }
        return credentials
    }
}
