import APIYAML
import APITransport
import APISecrets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A HAR entry's request headers and body → the target's, and its response → a sample.
extension HarService {
    /// A sample body larger than this is left out (a comment says so).
    static let largestSample = 256 * 1024

    mutating func headers(_ e: HarEntry, _ t: inout TargetDraft) {
        var seen: [String: Int] = [:]
        for h in e.requestHeaders {
            let lower = h.name.lowercased()
            if HarSecrets.isNoise(lower) || (lower == "content-type" && e.postText == nil) { continue }
            var value = ImportText.literal(h.value)
            if lower == "authorization" {
                if authorization(h.value, &t) { continue }
                value = secret(h.name, "the Authorization header")
            } else if lower == "cookie" {
                value = secret("cookie", "the Cookie header")
            } else if Credentials.isSecretName(h.name) {
                value = secret(h.name, "the header \(h.name)")
            } else if let problem = ImportText.headerProblem(name: h.name, value: h.value) {
                appendWarning("\(e.method) \(e.url): \(problem); it is not imported")
                continue
            }
            let entry = YAMLOut.Entry.pair(h.name, .string(value))
            if let i = seen[lower] { t.headers[i] = entry } else {
                seen[lower] = t.headers.count
                t.headers.append(entry)
            }
        }
    }

    /// `Bearer …` → `auth: { bearer: ${SERVICE_TOKEN} }`, `Basic …` → `${SERVICE_USER}` and
    /// `${SERVICE_PASSWORD}`; false for another scheme (the header is then a variable).
    private mutating func authorization(_ value: String, _ t: inout TargetDraft) -> Bool {
        let scheme = value.prefix { $0 != " " }.lowercased()
        if scheme == "bearer" {
            t.auth = .map([.pair("bearer", .string(secret("token", "the bearer token of the Authorization header")))])
        } else if scheme == "basic" {
            t.auth = .map([.pair("basic", .map([.pair("user", .string(secret("user", "the user of the Authorization header", secretName: false))),
                                                 .pair("password", .string(secret("password", "the password of the Authorization header")))]))])
        } else {
            return false
        }
        return true
    }

    /// `${SERVICE_NAME}` for a credential, noted for the warnings.
    private mutating func secret(_ name: String, _ what: String, secretName: Bool = true) -> String {
        secrets.reference(name, what, secretName: secretName)
    }

    /// `postData`: JSON → `json:` (secret-looking fields as `${VAR}`), form data → `body:` as
    /// recorded (secret-looking fields as `${VAR}`), anything else → `body:` as recorded.
    mutating func body(_ e: HarEntry, _ t: inout TargetDraft) {
        guard let text = e.postText else { return }
        let header = e.requestHeaders.last { $0.name.lowercased() == "content-type" }?.value
        let type = (header ?? e.postType ?? "").lowercased()
        if type.contains("json"), let json = CurlMapper.json(text) {
            t.task.append(.pair("json", redacted(json)))
            if header == nil, let postType = e.postType, postType.lowercased() != "application/json" {
                t.task.append(.pair("contentType", .string(ImportText.literal(postType))))
            }
            return
        }
        if type.hasPrefix("application/x-www-form-urlencoded") {
            var w: [String] = []
            if case .pair(_, .string(let form)) = CurlURL.queryEntry(text, variable: { [secrets] in
                Credentials.isSecretName($0) ? secrets.variable($0) : nil
            }, asText: true, warnings: &w) {
                t.task.append(.pair("body", .string(form)))
                for item in text.split(separator: "&") {
                    let name = String(item.prefix { $0 != "=" })
                    if Credentials.isSecretName(name) { _ = secrets.reference(name, "the form field \(name)") }
                }
            }
        } else {
            t.task.append(.pair("body", .string(ImportText.literal(text))))
        }
        if header == nil, let postType = e.postType, !postType.isEmpty {
            t.task.append(.pair("contentType", .string(ImportText.literal(postType))))
        }
    }

    /// Every string escaped as literal text, and the value of a secret-looking member as `${VAR}`
    /// in a request body, as `redacted` in a sample (a login's `access_token`).
    private mutating func redacted(_ v: YAMLOut, sample: Bool = false) -> YAMLOut {
        switch v {
        case .string(let s): return .string(ImportText.literal(s))
        case .list(let items): return .list(items.map { redacted($0, sample: sample) })
        case .map(let entries), .blockMap(let entries):
            return .map(entries.map { entry in
                guard case .pair(let k, let x) = entry else { return entry }
                guard Credentials.isSecretName(k), x.scalarText != nil, x != .null else { return .pair(k, redacted(x, sample: sample)) }
                guard sample else { return .pair(k, .string(secret(k, "the JSON field \(k)"))) }
                appendWarning("the response field \(k) in a sample of \(service) is written as \"redacted\", not as recorded")
                return .pair(k, .string("redacted"))
            })
        default: return v
        }
    }

    /// The response: status, Content-Type and the body (JSON → `json:`, text → `body:`; binary
    /// and very large bodies are left out with a comment). No other response header is written.
    mutating func sample(_ e: HarEntry, expectFailure: Bool, notes: inout [String]) -> YAMLOut {
        var s: [YAMLOut.Entry] = []
        if e.status != 200, (100...599).contains(e.status) { s.append(.pair("status", .number(String(e.status)))) }
        let type = e.responseHeaders.last { $0.name.lowercased() == "content-type" }?.value ?? e.mimeType
        if let body = e.body, !body.isEmpty, e.method != "HEAD" {
            if body.count > Self.largestSample {
                notes.append("the recorded \(e.status) response body (\(body.count) bytes) is larger than \(Self.largestSample) bytes: not imported")
            } else if let text = String(validating: body, as: UTF8.self) {
                let json = type.lowercased().contains("json") ? CurlMapper.json(text) : nil
                if !type.isEmpty, json == nil || type.lowercased() != "application/json",
                   ImportText.headerProblem(name: "Content-Type", value: type) == nil {
                    s.append(.pair("headers", .map([.pair("Content-Type", .string(ImportText.literal(type)))])))
                }
                if let json { s.append(.pair("json", redacted(json, sample: true))) } else { s.append(.pair("body", .string(ImportText.literal(text)))) }
            } else {
                notes.append("the recorded \(e.status) response body (\(body.count) bytes of \(type.isEmpty ? "binary data" : type)) is not text: not imported")
            }
        }
        if expectFailure { s.append(.pair("expectFailure", .bool(true))) }
        return .map(s)
    }
}
