import APISupport
import APIDiagnostics
import APITargets
import APITransport
/// The curl options with a value that map onto a target.
extension CurlParser {
    /// An option with a value, by its long name (`-X` arrives as `request`).
    mutating func apply(_ option: String, value: String) throws(APIError) {
        switch option {
        case "request":
            if value != value.uppercased() {
                warnings.append("curl sends the method \(value) as written; a target sends it as \(value.uppercased())")
            }
            request.method = value.uppercased()
        case "range":
            // what curl sends for an HTTP range
            if value.contains("-") { request.headers.append(("Range", "bytes=" + value)) } else {
                // curl: "A specified range MUST include at least one dash (-). Appending one for you!"
                request.headers.append(("Range", "bytes=" + value + "-"))
            }
        case "header":
            guard value.hasPrefix("@") else { header(value); break }
            // -H @file: a header a line, read now
            let path = String(value.dropFirst())
            try Self.notStandardInput(path, option: written, value: value)
            try exists(absolute(path), written, value)
            let text = String(decoding: try CurlMapper.read(absolute(path), inline: true), as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline) where !line.trimmingSpaces().isEmpty { header(String(line)) }
            warnings.append("the headers in \(path) (-H @\(path)) are written into the target; curl reads the file each time it runs")
        case "data", "data-ascii", "data-binary", "data-raw": try data(option, value)
        case "data-urlencode": try dataURLEncode(value)
        case "json":
            request.json = true
            request.jsonPieces.insert(request.data.count)
            try data(option, value)
        case "form", "form-string": request.form.append(try formPart(value, literal: option == "form-string"))
        case "user": request.user = value
        case "oauth2-bearer": request.bearer = value
        case "cacert":
            let path = absolute(value)
            guard Path.exists(path) else {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "the CA certificate file \(value) (\(written)) does not exist: curl fails on it",
                                          hint: "run the import where curl would run, or give the file's full path"))
            }
            request.cacert = path
        case "max-time": request.maxTime = value
        case "url": request.url == nil ? (request.url = value) : warnings.append("a second URL '\(value)' is not imported; a target sends one request")
        case "url-query": try urlQuery(value)
        case "user-agent": request.headers.append(("User-Agent", value))
        case "referer":
            // `;auto` sets the Referer on redirects: not on the first request
            let sent = value.hasSuffix(";auto") ? String(value.dropLast(5)) : value
            if !sent.isEmpty { request.headers.append(("Referer", sent)) }
            if sent != value { warnings.append("curl option --referer ';auto' (a Referer on redirects) is not imported") }
        case "cookie":
            if value.contains("=") { request.headers.append(("Cookie", value)) } else {
                warnings.append("cookie file '\(value)' (-b) is not imported")
            }
        case "upload-file":
            guard value != "-", value != "." else {
                throw .invalid(Diagnostic(file: nil, mark: nil,
                                          message: "curl \(written) \(value) uploads standard input when curl runs, which an import cannot see",
                                          hint: "save the body to a file and pass -T FILE"))
            }
            guard request.uploadFile == nil else {
                warnings.append("a second -T \(value) is not imported; curl uploads it to a second URL")
                break
            }
            try exists(absolute(value), written, value)
            request.uploadFile = absolute(value)
            request.uploadName = value
        default: try other(option, value: value)
        }
    }

    /// `--url-query`: `+name=value` as it is, else encoded as `--data-urlencode` encodes, then
    /// appended to the URL's query.
    private mutating func urlQuery(_ value: String) throws(APIError) {
        if value.hasPrefix("+") {
            request.urlQuery.append(.text(String(value.dropFirst())))
        } else {
            let before = request.data
            try dataURLEncode(value)
            request.urlQuery.append(request.data.removeLast())
            request.data = before
        }
    }

    private mutating func header(_ value: String) {
        guard let colon = value.firstIndex(of: ":") else {
            if value.hasSuffix(";") { request.headers.append((String(value.dropLast()), "")) } else {
                warnings.append("header '\(value)' has no ':'; it is not imported")
            }
            return
        }
        let name = value[..<colon].trimmingSpaces()
        let v = value[value.index(after: colon)...].trimmingSpaces()
        if v.isEmpty {
            warnings.append("-H '\(name):' removes a header curl would send; it is not imported")
        } else {
            request.headers.append((name, v))
        }
    }

    /// `@file` is a file (except with `--data-raw`);
    /// `@-` is standard input when curl runs, which an import cannot see: an error.
    private mutating func data(_ option: String, _ value: String) throws(APIError) {
        guard value.hasPrefix("@"), option != "data-raw" else {
            request.data.append(.text(value))
            return
        }
        let path = String(value.dropFirst())
        try Self.notStandardInput(path, option: written, value: value)
        request.data.append(.file(absolute(path), binary: option == "data-binary" || option == "json"))
    }

    /// A file curl reads when it runs: missing, curl fails, so the import does too.
    func exists(_ path: String, _ option: String, _ value: String) throws(APIError) {
        guard !Path.exists(path) else { return }
        throw .invalid(Diagnostic(file: nil, mark: nil, message: "curl \(option) \(value): \(path) does not exist, and curl fails on it",
                                  hint: "run the import where curl would run: relative names are taken from the current folder"))
    }

    static func notStandardInput(_ path: String, option: String, value: String) throws(APIError) {
        guard path == "-" else { return }
        throw .invalid(Diagnostic(file: nil, mark: nil,
                                  message: "curl \(option) \(value) reads the body from standard input when curl runs, which an import cannot see",
                                  hint: "save the body to a file and pass --data-binary @FILE, or paste it with --data-raw '…'"))
    }

    /// `--data-urlencode`: `name=value` → `name=` and the value percent-encoded; `=value` and a bare
    /// value → the value encoded; `name@file` and `@file` → the file's content encoded (read at import).
    private mutating func dataURLEncode(_ value: String) throws(APIError) {
        let eq = value.firstIndex(of: "=")
        if let at = value.firstIndex(of: "@"), eq.map({ at < $0 }) ?? true {
            let path = String(value[value.index(after: at)...])
            try Self.notStandardInput(path, option: written, value: value)
            request.data.append(.encodedFile(name: String(value[..<at]), path: absolute(path)))
        } else {
            request.data.append(.text(Self.urlencoded(value)))
        }
    }

    /// `name=value` → `name=percent-encoded value` (curl leaves the name as it is); a bare value is
    /// encoded whole. curl keeps only `A–Z a–z 0–9 - . _ ~`, and writes a space as `+`.
    static func urlencoded(_ value: String) -> String {
        if let eq = value.firstIndex(of: "=") {
            let name = value[..<eq]
            return (name.isEmpty ? "" : name + "=") + formEncoded(Array(value[value.index(after: eq)...].utf8))
        }
        return formEncoded(Array(value.utf8))
    }

    /// curl's `--data-urlencode` encoding of bytes.
    static func formEncoded(_ bytes: [UInt8]) -> String {
        var out = ""
        for b in bytes {
            if Text.ByteSet.unreserved.contains(b) { out.unicodeScalars.append(Unicode.Scalar(b)) }
            else if b == UInt8(ascii: " ") { out += "+" }
            else { out += "%" + Text.hexByte(b) }
        }
        return out
    }

    /// `name=value`, `name=@file;type=…;filename=…`, `name=<file` (the file's text, read now).
    private mutating func formPart(_ spec: String, literal: Bool) throws(APIError) -> CurlRequest.FormPart {
        let eq = spec.firstIndex(of: "=") ?? spec.endIndex
        let name = String(spec[..<eq])
        let value = eq < spec.endIndex ? String(spec[spec.index(after: eq)...]) : ""
        guard !literal, value.hasPrefix("@") || value.hasPrefix("<") else { return .init(name: name, value: value) }
        let fields = Self.formFields(String(value.dropFirst()))
        let file = fields.first ?? ""
        try Self.notStandardInput(file, option: written, value: spec)
        try exists(absolute(file), written, spec)
        var part = CurlRequest.FormPart(name: name, value: "", file: absolute(file))
        for field in fields.dropFirst() {
            if field.hasPrefix("type=") { part.type = String(field.dropFirst(5)) }
            if field.hasPrefix("filename=") { part.filename = String(field.dropFirst(9)) }
        }
        if value.hasPrefix("<") {
            // The file's content as the field's value, no file name: what curl sends.
            let bytes = try CurlMapper.read(absolute(file), inline: true)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "\(file) (-F \(spec)) is not UTF-8 text, and a target holds a form value as text",
                                          hint: "send it as a file part: -F '\(name)=@\(file)'"))
            }
            warnings.append("the content of \(file) (-F \(name)=<\(file)) is written into the target; curl reads the file each time it runs")
            part.file = nil
            part.value = text
        }
        return part
    }

    /// A `-F` value split at `;`, with `"quoted"` fields (`\"` and `\\` escaped) kept whole.
    static func formFields(_ s: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(s)[...]
        while let c = chars.popFirst() {
            if quoted, c == "\\", let next = chars.popFirst() { field.append(next) }
            else if c == "\"" { quoted.toggle() }
            else if c == ";", !quoted { fields.append(field); field = "" }
            else { field.append(c) }
        }
        fields.append(field)
        return fields
    }

    func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : Path.join(cwd, path)
    }
}
