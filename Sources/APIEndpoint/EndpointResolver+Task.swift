import APISupport
import APIDiagnostics
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The task's templates expanded, and the command line's `-F` parts merged into it.
extension EndpointResolver {
    func expand(_ task: RequestTask, _ bindings: Bindings, _ name: String, _ file: String) throws(APIError) -> RequestTask {
        var out = task
        if case .string(let text)? = task.query {
            // A query written as text: a value is one query value ('&', '=' encoded); `{+name}` as written.
            out.query = .string(Template(try bindings.expand(text, in: "the query of \(name)", file: file, encode: URLBuilder.escapeQuery,
                                                             encodeReserved: URLBuilder.encodeQueryString), mark: text.mark))
        } else {
            out.query = try task.query?.expanded(with: bindings, in: "the query of \(name)", file: file)
        }
        out.parameters = try task.parameters?.expanded(with: bindings, in: "the parameters of \(name)", file: file)
        if let contentType = task.contentType {
            out.contentType = Template(try bindings.expand(contentType, in: "contentType of \(name)", file: file),
                                       mark: contentType.mark)
        }
        switch task.body {
        case .json(let v)?: out.body = .json(try v.expanded(with: bindings, in: "the JSON body of \(name)", file: file))
        case .form(let v)?: out.body = .form(try v.expanded(with: bindings, in: "the form body of \(name)", file: file))
        case .text(let t)?:
            out.body = .text(Template(try bindings.expand(t, in: "the body of \(name)", file: file, unresolved: .keep),
                                      mark: t.mark))
        case .multipart(let parts)?:
            var expanded: [FormPart] = []
            for part in parts {
                var p = part
                if case .value(let t) = part.content {
                    p.content = .value(Template(try bindings.expand(t, in: "multipart part '\(part.name)' of \(name)", file: file),
                                                mark: t.mark))
                }
                expanded.append(p)
            }
            out.body = .multipart(expanded)
        case .graphql(var op)?:
            op.variables = try op.variables?.expanded(with: bindings, in: "the GraphQL variables of \(name)", file: file)
            out.body = .graphql(op)
        case .file?, .upload?, nil: break
        }
        if var ws = task.websocket {
            ws.send = try ws.send.map { m throws(APIError) -> WebSocketTask.Outgoing in
                switch m {
                case .text(let t):
                    return .text(Template(try bindings.expand(t, in: "a websocket message of \(name)", file: file, unresolved: .keep), mark: t.mark))
                case .json(let v): return .json(try v.expanded(with: bindings, in: "a websocket message of \(name)", file: file))
                case .binary: return m
                }
            }
            out.websocket = ws
        }
        return out
    }

    /// `-F` parts: into the declared multipart body, or as the body of a target that has none.
    func addParts(to task: inout RequestTask, _ target: Target, _ file: String) throws(APIError) {
        let extra = overrides.parts
        guard !extra.isEmpty else { return }
        let name = target.qualifiedName
        var parts: [FormPart]
        switch task.body {
        case .multipart(let declared)?: parts = declared
        case nil:
            guard !HTTPMethods.bodyless.contains(target.method) else {
                throw .invalid(Diagnostic(file: file, mark: target.mark,
                                          message: "-F sends a multipart body, which a \(target.method) request cannot carry (\(name))",
                                          hint: "-F works with targets whose method is POST, PUT or PATCH"))
            }
            parts = []
        case _?:
            throw .invalid(Diagnostic(file: file, mark: target.mark,
                                      message: "-F adds multipart parts, but \(name) already sends another kind of body",
                                      hint: "use -F with a target whose task is multipart: or has no body"))
        }
        let replacements = Dictionary(grouping: extra, by: \.name)
        var merged: [FormPart] = []
        var placed = Set<String>()
        for part in parts {
            guard let replacing = replacements[part.name] else {
                merged.append(part)
                continue
            }
            if placed.insert(part.name).inserted { merged += replacing }
        }
        merged += extra.filter { !placed.contains($0.name) }
        task.body = .multipart(merged)
    }
}
