import APIYAML
import APITransport
/// One operation → one target: name from `operationId` (else method and path), `doc:` from the
/// summary, then parameters, body, security and responses. Methods that change data get
/// `check: false`, so `apicli check` never creates data by accident.
extension OpenAPIMapper {
    func target(method: String, path: String, naming: String, op: SpecNode, item: SpecNode,
                taken: inout UniqueNames, fallbackName: String? = nil) -> TargetDraft {
        let base = op["operationId"]?.text.flatMap(ImportNames.lowerCamel) ?? fallbackName ?? ImportNames.fromRoute(method, naming)
        var t = TargetDraft(name: taken.claim(base))
        t.method = method
        if let summary = (op["summary"] ?? op["description"])?.text.map(ImportText.oneLine), !summary.isEmpty {
            t.doc = summary
        }
        if op["deprecated"]?.bool == true { t.notes.append("Deprecated in the description.") }
        t.path = apply(parameters(op, item: item), path: path, item: op, to: &t)
        applyBody(op, to: &t)
        let auth = operationAuth(op)
        t.auth = auth.auth
        t.notes += auth.notes
        if let key = auth.query { Self.addQuery(key, to: &t) }
        if !["GET", "HEAD", "OPTIONS"].contains(method) { t.check = false }
        applyResponses(op, method: method, to: &t)
        if let node = op["callbacks"] { warn(node, "callbacks of operation '\(t.name)' are not imported") }
        if let node = op["servers"] { serversIgnored(node, of: "operation '\(t.name)'") }
        if t.method == "GET" || t.method == "HEAD", t.task.contains(where: Self.isMultipart) {
            warn(op, "\(method) \(path) declares a multipart body, which apicli sends only with POST, PUT or PATCH")
            t.task.removeAll(where: Self.isMultipart)
        }
        return t
    }

    /// Adds a pair to `task: query`, making the query when there is none.
    static func addQuery(_ entry: YAMLOut.Entry, to t: inout TargetDraft) {
        if let i = t.task.firstIndex(where: { if case .pair("query", _) = $0 { return true } else { return false } }),
           case .pair(_, let query) = t.task[i], let entries = query.entries {
            t.task[i] = .pair("query", .map(entries + [entry]))
        } else {
            t.task.insert(.pair("query", .map([entry])), at: 0)
        }
    }

    private static func isMultipart(_ e: YAMLOut.Entry) -> Bool {
        if case .pair("multipart", _) = e { return true }
        return false
    }
}
