import APISupport
/// A request URL as a Postman collection or an Insomnia export writes it (`{{base_url}}/users/:id?x=1`),
/// cut into origin, path and query on the input's text: a `/`, `?` or `#` inside `{{ }}` does not cut.
/// The origin is `scheme://host:port` or the leading variables (`{{base_url}}`, `{{scheme}}://{{host}}`).
struct CollectionURL {
    var origin: String
    var path: String
    var query: [(key: String, value: String?)]

    init(_ raw: String) {
        var text = raw.trimmingSpaces()
        if let hash = Self.cut(text, at: "#") { text = String(text[..<hash]) }
        var queryText: Substring?
        if let q = Self.cut(text, at: "?") {
            queryText = text[text.index(after: q)...]
            text = String(text[..<q])
        }
        var originEnd = text.startIndex
        if let scheme = text.firstRange(of: "://") {
            originEnd = scheme.upperBound
        } else if !text.hasPrefix("{{"), !text.hasPrefix("/") {
            text = "http://" + text  // Postman and Insomnia send a URL without a scheme as http
            originEnd = text.index(text.startIndex, offsetBy: 7)
        }
        let rest = String(text[originEnd...])
        let slash = Self.cut(rest, at: "/").map { text.index(originEnd, offsetBy: rest.distance(from: rest.startIndex, to: $0)) }
        origin = String(text[..<(slash ?? text.endIndex)])
        path = slash.map { String(text[$0...]) } ?? ""
        query = queryText.map(Self.pairs) ?? []
    }

    /// The first `c` outside `{{ }}`.
    static func cut(_ text: String, at c: Character) -> String.Index? {
        var depth = 0
        var i = text.startIndex
        while i < text.endIndex {
            if text[i...].hasPrefix("{{") {
                depth += 1
                i = text.index(i, offsetBy: 2)
                continue
            }
            if depth > 0, text[i...].hasPrefix("}}") {
                depth -= 1
                i = text.index(i, offsetBy: 2)
                continue
            }
            if depth == 0, text[i] == c { return i }
            i = text.index(after: i)
        }
        return nil
    }

    /// `a=1&b&c=%20x` → `[(a, 1), (b, nil), (c, " x")]`: percent escapes decoded (apicli encodes
    /// the query itself), a key without `=` has no value.
    static func pairs(_ text: Substring) -> [(key: String, value: String?)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let eq = pair.firstIndex(of: "=") else { return (decode(pair), nil) }
            return (decode(pair[..<eq]), decode(pair[pair.index(after: eq)...]))
        }
    }

    static func decode(_ s: Substring) -> String {
        String(s).removingPercentEscapes() ?? String(s)
    }

    /// A path segment with its percent escapes decoded (apicli encodes the path itself), unless
    /// that would make a `/`, `?`, `#` or `%` out of an escape: then as written.
    static func segment(_ s: Substring) -> String {
        guard let decoded = String(s).removingPercentEscapes(), !decoded.contains(where: { "/?#%".contains($0) }) else { return String(s) }
        return decoded
    }

    /// `:name` path segments (Postman's path variables), in order.
    var pathVariables: [String] {
        path.split(separator: "/").filter { $0.hasPrefix(":") && $0.count > 1 }.map { String($0.dropFirst()) }
    }
}
