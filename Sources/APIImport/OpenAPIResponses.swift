import APIYAML
import APIJSON
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Responses → `expect:`, `sample:` and `samples:`. The first 2xx response is the success: its
/// status (every documented 2xx), content type and required top-level JSON fields are expected,
/// and its first example (else one built from its schema) is the sample. Other examples become
/// named samples; those the expectations reject say `expectFailure: true`.
extension OpenAPIMapper {
    struct Response {
        var code: String
        var status: Int
        var node: SpecNode
    }

    func responses(_ op: SpecNode) -> [Response] {
        (op["responses"]?.entries ?? []).compactMap { code, _, raw in
            guard let r = loader.resolve(raw) else { return nil }
            return Response(code: code, status: Self.status(code), node: r)
        }
    }

    /// `200` → 200, `4XX` → 400, `default` → 500.
    static func status(_ code: String) -> Int {
        if let n = Int(code) { return n }
        if let first = code.first?.wholeNumberValue, code.count == 3, code.uppercased().hasSuffix("XX") { return first * 100 }
        return 500
    }

    func applyResponses(_ op: SpecNode, method: String, to t: inout TargetDraft) {
        let all = responses(op)
        let success = all.filter { (200...299).contains($0.status) && $0.code != "default" }
        var accepted: Set<Int> = []
        var names = UniqueNames()
        if let first = success.first {
            accepted = Set(success.map(\.status))
            t.expect = [.pair("status", Self.statusValue(success))]
            applySuccess(first, method: method, all: all, to: &t, names: &names)
        }
        for r in all where r.code != success.first?.code {
            guard let (type, media) = r.node["content"].flatMap(preferred) else { continue }
            for e in mediaExamples(media) {
                let name = names.claim(e.name.flatMap(ImportNames.lowerCamel) ?? r.code)
                let fails = !accepted.isEmpty && !accepted.contains(r.status)
                judgeStated(e, name: name, status: r.status, type: type, method: method, all: all, expectFailure: fails, to: &t)
                t.samples.append(.pair(name, sample(r.status, type, e.value, method: method, expectFailure: fails)))
            }
        }
    }

    /// The schema a sample of `status` is checked against once written, picked as the contract
    /// picks it (`SchemaExpectation.pick`: the exact code's, else `4XX`'s, else `default`'s), each
    /// the schema of the response's first JSON media type; nil when the status is documented
    /// without a JSON body (or not at all).
    func contractSchema(for status: Int, in all: [Response]) -> SpecNode? {
        let documented: [(code: String, schema: SpecNode?)] = all.map { r in
            let media = r.node["content"]?.entries.first { OpenAPIContract.isJSON($0.key) }
            return (r.code, media?.value["schema"])
        }
        let schemas = documented.compactMap { d in d.schema.map { (status: d.code, schema: $0) } }
        return SchemaExpectation.pick(status, schemas, bodiless: Set(documented.filter { $0.schema == nil }.map { $0.code.uppercased() }))
    }

    /// The first violation of `schema` by the body a sample of `type` carrying `value` is written
    /// with, as the written file's check reads it (a `body:` as JSON text); nil when it has none.
    /// `written: false`: the value itself (a schema no check reads, of a text body).
    private func bodyViolation(_ value: YAMLOut, type: String, schema: SpecNode, written: Bool = true) -> String? {
        if Self.isJSON(type) || !written { return judge.violation(value, of: schema, direction: .response) }
        guard let parsed = JSONValue.parse(Data(Self.text(value, type: type).utf8)) else {
            return "the \(type) body is not JSON, which the schema at \(schema.file):\(schema.mark.line):\(schema.mark.column) describes"
        }
        return judge.violation(parsed, of: schema, direction: .response)
    }

    /// Judges an example the description states by the schema its sample is checked against once
    /// written, when it is chosen: one that breaks it is written as the description gives it, with
    /// a warning at the example's place, and keeps its target from an `expect: schema:` reference
    /// (unless its sample is `expectFailure`: the target's check is expected to fail on it anyway).
    private func judgeStated(_ e: Example, name: String?, status: Int, type: String, method: String, all: [Response],
                             expectFailure: Bool = false, to t: inout TargetDraft) {
        guard let at = e.at, method != "HEAD", let schema = contractSchema(for: status, in: all),
              let why = bodyViolation(e.value, type: type, schema: schema) else { return }
        let broken = "the description's example (\(name.map { "sample '\($0)'" } ?? "the sample")) breaks its schema: \(why)"
        loader.warn(at.warning(broken + (expectFailure ? "; it is written as given (expectFailure)" : "; it is written as given, without expect: schema:")))
        if !expectFailure, t.brokenSample == nil { t.brokenSample = broken }
    }

    /// `200`, or `[200, 201]`, or `"2xx"` for a range.
    static func statusValue(_ success: [Response]) -> YAMLOut {
        let values: [YAMLOut] = success.map { Int($0.code) != nil ? .number($0.code) : .string("\($0.status / 100)xx") }
        return values.count == 1 ? values[0] : .list(values)
    }

    private func applySuccess(_ r: Response, method: String, all: [Response], to t: inout TargetDraft, names: inout UniqueNames) {
        let checked = contractSchema(for: r.status, in: all)
        guard let (type, media) = r.node["content"].flatMap(preferred) else {
            t.sample = sample(r.status, nil, nil, method: method, expectFailure: false)
            return
        }
        let stated = mediaExamples(media)
        var examples = stated.isEmpty ? mediaExample(media, direction: .response).map { [$0] } ?? [] : stated
        if let built = examples.first, let schema = built.schema, method != "HEAD",
           let why = bodyViolation(built.value, type: type, schema: checked ?? schema, written: checked != nil) {
            // A sample is never written against its own schema: the body is left out, the schema named
            let other = checked.map { $0.file != schema.file || $0.mark != schema.mark } ?? false
            let it = other ? "the schema at \(checked!.file):\(checked!.mark.line):\(checked!.mark.column)" : "it"
            let broken = "the sample built from the schema at \(schema.file):\(schema.mark.line):\(schema.mark.column) breaks \(it) (write an example there): \(why)"
            loader.warn(schema.warning(broken + "; the sample is written without a body (and no expect: schema:)"))
            t.brokenSample = broken
            examples = []
        }
        if let checked, method == "HEAD" || examples.isEmpty, t.brokenSample == nil, judge.judges(checked) {
            // No JSON body for the written check to judge: such a target gets no reference
            let place = "\(checked.file):\(checked.mark.line):\(checked.mark.column)"
            if method == "HEAD" {
                t.brokenSample = "a HEAD response has no body for the schema at \(place) to judge"
            } else {
                t.brokenSample = "no sample could be built from the schema at \(place) (write an example there)"
                loader.warn(checked.warning(t.brokenSample! + "; the sample is written without a body (and no expect: schema:)"))
            }
        }
        if examples.isEmpty {
            // No example and no sample from the schema (a `$ref` that cannot be read, warned where it
            // stands): expectations the sample could not meet are left out with it.
            t.notes.append(t.brokenSample.map { "No sample body: \($0)." } ?? "No example for the \(r.code) \(type) response: its content is not expected.")
        } else if method != "HEAD", type != "*/*" {
            let bare = type.split(separator: ";").first.map(String.init) ?? type
            t.expect.append(.pair("headers", .map([.pair("Content-Type", .string(Self.isJSON(type) ? "~json" : "~" + bare))])))
            if Self.isJSON(type), let schema = media["schema"] {
                expectFields(schema, in: examples.map(\.value), at: media, to: &t)
            }
        }
        for (i, e) in examples.enumerated() {
            let s = sample(r.status, type, e.value, method: method, expectFailure: false)
            let name = i == 0 ? nil : names.claim(e.name.flatMap(ImportNames.lowerCamel) ?? r.code)
            if e.schema == nil { judgeStated(e, name: name, status: r.status, type: type, method: method, all: all, to: &t) }
            if let name { t.samples.append(.pair(name, s)) } else { t.sample = s }
        }
        if examples.isEmpty { t.sample = sample(r.status, nil, nil, method: method, expectFailure: false) }
    }

    /// `json: { "$.field": { exists: true } }` for required top-level fields every sample has.
    private func expectFields(_ schema: SpecNode, in samples: [YAMLOut], at media: SpecNode, to t: inout TargetDraft) {
        var fields: [YAMLOut.Entry] = []
        for name in sampler.requiredProperties(schema) {
            guard samples.allSatisfy({ $0[name] != nil }) else {
                warn(media, "an example lacks the required field '\(name)'; it is not expected")
                continue
            }
            let path = ImportNames.isIdentifier(name) ? "$.\(name)" : "$['\(name)']"
            fields.append(.pair(path, .map([.pair("exists", .bool(true))])))
        }
        if !fields.isEmpty { t.expect.append(.pair("json", .map(fields))) }
    }

    /// A sample: `{ status, headers, json | body, expectFailure }`, leaving out what is a default.
    func sample(_ status: Int, _ type: String?, _ value: YAMLOut?, method: String, expectFailure: Bool) -> YAMLOut {
        var e: [YAMLOut.Entry] = []
        if status != 200 { e.append(.pair("status", .number(String(status)))) }
        if let type, let value, method != "HEAD" {
            if Self.isJSON(type) {
                if type.lowercased() != "application/json" && type != "*/*" {
                    e.append(.pair("headers", .map([.pair("Content-Type", .string(ImportText.literal(type)))])))
                }
                e.append(.pair("json", ImportText.literal(value)))
            } else if type.lowercased().hasPrefix("text/event-stream") {
                // 3.2's itemSchema for events: an object of `event`, `data`, `id`, `retry`
                let fields = (value.pairs ?? []).filter { ["event", "data", "id", "retry"].contains($0.0) }
                let event: [YAMLOut.Entry] = fields.contains { $0.0 != "event" } ? fields.map { .pair($0.0, ImportText.literal($0.1)) }
                    : [.pair("data", .string(ImportText.literal(value.scalarText ?? value.jsonValue.jsonText)))]
                e.append(.pair("events", .list([.map(event)])))
            } else {
                e.append(.pair("headers", .map([.pair("Content-Type", .string(ImportText.literal(type)))])))
                e.append(.pair("body", .string(ImportText.literal(Self.text(value, type: type)))))
            }
        }
        if expectFailure { e.append(.pair("expectFailure", .bool(true))) }
        return .map(e)
    }

    /// A value as the text of a body of `type`: JSON Lines and JSON sequences (3.2's streams) one
    /// JSON item a line; other types the scalar, else the value's flow text.
    static func text(_ value: YAMLOut, type: String) -> String {
        let t = type.lowercased()
        if t.hasPrefix("application/jsonl") || t.hasPrefix("application/x-ndjson") || t.hasPrefix("application/json-seq") || t.contains("+jsonl") {
            return value.jsonValue.jsonText + "\n"
        }
        return value.scalarText ?? value.flowText
    }
}
