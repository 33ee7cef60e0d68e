#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// curl's body options → `task:`. `--json` or JSON data → `json:`; form data (curl's default
/// content type) → `form:`; other data → `body:`; `-F` → `multipart:`; `-T` → `upload:`;
/// `--data-binary @file` → `body: { file: }`. A Content-Type header the task sends anyway is dropped.
extension CurlMapper {
    mutating func body(_ t: inout TargetDraft, headers: inout [(name: String, value: String)]) {
        let type = headers.last { $0.name.lowercased() == "content-type" }?.value.lowercased()
        if let file = request.uploadFile {
            t.task.append(.pair("upload", .string(file)))
        } else if let file = request.dataFile {
            t.task.append(.pair("body", .map([.pair("file", .string(file))])))
        } else if !request.form.isEmpty {
            var parts: [YAMLOut] = []
            for p in request.form { parts.append(part(p)) }
            t.task.append(.pair("multipart", .list(parts)))
            if type?.hasPrefix("multipart/form-data") == true { drop("content-type", from: &headers) }
        } else if !request.data.isEmpty, !request.get {
            dataBody(request.data.joined(separator: "&"), type: type, &t, headers: &headers)
        }
    }

    private mutating func dataBody(_ text: String, type: String?, _ t: inout TargetDraft,
                                   headers: inout [(name: String, value: String)]) {
        let jsonType = type.map { $0.contains("json") } ?? request.json
        if jsonType || type == nil, let value = Self.json(text) {
            t.task.append(.pair("json", literalValue(value)))
            if type == nil || type == "application/json" { drop("content-type", from: &headers) }
            if request.json { headers.append(("Accept", "application/json")) }
        } else if type == nil || type!.hasPrefix("application/x-www-form-urlencoded"), Self.isForm(text) {
            let pairs = CurlURL.pairs(text)
            t.task.append(.pair("form", .map(pairs.map { .pair($0.0, .string(literal($0.1))) })))
            drop("content-type", from: &headers)
            if Set(pairs.map(\.0)).count < pairs.count { warnings.append("form data repeats a name; the last value is kept") }
        } else {
            t.task.append(.pair("body", .string(literal(text))))
        }
    }

    /// JSON text as data, read by the YAML layer (JSON is YAML flow syntax), so key order and
    /// numbers stay as written. Only objects and arrays count.
    static func json(_ text: String) -> YAMLOut? {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.hasPrefix("{") || trimmed.hasPrefix("["),
              JSONParser.parse(Data(trimmed.utf8)) != nil,
              let node = try? YAMLParser.parse(Array(trimmed.utf8)) else { return nil }
        return YAMLOut(node)
    }

    static func isForm(_ text: String) -> Bool {
        !text.isEmpty && text.split(separator: "&").allSatisfy { $0.contains("=") && !$0.hasPrefix("=") }
    }

    private mutating func literalValue(_ v: YAMLOut) -> YAMLOut {
        switch v {
        case .string(let s): return .string(literal(s))
        case .list(let items): return .list(items.map { literalValue($0) })
        case .map(let entries):
            return .map(entries.map { if case .pair(let k, let x) = $0 { return .pair(k, literalValue(x)) } else { return $0 } })
        default: return v
        }
    }

    private mutating func part(_ p: CurlRequest.FormPart) -> YAMLOut {
        var e: [YAMLOut.Entry] = [.pair("name", .string(p.name))]
        if let file = p.file {
            e.append(.pair("file", .string(file)))
            if let f = p.filename { e.append(.pair("filename", .string(f))) }
            if let type = p.type { e.append(.pair("type", .string(type))) }
        } else {
            e.append(.pair("value", .string(literal(p.value))))
        }
        return .map(e)
    }

    private func drop(_ lowercasedName: String, from headers: inout [(name: String, value: String)]) {
        headers.removeAll { $0.name.lowercased() == lowercasedName }
    }
}
