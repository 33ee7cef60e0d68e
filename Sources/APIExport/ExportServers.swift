import APISupport
import APIYAML
import APIJSON
import APITargets

/// `baseURL` → Server objects: `${VAR:-default}` (and `${VAR}`) as server variables `{VAR}` with
/// that default; each environment with a base URL of its own as one more server, described by its
/// name (what `import openapi` turns back into environments).
enum ExportServers {
    static func servers(_ service: Service, warn: (String) -> Void) -> [YAMLOut] {
        var out = [server(service.baseURL.text, description: nil)]
        for env in service.environments {
            guard let url = env.baseURL, url.text != service.baseURL.text else { continue }
            out.append(server(url.text, description: env.name))
        }
        if service.baseURL.text.isEmpty { warn("service \(service.name) has no baseURL; the description's server is /") }
        return out
    }

    static func server(_ text: String, description: String?) -> YAMLOut {
        var url = ""
        var variables: [YAMLOut.Entry] = []
        var i = text.startIndex
        while i < text.endIndex {
            let rest = text[i...]
            if rest.hasPrefix("$${") {
                url += "$"
                i = text.index(after: i)  // `${…}` stays text: an unknown {name} is a variable OpenAPI needs declared
            } else if rest.hasPrefix(Template.literalBrace) {
                url += "{"
                i = text.index(i, offsetBy: Template.literalBrace.count)
            } else if rest.hasPrefix("${"), let close = rest.firstIndex(of: "}") {
                let body = text[text.index(i, offsetBy: 2)..<close]
                let dash = body.firstRange(of: ":-")
                let name = String(dash.map { body[..<$0.lowerBound] } ?? body)
                let value = dash.map { String(body[$0.upperBound...]) } ?? ""
                url += "{\(name)}"
                if !variables.contains(where: { if case .pair(name, _) = $0 { return true } else { return false } }) {
                    variables.append(.pair(name, .map([.pair("default", .string(value))])))
                }
                i = text.index(after: close)
            } else if text[i] == "{", let (name, _, end) = Template.placeholder(in: text, at: i) {
                url += "{\(name)}"
                if !variables.contains(where: { if case .pair(name, _) = $0 { return true } else { return false } }) {
                    variables.append(.pair(name, .map([.pair("default", .string(""))])))
                }
                i = end
            } else {
                url.append(text[i])
                i = text.index(after: i)
            }
        }
        var s: [YAMLOut.Entry] = [.pair("url", .string(url.isEmpty ? "/" : url))]
        if let description { s.append(.pair("description", .string(description))) }
        if !variables.isEmpty { s.append(.pair("variables", .map(variables))) }
        return .map(s)
    }
}

/// The description as JSON text, two spaces an indent; numbers as written when JSON allows the
/// text, else as the number they are.
enum ExportJSON {
    static func write(_ v: YAMLOut, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += number(n)
        case .string(let s): JSONText.writeString(s, into: &out)
        case .list(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (k, item) in items.enumerated() {
                out += pad
                write(item, indent: indent + 1, into: &out)
                out += k == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .map(let entries), .blockMap(let entries):
            let pairs = entries.compactMap { if case .pair(let k, let v) = $0 { return (k, v) } else { return nil } }
            guard !pairs.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (k, pair) in pairs.enumerated() {
                out += pad
                JSONText.writeString(pair.0, into: &out)
                out += ": "
                write(pair.1, indent: indent + 1, into: &out)
                out += k == pairs.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }

    /// `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?` as is; YAML's other spellings (`0x1F`, `+1`, `.5`) converted.
    static func number(_ text: String) -> String {
        if isJSONNumber(text) { return text }
        if let n = YAMLScalar.number(text), isJSONNumber(n) { return n }
        var s = ""
        JSONText.writeString(text, into: &s)
        return s
    }

    static func isJSONNumber(_ text: String) -> Bool {
        var u = Substring(text).utf8[...]
        func digits() -> Int { let n = u.prefix { $0 >= 48 && $0 <= 57 }.count; u = u.dropFirst(n); return n }
        if u.first == UInt8(ascii: "-") { u = u.dropFirst() }
        if u.first == UInt8(ascii: "0") { u = u.dropFirst() } else if digits() == 0 { return false }
        if u.first == UInt8(ascii: ".") { u = u.dropFirst(); if digits() == 0 { return false } }
        if u.first == UInt8(ascii: "e") || u.first == UInt8(ascii: "E") {
            u = u.dropFirst()
            if u.first == UInt8(ascii: "+") || u.first == UInt8(ascii: "-") { u = u.dropFirst() }
            if digits() == 0 { return false }
        }
        return u.isEmpty
    }
}
