import APIYAML
import APIJSON
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `task: { graphql: … }`: a GraphQL operation, sent as the GraphQL-over-HTTP specification says:
/// POSTed as JSON (`{"query", "variables", "operationName"}`), or with `method: GET` in the URL's
/// query, with `Accept: application/graphql-response+json, application/json`. The query text is
/// sent as written (GraphQL's own braces are not placeholders); values go in `variables:`, where
/// `{param}`, captures and `${VAR}` expand as in any JSON body.
package struct GraphQLOperation: Sendable {
    package var query: String
    package var variables: Value?
    package var operationName: String?
    /// `method: GET`: the operation goes in the URL (queries only, by the specification).
    package var get: Bool
    /// `errors: fail` (the default): a response whose `errors` is a non-empty list fails the
    /// target (call exits 1, check fails it); `errors: allow` leaves it to `expect:`.
    package var errorsFail: Bool
    package var mark: Mark

    package static let accept = "application/graphql-response+json, application/json"

    /// The members of the request: the body's (POST), or the query's (GET, variables as JSON text).
    package func members(inURL: Bool) -> [Value.Member] {
        var out = [Value.Member(key: "query", value: .string(Template(query, mark: mark)))]
        if let variables {
            out.append(Value.Member(key: "variables", value: inURL ? .string(Template(variables.jsonText, mark: mark)) : variables))
        }
        if let operationName { out.append(Value.Member(key: "operationName", value: .string(Template(operationName, mark: mark)))) }
        return out
    }
}

extension ServiceDecoder {
    /// `graphql: { query: "…" | { file: q.graphql }, variables: {…}, operationName: …, method: GET, errors: allow }`,
    /// or `graphql: "{ viewer { login } }"` for a query alone.
    mutating func graphql(_ node: Node) -> GraphQLOperation? {
        if let text = node.scalarText, node.pairs == nil {
            return GraphQLOperation(query: text, variables: nil, operationName: nil, get: false, errorsFail: true, mark: node.mark)
        }
        guard let entries = reader.mapping(node, "graphql", known: ["query", "variables", "operationName", "method", "errors"]) else {
            return nil
        }
        var op = GraphQLOperation(query: "", variables: nil, operationName: nil, get: false, errorsFail: true, mark: node.mark)
        var hasQuery = false
        for e in entries {
            switch MappingKey(e.key) {
            case "query":
                if e.value.pairs != nil {
                    guard let path = graphqlFile(e.value) else { continue }
                    op.query = path
                } else if let text = reader.text(e.value, "graphql query") {
                    op.query = text.text
                }
                hasQuery = true
            case "variables":
                guard e.value.pairs != nil else {
                    reader.error("graphql variables must be a mapping, not \(e.value.kindName)", at: e.value.mark,
                                 hint: "write variables: { id: 42 }")
                    continue
                }
                op.variables = reader.value(e.value, "graphql variables")
            case "operationName": op.operationName = reader.text(e.value, "operationName")?.text
            case "method":
                switch e.value.scalarText?.uppercased() {
                case "GET": op.get = true
                case "POST": op.get = false
                default: reader.error("graphql method is GET or POST, not '\(e.value.scalarText ?? e.value.kindName)'", at: e.value.mark)
                }
            default:
                switch e.value.scalarText {
                case "fail": op.errorsFail = true
                case "allow": op.errorsFail = false
                default: reader.error("graphql errors is fail or allow, not '\(e.value.scalarText ?? e.value.kindName)'", at: e.value.mark,
                                      hint: "fail (default): a response with errors fails; allow: expect: decides")
                }
            }
        }
        if !hasQuery {
            reader.error("graphql needs query:", at: node.mark, hint: "write graphql: { query: \"{ viewer { login } }\" }")
            return nil
        }
        return op
    }

    /// What a GraphQL task sets on its target unless the target says otherwise: POST (GET with
    /// `method: GET`), the Accept header the specification asks for, and the errors rule.
    mutating func graphqlDefaults(_ target: inout Target, _ op: GraphQLOperation, methodWritten: Bool) {
        if !methodWritten { target.method = op.get ? "GET" : "POST" }
        if methodWritten, target.method == "GET", !op.get {
            var get = op
            get.get = true
            target.task.body = .graphql(get)
        }
        if !target.headers.contains(where: { $0.name.lowercased() == "accept" }) {
            target.headers.append(Header(name: "Accept", value: Template(GraphQLOperation.accept, mark: op.mark)))
        }
        if op.errorsFail {
            var expect = target.expect ?? Expectations(mark: op.mark)
            expect.graphqlErrors = true
            target.expect = expect
        }
    }

    /// `query: { file: q.graphql }`: the file's text, read now (relative to the target file).
    private mutating func graphqlFile(_ node: Node) -> String? {
        guard let entries = reader.mapping(node, "graphql query", known: ["file"]), let fileNode = entries.first?.value,
              let path = fileReference(fileNode, "graphql query file", use: .request) else {
            if node.pairs?.isEmpty == true { reader.error("graphql query mapping needs file:", at: node.mark) }
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(validating: [UInt8](data), as: UTF8.self) else {
            reader.error("cannot read the graphql query file '\(fileNode.scalarText ?? path)'", at: fileNode.mark)
            return nil
        }
        return text
    }
}
