import APISupport
import APIYAML
import APIJSON
import APITransport
/// A curl POST of a GraphQL request → `task: { graphql: { query, variables, operationName } }`:
/// JSON data (`Content-Type: application/json…` or `--json`) to a path ending in `/graphql`, whose
/// object has a string `query` and nothing but `variables` (an object or null) and
/// `operationName` (a string or null) besides. Anything else (`extensions`, persisted queries, a
/// batch list) stays a JSON body.
extension CurlMapper {
    static let graphQLMembers: Set<String> = ["query", "variables", "operationName"]

    /// The `graphql:` mapping for `text`, or nil when the request is not a GraphQL one.
    mutating func graphQL(_ text: String, method: String, path: String, type: String?) -> YAMLOut? {
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        var trimmed = Substring(route.lowercased())
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let declaredJSON = type.map { String($0.split(separator: ";").first ?? "").trimmingWhitespace() == "application/json" } ?? request.json
        guard method == "POST", trimmed.hasSuffix("/graphql"), declaredJSON,
              let members = Self.json(text)?.pairs, !members.isEmpty,
              members.allSatisfy({ Self.graphQLMembers.contains($0.0) }),
              Set(members.map(\.0)).count == members.count,
              let query = members.first(where: { $0.0 == "query" }).map(\.1), case .string(let queryText) = query else { return nil }
        var entries: [YAMLOut.Entry] = [.pair("query", .string(queryText))]
        for key in ["variables", "operationName"] {
            guard let value = members.first(where: { $0.0 == key })?.1 else { continue }
            switch (key, value) {
            case (_, .null): continue
            case ("variables", .map): entries.append(.pair("variables", literalValue(value)))
            case ("operationName", .string(let name)): entries.append(.pair("operationName", .string(name)))
            default: return nil
            }
        }
        // What apicli sends: the members in this order, as compact JSON. Said when curl's bytes differ.
        let order = members.map(\.0)
        let canonical = ["query", "variables", "operationName"].filter(order.contains)
        let compact = JSONParser.parseValue(Array(text.utf8))?.jsonText == text
        if order != canonical || !compact || members.contains(where: { if case .null = $0.1 { return true } else { return false } }) {
            warnings.append("the GraphQL request is written as task: graphql:, which sends the same query, variables and operationName "
                            + "as compact JSON in that order (curl's data differs in spacing, order or null members)")
        }
        return .map(entries)
    }
}
