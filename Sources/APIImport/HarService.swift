import APISupport
import APIYAML
import APITargets
import APITransport
import APISecrets
/// The HAR entries of one origin → a service draft: one target per method and path (ids as
/// `{id}`), the first request's query, headers and body, its response as `sample:` and the
/// responses of later requests to the same target with another status as `samples:`.
struct HarService {
    var draft: ServiceDraft
    let service: String
    private var byRoute: [String: Int] = [:]
    private var names = UniqueNames()
    /// Credentials written as variables (one warning each).
    var secrets: ImportSecrets
    private(set) var warnings: [String] = []
    private var repeated = 0
    private var setCookies = 0

    /// Later responses of one target kept as `samples:`, at most.
    static let extraSamples = 3

    init(service: String, baseURL: String) {
        self.service = service
        draft = ServiceDraft(service: service, baseURL: baseURL)
        secrets = ImportSecrets(service: service, source: HarImport.source)
        draft.header = ["Imported by apicli import har."]
    }

    mutating func add(_ e: HarEntry, url: CurlURL) {
        if e.responseHeaders.contains(where: { $0.name.lowercased() == "set-cookie" }) { setCookies += 1 }
        let (path, params, route) = Self.template(url.path)
        let key = e.method + " " + route
        if let i = byRoute[key] {
            addSample(e, to: i)
            return
        }
        var t = TargetDraft(name: names.claim(ImportNames.fromRoute(e.method, route)))
        t.method = e.method
        t.path = path
        t.params = params
        if let q = url.query {
            t.task.append(CurlURL.queryEntry(q, variable: { [secrets] in
                Credentials.isSecretName($0) ? secrets.variable($0) : nil
            }, warnings: &warnings))
            for item in q.split(separator: "&") {
                let name = String(item.prefix { $0 != "=" })
                if Credentials.isSecretName(name) { _ = secrets.reference(name, "the query parameter \(name)") }
            }
        }
        headers(e, &t)
        body(e, &t)
        if let what = e.missingBody {
            let at = e.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? e.url  // the query may hold a credential
            appendWarning("entry \(e.index) (\(e.method) \(at)): the request had \(what) the recording does not hold; target \(t.name) is sent without one (add task: { body: … } or record again with bodies)")
            t.notes.append("The recorded request had \(what) the recording does not hold: add it (task: { body: … }).")
        }
        if !["GET", "HEAD", "OPTIONS"].contains(e.method) { t.check = false }
        if (100...599).contains(e.status) { t.expect = [.pair("status", .number(String(e.status)))] }
        // A recorded redirect is what the server answered, not where the client went next.
        if (300...399).contains(e.status) { t.followRedirects = false }
        var sampleNotes: [String] = []
        t.sample = sample(e, expectFailure: false, notes: &sampleNotes)
        t.notes += sampleNotes
        byRoute[key] = draft.targets.count
        draft.targets.append(t)
    }

    /// Warnings about the whole service, once each.
    mutating func finish() -> [String] {
        var out = warnings + secrets.warnings
        if setCookies > 0 { out.append("Set-Cookie headers of \(setCookies) response(s) are not written into the samples of \(service)") }
        if repeated > 0 {
            out.append("\(repeated) request(s) to \(service) repeat a method and path already imported; responses with another status became samples")
        }
        return out
    }

    mutating func appendWarning(_ text: String) {
        if !warnings.contains(text) { warnings.append(text) }
    }

    private mutating func addSample(_ e: HarEntry, to i: Int) {
        var t = draft.targets[i]
        let statuses = [t.expect.first.flatMap { if case .pair(_, .number(let n)) = $0 { return Int(n) } else { return nil } }]
            + t.samples.map { entry -> Int? in
                guard case .pair(let name, _) = entry else { return nil }
                return Int(name.dropFirst(6))
            }
        guard !statuses.contains(e.status), t.samples.count < Self.extraSamples else {
            repeated += 1
            return
        }
        var notes: [String] = []
        let s = sample(e, expectFailure: !t.expect.isEmpty, notes: &notes)
        t.samples.append(.pair("status\(e.status)", s))
        t.notes += notes
        draft.targets[i] = t
    }

    /// `/users/42/orders/9f1c…` → path `/users/{id}/orders/{id2}`, params `{ id: "42", id2: … }`,
    /// and the same route for naming and de-duplication. Other segments are literal text.
    static func template(_ encodedPath: String) -> (path: String, params: [YAMLOut.Entry], route: String) {
        var path: [String] = []
        var route: [String] = []
        var params: [YAMLOut.Entry] = []
        for segment in encodedPath.split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = segment.removingPercentEscapes() ?? String(segment)
            if isID(decoded) {
                let name = params.isEmpty ? "id" : "id\(params.count + 1)"
                params.append(.pair(name, .string(ImportText.literal(decoded))))
                path.append("{\(name)}")
                route.append("{\(name)}")
            } else {
                path.append(ImportText.literal(String(segment)))
                route.append(decoded)
            }
        }
        return (path.joined(separator: "/"), params, route.joined(separator: "/"))
    }

    /// Digits (`42`), a UUID, a long hex string (`5f1d7c…`, 16 or more) or a long token mixing
    /// letters and digits (20 or more of `A–Z a–z 0–9 - _`).
    static func isID(_ s: String) -> Bool {
        guard !s.isEmpty, s.utf8.count <= 200 else { return false }
        let b = Array(s.utf8)
        let digit = { (c: UInt8) in (48...57).contains(c) }
        let hex = { (c: UInt8) in digit(c) || (97...102).contains(c | 0x20) }
        if b.allSatisfy(digit) { return true }
        if b.count == 36, b.enumerated().allSatisfy({ [8, 13, 18, 23].contains($0.offset) ? $0.element == 45 : hex($0.element) }) {
            return true
        }
        if b.count >= 16, b.allSatisfy(hex), b.contains(where: digit) { return true }
        let token = b.allSatisfy { ImportNames.isAlphanumeric($0) || $0 == 45 || $0 == 95 }
        return token && b.count >= 20 && b.contains(where: digit) && b.contains(where: ImportNames.isLetter)
    }
}
