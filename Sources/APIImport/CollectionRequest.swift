import APIYAML
import APITargets
import APITransport
/// One request of a Postman collection or an Insomnia export, already in target-file text
/// (variables as `${NAME}`, the rest literal): what both importers hand to `CollectionDrafts`.
struct CollectionRequest {
    /// Folder names from the top, then the request's own name, as the input writes them.
    var folders: [String] = []
    var name: String
    /// The request's own description (Postman `description`, Insomnia `description`): the
    /// target's `doc:` after its folders and name.
    var description: String?
    /// The name was made from the method and route (the input gives none): not a `doc:`.
    var nameFromRoute = false
    var method = "GET"
    /// `https://api.example.com`, `${BASE_URL}`: the service file's `baseURL`.
    var origin: String
    /// The origin as the input writes it (`{{ _.base_url }}`), for environments.
    var rawOrigin: String?
    var path = ""
    var params: [YAMLOut.Entry] = []
    var query: [YAMLOut.Entry] = []
    var repeatedQuery = false
    var headers: [YAMLOut.Entry] = []
    /// The body's `task:` entries (`json:`, `body:` + `contentType:`, `form:`, `multipart:`, `graphql:`).
    var body: [YAMLOut.Entry] = []
    /// nil: the service's; `.string("none")`: none.
    var auth: YAMLOut?
    /// The status a test script asserts (`pm.response.to.have.status(201)`).
    var expectStatus: Int?
    /// More of `expect:` (a Bruno request's asserts).
    var expect: [YAMLOut.Entry] = []
    var timeout: String?
    var followRedirects: Bool?
    var samples: [(name: String, status: Int, value: YAMLOut)] = []
    var notes: [String] = []

    init(name: String, origin: String) {
        self.name = name
        self.origin = origin
    }

    /// The target: `folder-request` in lowerCamelCase parts, unique within `taken`.
    func target(taken: inout UniqueNames) -> TargetDraft {
        let parts = (folders + [name]).compactMap(ImportNames.lowerCamel)
        let base = parts.isEmpty ? ImportNames.fromRoute(method, path) : parts.joined(separator: "-")
        var t = TargetDraft(name: taken.claim(base))
        let about = description.map(ImportText.oneLine).flatMap { $0.isEmpty ? nil : $0 }
        let place = ImportText.oneLine((folders + (nameFromRoute ? [] : [name])).joined(separator: " / "))
        t.doc = [place, about ?? ""].filter { !$0.isEmpty }.joined(separator: ": ")
        if t.doc?.isEmpty == true { t.doc = nil }
        t.notes = notes
        t.method = method
        t.path = path
        t.params = params
        t.headers = headers
        if !query.isEmpty { t.task.append(.pair("query", .map(query))) }
        if repeatedQuery { t.task.append(.pair("arrays", .string("noBrackets"))) }
        t.task += body
        t.auth = auth
        if !["GET", "HEAD", "OPTIONS"].contains(method) { t.check = false }
        if let expectStatus { t.expect = [.pair("status", .number(String(expectStatus)))] }
        t.expect += expect
        t.timeout = timeout
        t.followRedirects = followRedirects
        var names = UniqueNames()
        for (i, s) in samples.enumerated() {
            var value = s.value
            if let expectStatus, s.status != expectStatus, case .map(var e) = value {
                e.append(.pair("expectFailure", .bool(true)))
                value = .map(e)
            }
            if i == 0 {
                t.sample = value
                _ = names.claim("sample")
            } else {
                t.samples.append(.pair(names.claim(ImportNames.lowerCamel(s.name) ?? String(s.status)), value))
            }
        }
        return t
    }
}

/// Requests → service files: one per origin (`baseURL`), the first named `service`, the others
/// `service-host`. Targets keep the input's order.
enum CollectionDrafts {
    static func services(_ requests: [CollectionRequest], service: String, header: [String],
                         auth: YAMLOut?, notes: [String], doc: String? = nil,
                         environments: [String: [YAMLOut.Entry]] = [:]) -> [ServiceDraft] {
        // The origin most requests use gets the plain name (the first of equals).
        let groups = ImportOrigins.group(requests, by: \.origin).enumerated()
            .sorted { ($0.element.items.count, -$0.offset) > ($1.element.items.count, -$1.offset) }.map(\.element)
        var drafts: [ServiceDraft] = []
        var names = UniqueNames()
        for (i, (origin, members)) in groups.enumerated() {
            let suffix = i == 0 ? nil : ImportNames.service(hostWords(origin)) ?? String(i + 1)
            let name = names.claim(suffix.map { "\(service)-\($0)" } ?? service)
            var draft = ServiceDraft(service: name, baseURL: origin)
            draft.header = header + notes
            draft.doc = doc
            draft.auth = auth
            draft.environments = environments[origin] ?? []
            var taken = UniqueNames()
            draft.targets = members.map { $0.target(taken: &taken) }
            drafts.append(draft)
        }
        return drafts
    }

    /// `environments:` for each origin: each environment (name and values) that makes the origin
    /// as the input writes it (`{{base_url}}`) a whole literal URL gives `name: { baseURL: URL }`.
    static func environments(_ requests: [CollectionRequest], _ environments: [(name: String, values: [String: String])],
                             syntax: CollectionVariables.Syntax) -> [String: [YAMLOut.Entry]] {
        var out: [String: [YAMLOut.Entry]] = [:]
        for r in requests where out[r.origin] == nil {
            var entries: [YAMLOut.Entry] = []
            var names = UniqueNames()
            for env in environments {
                let v = CollectionVariables(syntax: syntax, values: env.values)
                guard let raw = r.rawOrigin, v.hasVariable(raw), let url = v.resolved(raw), url.hasPrefix("http") else { continue }
                let name = names.claim(ImportNames.service(env.name) ?? "env")
                entries.append(.pair(name, .map([.pair("baseURL", .string(Template.escaping(url)))])))
            }
            out[r.origin] = entries
        }
        return out
    }

    /// A service's `doc:`: the collection's description, then each folder's (`Folder: text`),
    /// one line; nil when there is none.
    static func doc(_ description: String?, folders: [(path: [String], text: String)]) -> String? {
        var parts: [String] = []
        if let d = description.map(ImportText.oneLine), !d.isEmpty { parts.append(d) }
        for f in folders {
            let text = ImportText.oneLine(f.text)
            if !text.isEmpty { parts.append(ImportText.oneLine(f.path.joined(separator: " / ")) + ": " + text) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `https://api.example.com:8443` → `api example com 8443`; `${BASE_URL}` → `base url`.
    private static func hostWords(_ origin: String) -> String {
        let host = origin.firstRange(of: "://").map { String(origin[$0.upperBound...]) } ?? origin
        return host.replacing("${", with: "").split(separator: ":-").first.map(String.init) ?? host
    }
}
