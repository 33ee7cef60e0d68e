import APIYAML
import APISchema
import APITargets
import APITransport
/// Request bodies → `task:`. JSON → `json:`, a form → `form:`, multipart → `multipart:` parts, text
/// and other types → `body:` with `contentType:`. Values are the spec's examples, else built
/// from the schema.
extension OpenAPIMapper {
    struct Example {
        var name: String?
        var value: YAMLOut
        /// The schema the value was built from (nil: the description states it).
        var schema: SpecNode? = nil
        /// Where the description states it (nil: built).
        var at: SpecNode? = nil
    }

    /// The examples a media type object states: `example`, else every entry of `examples`.
    func mediaExamples(_ media: SpecNode) -> [Example] {
        if let e = media["example"] { return [Example(name: nil, value: YAMLOut(e.node), at: e)] }
        var out: [Example] = []
        for (name, _, raw) in media["examples"]?.entries ?? [] {
            guard let e = loader.resolve(raw) else { continue }
            if let v = e["value"] ?? e["dataValue"] {  // 3.2: `dataValue`, the value before serialization
                out.append(Example(name: name, value: YAMLOut(v.node), at: v))
            } else if let node = e["serializedValue"], let v = node.text {  // 3.2: the bytes as sent, for a text body
                out.append(Example(name: name, value: .string(v), at: node))
            } else if e["externalValue"] != nil {
                warn(e, "example '\(name)' is an externalValue; it is not fetched")
            }
        }
        return out
    }

    /// The first stated example, else one built from the schema.
    /// `direction` says which of `readOnly`/`writeOnly` properties a built one leaves out.
    func mediaExample(_ media: SpecNode, direction: SchemaOptions.Direction = .any) -> Example? {
        if let first = mediaExamples(media).first { return first }
        sampler.direction = direction
        defer { sampler.direction = .any }
        if media["schema"] == nil, let item = media["itemSchema"] {  // 3.2: a stream (JSON Lines, events) of items
            warn(item, "the stream's itemSchema gives one item for the sample; expect: checks the Content-Type, not each item")
            return sampler.value(item).map { Example(name: nil, value: $0, schema: item) }
        }
        guard let schema = media["schema"] else { return nil }
        if let v = sampler.value(schema) { return Example(name: nil, value: v, schema: schema) }
        // `schema: {}` (FastAPI's for a route returning anything) accepts any JSON: an empty object
        guard let s = loader.resolve(schema), s.entries.allSatisfy({ Self.annotations.contains($0.key) || $0.key.hasPrefix("x-") }) else { return nil }
        return Example(name: nil, value: .map([]), schema: schema)
    }

    /// Schema keywords that assert nothing about a value.
    static let annotations: Set<String> = ["title", "description", "$comment", "deprecated", "readOnly", "writeOnly",
                                           "externalDocs", "xml", "nullable", "$schema", "$id"]

    static func isJSON(_ type: String) -> Bool {
        let t = type.lowercased()
        return t == "application/json" || t.hasSuffix("+json") || t == "*/*"
    }

    /// The media type a body is sent as: JSON first, then forms, then the first listed.
    func preferred(_ content: SpecNode) -> (type: String, media: SpecNode)? {
        // 3.2: a Media Type object may be a `$ref` (to `#/components/mediaTypes/…`)
        let all = content.entries.compactMap { e in loader.resolve(e.value).map { (e.key, $0) } }
        let order: [(String) -> Bool] = [
            Self.isJSON, { $0 == "application/x-www-form-urlencoded" }, { $0 == "multipart/form-data" }, { _ in true },
        ]
        for accept in order {
            if let hit = all.first(where: { accept($0.0.lowercased()) }) { return (hit.0, hit.1) }
        }
        return nil
    }

    func applyBody(_ op: SpecNode, to t: inout TargetDraft) {
        guard let raw = op["requestBody"], let body = loader.resolve(raw) else { return }
        guard let content = body["content"], let (type, media) = preferred(content) else {
            warn(body, "a request body without content: is not imported")
            return
        }
        let others = content.entries.map(\.key).filter { $0 != type }
        if !others.isEmpty { t.notes.append("The body may also be sent as \(others.joined(separator: ", ")).") }
        let example = mediaExample(media, direction: .request)
        if let built = example?.schema, Self.isJSON(type), let example,
           let why = judge.violation(example.value, of: requestSchema(content) ?? built, direction: .request) {
            // A body built from the schema is never sent against it: the target is written without one
            let broken = "the request body built from the schema at \(built.file):\(built.mark.line):\(built.mark.column) breaks it (write an example there): \(why)"
            loader.warn(built.warning(broken + "; the target is written without a body"))
            t.notes.append("No request body: \(broken).")
            return
        }
        let value = example?.value ?? .null
        switch type.lowercased() {
        case let json where Self.isJSON(json):
            t.task.append(.pair("json", ImportText.literal(value)))
            if json != "application/json" && json != "*/*" { t.task.append(.pair("contentType", .string(ImportText.literal(type)))) }
        case "application/x-www-form-urlencoded":
            t.task.append(.pair("form", ImportText.literal(Self.object(value))))
        case "multipart/form-data":
            t.task.append(.pair("multipart", .list(parts(value, media: media, target: &t))))
        default:
            textBody(type, value, media, to: &t)
        }
    }

    /// The schema a request body is checked against (`mock --validate`): that of the first JSON
    /// media type, as the contract picks it.
    private func requestSchema(_ content: SpecNode) -> SpecNode? {
        content.entries.first { OpenAPIContract.isJSON($0.key) }?.value["schema"]
    }

    /// A mapping for `form:` (a non-object example becomes `{ value: … }`).
    static func object(_ v: YAMLOut) -> YAMLOut {
        if case .map = v { return v }
        return .map([.pair("value", v)])
    }

    private func textBody(_ type: String, _ value: YAMLOut, _ media: SpecNode, to t: inout TargetDraft) {
        if Self.isBinary(media["schema"]) || value == .null {
            t.task.append(.pair("body", .string("")))
            t.notes.append("The body is \(type) data: send a file with task: { upload: PATH }.")
            warn(media, "no text example for the \(type) body; the target sends an empty body")
        } else {
            t.task.append(.pair("body", .string(ImportText.literal(Self.text(value, type: type)))))
        }
        if !type.lowercased().hasPrefix("text/plain") { t.task.append(.pair("contentType", .string(ImportText.literal(type)))) }
    }

    static func isBinary(_ schema: SpecNode?) -> Bool {
        guard let schema else { return false }
        return schema["format"]?.text == "binary" || schema["contentMediaType"] != nil || schema["contentEncoding"] != nil
    }
}
