import APISupport
import APIYAML
import APIDiagnostics
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `CurlRequest` → a service draft with one target.
struct CurlMapper {
    let request: CurlRequest
    var warnings: [String] = []

    init(request: CurlRequest) {
        self.request = request
    }

    mutating func draft(service: String?, name: String?) throws(APIError) -> ServiceDraft {
        let url = try CurlURL(request.url ?? "")
        if let m = request.method, !TargetFile.isToken(m) {
            // curl sends any word as the method; a target holds only RFC 9110 tokens (what servers accept).
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "-X '\(m)' is not an HTTP method token",
                                      hint: "use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~)"))
        }
        var t = TargetDraft(name: "")
        t.method = method()
        t.path = url.path
        if let name = request.uploadName { t.path = Self.appendingFileName(t.path, name) }
        var headers = request.headers
        var query = url.query
        if !request.urlQuery.isEmpty {
            let extra = try joined(request.urlQuery)
            query = query.map { $0.isEmpty ? extra : $0 + "&" + extra } ?? extra
        }
        if request.get, !request.data.isEmpty {
            let data = try dataText()
            query = query.map { $0.isEmpty ? data : $0 + "&" + data } ?? data
        }
        try body(&t, headers: &headers)
        authorization(&t, headers: &headers)
        if let query { t.task.insert(queryEntry(query), at: 0) }
        if !request.globoff, Self.hasGlob(request.url ?? "") {
            warnings.append("curl expands {a,b} and [1-3] in a URL into several requests (unless -g); the target sends the URL as written")
        }
        t.headers = headerEntries(headers)
        t.timeout = request.maxTime.flatMap(YAMLScalar.number)
        auth(&t, url: url)
        let route = ShellWords.replacingVariables(url.path.removingPercentEscapes() ?? url.path) { "{\($0)}" }
        t.name = name ?? ImportNames.fromRoute(t.method, route)
        var draft = ServiceDraft(service: service ?? url.serviceName, baseURL: url.base)
        draft.header = ["Imported by apicli import curl."]
        draft.tls = tls()
        draft.targets = [t]
        return draft
    }

    private func method() -> String {
        if let m = request.method { return m }
        if request.head { return "HEAD" }
        if request.uploadFile != nil { return "PUT" }
        if !request.form.isEmpty || (!request.data.isEmpty && !request.get) { return "POST" }
        return "GET"
    }

    private func tls() -> YAMLOut? {
        var e: [YAMLOut.Entry] = []
        if let ca = request.cacert { e.append(.pair("cacert", .string(ca))) }
        if request.insecure { e.append(.pair("verify", .bool(false))) }
        return e.isEmpty ? nil : .map(e)
    }

    private mutating func auth(_ t: inout TargetDraft, url: CurlURL) {
        let user = request.user ?? url.user
        if let user {
            let (name, password) = user.firstIndex(of: ":").map { (String(user[..<$0]), String(user[user.index(after: $0)...])) }
                ?? (user, "")
            if request.digest {
                t.auth = .map([.pair("digest", .map([.pair("username", .string(ImportText.literal(name))),
                                                      .pair("password", .string(ImportText.literal(password)))]))])
            } else {
                t.auth = .map([.pair("basic", .map([.pair("user", .string(ImportText.literal(name))),
                                                     .pair("password", .string(ImportText.literal(password)))]))])
            }
        } else if let token = request.bearer {
            t.auth = .map([.pair("bearer", .string(ImportText.literal(token)))])
        }
    }

    /// An `Authorization: Basic …` or `Bearer …` header becomes `auth:` (as apicli's own `auth:` prints it).
    private func authorization(_ t: inout TargetDraft, headers: inout [(name: String, value: String)]) {
        guard request.user == nil, request.bearer == nil,
              let i = headers.lastIndex(where: { $0.name.lowercased() == "authorization" }) else { return }
        let value = headers[i].value
        if value.hasPrefix("Bearer "), !value.dropFirst(7).contains(" ") {
            t.auth = .map([.pair("bearer", .string(ImportText.literal(String(value.dropFirst(7)))))])
        } else if value.hasPrefix("Basic "), let data = Data(base64Encoded: String(value.dropFirst(6))),
                  let pair = String(validating: [UInt8](data), as: UTF8.self), let colon = pair.firstIndex(of: ":") {
            t.auth = .map([.pair("basic", .map([.pair("user", .string(ImportText.literal(String(pair[..<colon])))),
                                                 .pair("password", .string(ImportText.literal(String(pair[pair.index(after: colon)...]))))]))])
        } else {
            return
        }
        headers.removeAll { $0.name.lowercased() == "authorization" }
    }

    private mutating func queryEntry(_ raw: String) -> YAMLOut.Entry {
        CurlURL.queryEntry(raw, warnings: &warnings)
    }

    /// `-T file` to a URL whose path has no file name (empty or ending in `/`): curl appends the
    /// file's name (its last path component), percent-encoded.
    static func appendingFileName(_ path: String, _ upload: String) -> String {
        guard path.isEmpty || path.hasSuffix("/") else { return path }
        let name = upload.split(separator: "/").last.map(String.init) ?? upload
        return (path.isEmpty ? "/" : path) + CurlParser.formEncoded(Array(name.utf8)).replacing("+", with: "%20")
    }

    /// A `{…}` or a `[…]` that is not empty: curl's URL globbing.
    static func hasGlob(_ url: String) -> Bool {
        if url.contains("{") { return true }
        guard let open = url.firstIndex(of: "[") else { return false }
        let rest = url[url.index(after: open)...]
        return !rest.hasPrefix("]") && rest.contains("]")
    }

    private mutating func headerEntries(_ headers: [(name: String, value: String)]) -> [YAMLOut.Entry] {
        var out: [YAMLOut.Entry] = []
        var seen: [String: Int] = [:]
        for (name, value) in headers {
            if ["content-length", "host"].contains(name.lowercased()) {
                warnings.append("header \(name) is not imported; apicli sets it")
                continue
            }
            // apicli's own default (`--curl` prints it): the target would pin a version.
            if name.equalsIgnoringCase("User-Agent"), value.hasPrefix("apicli/") {
                warnings.append("header \(name): \(value) is not imported; apicli sends its own")
                continue
            }
            let entry = YAMLOut.Entry.pair(name, .string(literal(value)))
            if let i = seen[name.lowercased()] {
                warnings.append("header \(name) is given twice; the last value is kept")
                out[i] = entry
            } else {
                seen[name.lowercased()] = out.count
                out.append(entry)
            }
        }
        return out
    }

    /// A value that goes through template expansion, written so that it expands to itself.
    func literal(_ s: String) -> String { ImportText.literal(s) }
}
