import APISupport
import APIDiagnostics
import APITransport
/// Walks a Postman collection's items: folders (any depth) and requests, with the auth each
/// inherits. Requests are mapped in `PostmanRequest.swift`, auth and responses in `PostmanParts.swift`.
struct PostmanMapper {
    let root: SpecNode
    let service: String
    let prefix: String
    var variables: CollectionVariables
    var requests: [CollectionRequest] = []
    var warnings: [ImportWarning] = []
    /// Folders' descriptions, with the folders' names from the top (for the service's `doc:`).
    var folderDocs: [(path: [String], text: String)] = []
    /// The collection's `auth`: the service files' `auth:`.
    var serviceAuth = CollectionAuth.Mapped()
    private var collectionAuth: SpecNode?
    private var warned: Set<String> = []
    /// Folders nested deeper than this are read as their parent (a hostile file cannot recurse without end).
    static let maxDepth = 64

    init(root: SpecNode, service: String) {
        self.root = root
        self.service = service
        self.prefix = ImportNames.variable(service)
        var values: [String: String] = [:]
        for (key, value, _) in CollectionInput.enabled(root["variable"]) { values[key] = value }
        self.variables = CollectionVariables(syntax: .postman, values: values)
        self.variables.prefix = prefix
        self.collectionAuth = root["auth"]
        if let auth = root["auth"], !Self.inherits(auth) {
            var m = CollectionAuth.map(authKind(auth, at: "$.auth"), prefix: prefix, variables: &variables)
            if case .string("none") = m.auth { m.auth = nil }
            for w in m.warnings { warn(auth, "$.auth", w) }
            serviceAuth = m
        }
        scripts(root["event"], at: "$.event", owner: "the collection")
    }

    mutating func warn(_ node: SpecNode, _ path: String, _ message: String) {
        let w = ImportWarning(file: node.file, mark: node.mark, message: "\(path): \(message)")
        if warned.insert(w.description).inserted { warnings.append(w) }
    }

    /// `item` lists: a folder has `item`, a request `request`.
    mutating func walk(_ items: SpecNode, at path: String, folders: [String], auth: SpecNode?) throws(APIError) {
        guard items.node.items != nil else {
            throw CollectionInput.bad(items, path, "'item' is a list of folders and requests, not \(items.node.kindName)")
        }
        for (i, item) in items.items.enumerated() {
            let here = "\(path)[\(i)]"
            guard item.isMapping else {
                throw CollectionInput.bad(item, here, "an item is an object with 'request' or 'item', not \(item.node.kindName)")
            }
            let name = item["name"]?.text ?? ""
            if let children = item["item"] {
                scripts(item["event"], at: "\(here).event", owner: "folder '\(name)'")
                let inherited = Self.inherits(item["auth"]) ? auth : item["auth"]
                if let text = CollectionInput.description(item["description"]) { folderDocs.append((folders + [name], text)) }
                if folders.count >= Self.maxDepth {
                    warn(item, here, "folders nested deeper than \(Self.maxDepth): its requests are named as their parent's")
                    try walk(children, at: "\(here).item", folders: folders, auth: inherited)
                } else {
                    try walk(children, at: "\(here).item", folders: folders + [name], auth: inherited)
                }
            } else if let request = item["request"] {
                guard var r = self.request(request, at: "\(here).request", name: name, folders: folders, inherited: auth) else { continue }
                r.description = CollectionInput.description(request["description"]) ?? CollectionInput.description(item["description"])
                responses(item["response"], at: "\(here).response", into: &r)
                r.expectStatus = scripts(item["event"], at: "\(here).event", owner: "request '\(name)'", request: &r)
                for w in variables.takeWarnings() { warn(request, "\(here).request", w) }
                requests.append(r)
            } else {
                warn(item, here, "item '\(name)' has neither 'request' nor 'item'; it is not imported")
            }
        }
    }

    /// One warning per script (scripts are not run); the status a test asserts, when it asserts one.
    @discardableResult
    mutating func scripts(_ events: SpecNode?, at path: String, owner: String) -> Int? {
        var none = CollectionRequest(name: "", origin: "")
        return scripts(events, at: path, owner: owner, request: &none)
    }

    mutating func scripts(_ events: SpecNode?, at path: String, owner: String, request: inout CollectionRequest) -> Int? {
        var status: Int?
        for (i, event) in (events?.items ?? []).enumerated() {
            let lines = event["script"]?["exec"].map { $0.items.compactMap(\.text) + ($0.text.map { [$0] } ?? []) } ?? []
            let code = lines.joined(separator: "\n")
            guard !code.trimmingWhitespace().isEmpty else { continue }
            let kind = event["listen"]?.text == "prerequest" ? "pre-request script" : "test script"
            if kind == "test script", let s = Self.assertedStatus(code) {
                status = s
                warn(event, "\(path)[\(i)]", "the \(kind) of \(owner) is not run; its status check became expect: { status: \(s) }")
            } else {
                warn(event, "\(path)[\(i)]", "the \(kind) of \(owner) is not run (apicli runs no JavaScript)")
            }
            request.notes.append("The \(kind) was not imported (apicli runs no JavaScript)\(status == nil ? "" : "; its status check is expect:").")
        }
        return status
    }

    /// `pm.response.to.have.status(201)` → 201.
    static func assertedStatus(_ code: String) -> Int? {
        guard let r = code.firstRange(of: "pm.response.to.have.status(") else { return nil }
        let digits = code[r.upperBound...].prefix { $0.isNumber }
        guard let n = Int(digits), (100...599).contains(n), code[r.upperBound...].dropFirst(digits.count).hasPrefix(")") else { return nil }
        return n
    }
}
