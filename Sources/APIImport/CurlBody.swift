import APISupport
import APIYAML
import APIJSON
import APIDiagnostics
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// curl's body options → `task:`, sending the bytes curl sends. `-d`/`--data*` text → `body:` as
/// written (curl's default type `application/x-www-form-urlencoded` as `contentType:`, a `-H
/// Content-Type` kept as given); JSON text sent as JSON → `json:` when apicli writes it back byte
/// for byte; one `@file` sent as it is → `body: { file: }`; `-F` → `multipart:`; `-T` → `upload:` (with `contentType: none` unless a `-H Content-Type` is given).
extension CurlMapper {
    mutating func body(_ t: inout TargetDraft, headers: inout [(name: String, value: String)]) throws(APIError) {
        let type = headers.last { $0.name.lowercased() == "content-type" }?.value.lowercased()
        if let file = request.uploadFile {
            t.task.append(.pair("upload", .string(file)))
            // curl -T sends no Content-Type (upload: would send one from the file's extension)
            if type == nil { t.task.append(.pair("contentType", .string(RequestTask.noContentType))) }
        } else if !request.form.isEmpty {
            var parts: [YAMLOut] = []
            for p in request.form { parts.append(part(p)) }
            t.task.append(.pair("multipart", .list(parts)))
            if type?.hasPrefix("multipart/form-data") == true { drop("content-type", from: &headers) }
        } else if !request.data.isEmpty, !request.get {
            try dataBody(type: type, &t, headers: &headers)
        }
    }

    private mutating func dataBody(type: String?, _ t: inout TargetDraft, headers: inout [(name: String, value: String)]) throws(APIError) {
        let defaultType = request.json ? "application/json" : "application/x-www-form-urlencoded"
        if request.json, !headers.contains(where: { $0.name.lowercased() == "accept" }) {
            headers.append(("Accept", "application/json"))
        }
        if request.data.count == 1, case .file(let path, let binary) = request.data[0] {
            let bytes = try Self.read(path)
            if binary || !bytes.contains(where: { $0 == 10 || $0 == 13 }) {
                t.task.append(.pair("body", .map([.pair("file", .string(path))])))
                if type == nil { t.task.append(.pair("contentType", .string(defaultType))) }
                return
            }
        }
        let text = try dataText()
        if let graphql = graphQL(text, method: t.method, path: t.path, type: type) {
            t.task.append(.pair("graphql", graphql))
            drop("content-type", from: &headers)  // graphql: sends application/json
            return
        }
        if type.map({ $0 == "application/json" }) ?? request.json, let json = Self.json(text),
           JSONParser.parseValue(Array(text.utf8))?.jsonText == text {
            t.task.append(.pair("json", literalValue(json)))
            drop("content-type", from: &headers)  // json: sends this one
            return
        }
        if type == nil, !request.json, Self.json(text) != nil {
            warnings.append("the data is JSON, but curl sends it as application/x-www-form-urlencoded (no Content-Type given); "
                            + "imported as curl sends it: use --json or -H 'Content-Type: application/json' to send JSON")
        }
        t.task.append(.pair("body", .string(literal(text))))
        if type == nil { t.task.append(.pair("contentType", .string(defaultType))) }
    }

    /// The data as curl sends it: the pieces joined with `&` (a `--json` piece with nothing), files
    /// read now (a `-d @file` without its CR and LF, a `--data-urlencode @file` percent-encoded).
    mutating func dataText() throws(APIError) -> String {
        try joined(request.data, json: request.jsonPieces)
    }

    /// `pieces` as curl joins them: `&` before each but the first, nothing before a `json` one.
    mutating func joined(_ data: [CurlRequest.Data], json: Set<Int> = []) throws(APIError) -> String {
        var pieces: [String] = []
        for d in data {
            switch d {
            case .text(let s): pieces.append(s)
            case .file(let path, let binary):
                var bytes = try Self.read(path, inline: true)
                if !binary { bytes.removeAll { $0 == 10 || $0 == 13 } }
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    throw .invalid(Diagnostic(file: nil, mark: nil, message: "\(path) is not UTF-8 text, and a target holds this body as text",
                                              hint: "send the file alone with --data-binary @\(path): it becomes body: { file: }"))
                }
                pieces.append(text)
                warnings.append("the content of \(path) is written into the target\(binary ? "" : " (without its line breaks, as -d @file sends it)"); "
                                + "curl reads the file each time it runs")
            case .encodedFile(let name, let path):
                let bytes = try Self.read(path, inline: true)
                pieces.append((name.isEmpty ? "" : name + "=") + CurlParser.formEncoded(bytes))
                warnings.append("the content of \(path) (--data-urlencode) is written into the target, percent-encoded; curl reads the file each time it runs")
            }
        }
        var out = ""
        for (i, piece) in pieces.enumerated() {
            if i > 0, !json.contains(i) { out += "&" }
            out += piece
        }
        return out
    }

    /// A data file's bytes; one written into the target (`inline`) is at most 1 MiB.
    static func read(_ path: String, inline: Bool = false) throws(APIError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalid(Diagnostic(file: nil, mark: nil,
                                      message: "cannot read \(path), which the curl command sends as its data: \(Path.exists(path) ? "it cannot be read" : "no such file")",
                                      hint: "run the import where curl would run: relative names are taken from the current folder"))
        }
        if inline, data.count > 1 << 20 {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "\(path) is \(data.count) bytes, too large to write into a target (1 MiB at most)",
                                      hint: "send the file alone with --data-binary @\(path): it becomes body: { file: }"))
        }
        return [UInt8](data)
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

    mutating func literalValue(_ v: YAMLOut) -> YAMLOut {
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
