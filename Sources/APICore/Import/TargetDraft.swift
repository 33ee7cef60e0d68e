/// A target as an import writes it: the keys of a target file, in the order a person writes them.
public struct TargetDraft: Sendable, Equatable {
    public var name: String
    public var doc: String?
    /// Comment lines written above the target's keys.
    public var notes: [String] = []
    public var method = "GET"
    public var path = ""
    public var params: [YAMLOut.Entry] = []
    public var headers: [YAMLOut.Entry] = []
    public var task: [YAMLOut.Entry] = []
    public var auth: YAMLOut?
    public var timeout: String?
    public var check: Bool?
    public var expect: [YAMLOut.Entry] = []
    public var sample: YAMLOut?
    public var samples: [YAMLOut.Entry] = []
    /// The description's operation (its operationId, else `METHOD /path`) and where it is, for
    /// `expect: { schema: { openapi:, operation: } }` (see `ImportContracts`); not written itself.
    public var operation: Operation?

    public struct Operation: Sendable, Equatable {
        public var name: String
        public var file: String
        public var mark: Mark
    }

    public init(name: String) {
        self.name = name
    }

    /// The target's mapping; empty parts are left out, and `method: GET` too.
    public var yaml: YAMLOut {
        var e: [YAMLOut.Entry] = notes.map { .comment($0) }
        if let doc { e.append(.pair("doc", .string(doc))) }
        if method != "GET" { e.append(.pair("method", .string(method))) }
        e.append(.pair("path", .string(path)))
        Self.add("params", params, to: &e)
        Self.add("headers", headers, to: &e)
        Self.add("task", task, to: &e)
        if let auth { e.append(.pair("auth", auth)) }
        if let timeout { e.append(.pair("timeout", .number(timeout))) }
        if let check { e.append(.pair("check", .bool(check))) }
        Self.add("expect", expect, to: &e)
        if let sample { e.append(.pair("sample", sample)) }
        Self.add("samples", samples, to: &e)
        return .blockMap(e)
    }

    static func add(_ key: String, _ entries: [YAMLOut.Entry], to e: inout [YAMLOut.Entry]) {
        if !entries.isEmpty { e.append(.pair(key, .map(entries))) }
    }
}

/// A whole service file as an import writes it.
public struct ServiceDraft: Sendable, Equatable {
    public var service: String
    public var baseURL: String
    public var doc: String?
    /// Comment lines at the top of the file.
    public var header: [String] = []
    public var auth: YAMLOut?
    /// Comment lines written just above `auth:` (or where it would stand).
    public var authNotes: [String] = []
    public var environments: [YAMLOut.Entry] = []
    /// `tls:` (`cacert`, `verify`).
    public var tls: YAMLOut?
    public var targets: [TargetDraft] = []

    public init(service: String, baseURL: String) {
        self.service = service
        self.baseURL = baseURL
    }

    public var yaml: YAMLOut {
        var e: [YAMLOut.Entry] = [.pair("service", .string(service)), .pair("baseURL", .string(baseURL))]
        if let doc { e.append(.pair("doc", .string(doc))) }
        if let tls { e.append(.pair("tls", tls)) }
        e += authNotes.map { .comment($0) }
        if let auth { e.append(.pair("auth", auth)) }
        TargetDraft.add("environments", environments, to: &e)
        var list: [YAMLOut.Entry] = []
        for t in targets {
            if !list.isEmpty { list.append(.blank) }
            list.append(.pair(t.name, t.yaml))
        }
        e.append(.pair("targets", .blockMap(list)))
        return .map(e)
    }

    /// The file's text: the same draft always gives the same bytes.
    public var text: String { YAMLWriter.document(yaml, header: header) }
}
