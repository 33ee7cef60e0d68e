import APIYAML
import APITargets
import APITransport
/// A target as an import writes it: the keys of a target file, in the order a person writes them.
package struct TargetDraft: Sendable, Equatable {
    package var name: String
    package var doc: String?
    /// Comment lines written above the target's keys.
    package var notes: [String] = []
    package var method = "GET"
    package var path = ""
    package var params: [YAMLOut.Entry] = []
    package var headers: [YAMLOut.Entry] = []
    package var task: [YAMLOut.Entry] = []
    package var auth: YAMLOut?
    package var timeout: String?
    package var check: Bool?
    /// `followRedirects: false` (a recorded 3xx kept as it was answered, a `.http` file's
    /// `# @no-redirect`, a Bruno request's settings).
    package var followRedirects: Bool?
    package var expect: [YAMLOut.Entry] = []
    package var sample: YAMLOut?
    package var samples: [YAMLOut.Entry] = []
    /// The description's operation (its operationId, else `METHOD /path`) and where it is, for
    /// `expect: { schema: { openapi:, operation: } }` (see `ImportContracts`); not written itself.
    package var operation: Operation?
    /// Why a sample of the target could not be checked by its status's schema once written: a
    /// sample built from the schema that breaks it (written without its body), an example of the
    /// description that breaks it (written as given), no body to judge (judged when each was
    /// chosen: `SampleJudge`); such a target gets no `expect: schema:` reference. Not written itself.
    package var brokenSample: String?
    /// `import openapi`'s `x-import:` (the operation and a hash per key as written: `ImportMarks`),
    /// written last.
    package var marker: YAMLOut?

    package struct Operation: Sendable, Equatable {
        package var name: String
        package var file: String
        package var mark: Mark
    }

    package init(name: String) {
        self.name = name
    }

    /// The target's mapping; empty parts are left out, and `method: GET` too.
    package var yaml: YAMLOut {
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
        if let followRedirects { e.append(.pair("followRedirects", .bool(followRedirects))) }
        Self.add("expect", expect, to: &e)
        if let sample { e.append(.pair("sample", sample)) }
        Self.add("samples", samples, to: &e)
        if let marker { e.append(.pair(ImportMarks.key, marker)) }
        return .blockMap(e)
    }

    static func add(_ key: String, _ entries: [YAMLOut.Entry], to e: inout [YAMLOut.Entry]) {
        if !entries.isEmpty { e.append(.pair(key, .map(entries))) }
    }
}

/// A whole service file as an import writes it.
package struct ServiceDraft: Sendable, Equatable {
    package var service: String
    package var baseURL: String
    package var doc: String?
    /// Comment lines at the top of the file.
    package var header: [String] = []
    package var auth: YAMLOut?
    /// Comment lines written just above `auth:` (or where it would stand).
    package var authNotes: [String] = []
    package var environments: [YAMLOut.Entry] = []
    /// `tls:` (`cacert`, `verify`).
    package var tls: YAMLOut?
    package var targets: [TargetDraft] = []
    /// `import openapi`'s `x-import:` for the file's own keys (`ImportMarks`), written above `targets:`.
    package var marker: YAMLOut?

    package init(service: String, baseURL: String) {
        self.service = service
        self.baseURL = baseURL
    }

    package var yaml: YAMLOut {
        var e: [YAMLOut.Entry] = [.pair("service", .string(service)), .pair("baseURL", .string(baseURL))]
        if let doc { e.append(.pair("doc", .string(doc))) }
        if let tls { e.append(.pair("tls", tls)) }
        e += authNotes.map { .comment($0) }
        if let auth { e.append(.pair("auth", auth)) }
        TargetDraft.add("environments", environments, to: &e)
        if let marker { e.append(.pair(ImportMarks.key, marker)) }
        var list: [YAMLOut.Entry] = []
        for t in targets {
            if !list.isEmpty { list.append(.blank) }
            list.append(.pair(t.name, t.yaml))
        }
        e.append(.pair("targets", .blockMap(list)))
        return .map(e)
    }

    /// The file's text: the same draft always gives the same bytes. Its first line is the modeline
    /// naming the schema editors check it with (the one place every importer and `call --save` write it).
    package var text: String { EditorSchema.targets.modeline + "\n" + YAMLWriter.document(yaml, header: header) }
}
