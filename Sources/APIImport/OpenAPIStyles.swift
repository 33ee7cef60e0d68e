import APIYAML
/// Parameter styles (`style:`, `explode:`): the example value serialized as OpenAPI says, for the
/// places where a target file takes one string (a path segment, a header, an unexploded query value).
/// Exploded query arrays and objects keep their structure (`arrays: noBrackets`, one pair per property).
extension OpenAPIMapper {
    /// The styles OpenAPI defines per location, with the default first.
    static let styles: [String: [String]] = [
        "path": ["simple", "label", "matrix"],
        "query": ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
        "header": ["simple"],
        "cookie": ["form"],
    ]

    /// The parameter's style and explode, or nil (and a warning at the parameter) when the style is
    /// not one of its location's: then it is treated as the location's default.
    func style(of p: Parameter) -> (style: String, explode: Bool) {
        let allowed = Self.styles[p.location] ?? []
        var style = p.node["style"]?.text ?? allowed.first ?? "simple"
        if !allowed.contains(style), let fallback = allowed.first {
            warn(p.node["style"] ?? p.node, "style '\(style)' is not defined for \(p.location) parameter '\(p.name)'; it is sent as \(fallback)")
            style = fallback
        }
        return (style, p.node["explode"]?.bool ?? (style == "form"))
    }

    /// `value` as the text a path or header parameter of this style sends (RFC 6570 shapes:
    /// simple `3,4,5`, label `.3.4.5`, matrix `;id=3;id=4`).
    static func styled(_ value: YAMLOut, name: String, style: String, explode: Bool) -> String {
        let (items, keyed) = parts(value)
        switch style {
        case "label":
            let sep = explode ? "." : ","
            return "." + joined(items, keyed, sep: sep, pair: explode ? "=" : ",")
        case "matrix":
            if !keyed, case .list = value, explode { return items.map { ";\(name)=\($0.1)" }.joined() }
            if keyed, explode { return items.map { ";\($0.0)=\($0.1)" }.joined() }
            return ";\(name)=" + joined(items, keyed, sep: ",", pair: ",")
        default:
            return joined(items, keyed, sep: ",", pair: explode ? "=" : ",")
        }
    }

    /// An unexploded query value: items joined by the style's delimiter (`1,2`, `1 2`, `1|2`).
    static func delimited(_ value: YAMLOut, style: String) -> String {
        let sep = style == "spaceDelimited" ? " " : style == "pipeDelimited" ? "|" : ","
        let (items, keyed) = parts(value)
        return joined(items, keyed, sep: sep, pair: sep)
    }

    /// Whether the value is a collection (its shape depends on the style).
    static func isCollection(_ v: YAMLOut) -> Bool {
        switch v {
        case .list, .map, .blockMap: return true
        default: return false
        }
    }

    /// A list's items (keys empty) or an object's pairs, as text; nested collections as JSON-like flow text.
    private static func parts(_ v: YAMLOut) -> ([(String, String)], keyed: Bool) {
        switch v {
        case .list(let items): return (items.map { ("", $0.scalarText ?? $0.flowText) }, false)
        case .map, .blockMap: return ((v.pairs ?? []).map { ($0.0, $0.1.scalarText ?? $0.1.flowText) }, true)
        default: return ([("", v.scalarText ?? v.flowText)], false)
        }
    }

    private static func joined(_ items: [(String, String)], _ keyed: Bool, sep: String, pair: String) -> String {
        keyed ? items.map { $0.0 + pair + $0.1 }.joined(separator: sep) : items.map(\.1).joined(separator: sep)
    }
}
