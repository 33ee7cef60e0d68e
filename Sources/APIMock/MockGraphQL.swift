import APIJSON
import APISchema
import APITargets
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// GraphQL targets that share an endpoint: the mock answers a request with the target whose
/// operation it runs — the request's `operationName`, else the first operation of its `query`
/// (from the JSON body, or from the URL's query for GET).
extension MockTable {
    /// The operation a GraphQL target sends; nil for any other target.
    static func graphqlName(_ target: Target) -> String? { TargetRoute.graphqlName(target) }

    /// Whether requests' bodies must be kept: to validate them, or to pick a GraphQL operation.
    package var keepsBodies: Bool { validateRequests || servesGraphQL }

    enum GraphQLPick {
        case entry(Entry)
        case refused(Answer)
    }

    /// Among the GraphQL entries matching the request from `index` on, the one running the
    /// requested operation; a request for an operation none of them serves gets a GraphQL error.
    func graphqlEntry(from index: Int, parts: [Substring], body: Data, query: Substring) -> GraphQLPick {
        let first = entries[index]
        let candidates = entries[index...].filter {
            $0.route.method == first.route.method && Self.graphqlName($0.route.target) != nil && $0.route.match(parts) != nil
        }
        guard candidates.count > 1 else { return .entry(first) }
        let asked = Self.requestedOperation(body: body, query: query)
        if let found = candidates.first(where: { Self.graphqlName($0.route.target) == (asked ?? "") }) { return .entry(found) }
        let served = candidates.compactMap { Self.graphqlName($0.route.target) }.map { $0.isEmpty ? "(anonymous)" : $0 }
        let message = (asked.map { "no operation named \($0) is served here" } ?? "the request names no operation")
            + "; served: " + served.joined(separator: ", ")
        let reply = Self.json(400, [("errors", .array([.object([("message", .string(message))])]))])
        return .refused(Answer(reply: reply, target: nil, sample: nil))
    }

    /// `operationName`, else the first operation of `query`, from a JSON body or the URL's query.
    static func requestedOperation(body: Data, query: Substring) -> String? {
        var name: String?
        var document: String?
        if case .object(let members)? = JSONValue.parse(body) {
            if case .string(let n)? = members.first(where: { $0.key == "operationName" })?.value { name = n }
            if case .string(let q)? = members.first(where: { $0.key == "query" })?.value { document = q }
        } else {
            name = queryValue("operationName", in: query)
            document = queryValue("query", in: query)
        }
        if let name, !name.isEmpty { return name }
        return document.flatMap(GraphQLOperation.firstOperationName(in:))
    }
}
