/// The curl options with a value that map onto a target.
extension CurlParser {
    static let valueOptions: Set<String> = [
        "-X", "--request", "-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "--data-ascii",
        "--data-urlencode", "--json", "-F", "--form", "--form-string", "-u", "--user", "--cacert", "-m",
        "--max-time", "--url", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-T", "--upload-file",
        "--oauth2-bearer",
    ]

    mutating func apply(_ option: String, value: String) throws(APIError) {
        switch option {
        case "-X", "--request": request.method = value.uppercased()
        case "-H", "--header": header(value)
        case "-d", "--data", "--data-ascii", "--data-binary", "--data-raw": data(option, value)
        case "--data-urlencode": request.data.append(Self.urlencoded(value))
        case "--json":
            request.json = true
            request.data.append(value)
        case "-F", "--form", "--form-string": request.form.append(formPart(value, literal: option == "--form-string"))
        case "-u", "--user": request.user = value
        case "--oauth2-bearer": request.bearer = value
        case "--cacert": request.cacert = absolute(value)
        case "-m", "--max-time": request.maxTime = value
        case "--url": request.url = value
        case "-A", "--user-agent": request.headers.append(("User-Agent", value))
        case "-e", "--referer": request.headers.append(("Referer", value))
        case "-b", "--cookie":
            if value.contains("=") { request.headers.append(("Cookie", value)) } else {
                warnings.append("cookie file '\(value)' (-b) is not imported")
            }
        case "-T", "--upload-file": request.uploadFile = absolute(value)
        default: warnings.append("curl option \(option) \(value) is not imported")
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

    private mutating func data(_ option: String, _ value: String) {
        if value.hasPrefix("@"), option != "--data-raw" {
            request.dataFile = absolute(String(value.dropFirst()))
        } else {
            request.data.append(value)
        }
    }

    /// `name=value` → `name=percent-encoded value`; a bare value is encoded whole.
    static func urlencoded(_ value: String) -> String {
        let allowed = Text.ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        func encode(_ s: Substring) -> String { s.percentEncoded(keeping: allowed) }
        if let eq = value.firstIndex(of: "=") {
            let name = value[..<eq]
            return (name.isEmpty ? "" : name + "=") + encode(value[value.index(after: eq)...])
        }
        return encode(value[...])
    }

    /// `name=value`, `name=@file;type=…;filename=…`, `name=<file` (the file's text: not imported).
    private mutating func formPart(_ spec: String, literal: Bool) -> CurlRequest.FormPart {
        let eq = spec.firstIndex(of: "=") ?? spec.endIndex
        let name = String(spec[..<eq])
        let value = eq < spec.endIndex ? String(spec[spec.index(after: eq)...]) : ""
        guard !literal, value.hasPrefix("@") else { return .init(name: name, value: value) }
        let fields = Self.formFields(String(value.dropFirst()))
        var part = CurlRequest.FormPart(name: name, value: "", file: absolute(fields.first ?? ""))
        for field in fields.dropFirst() {
            if field.hasPrefix("type=") { part.type = String(field.dropFirst(5)) }
            if field.hasPrefix("filename=") { part.filename = String(field.dropFirst(9)) }
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
