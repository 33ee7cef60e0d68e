import APISupport
import APIJSON
import APISchema

/// The operations of an OpenAPI 3 description as `check --coverage` counts them: method, path
/// template, the servers they answer under and the response statuses they document. Path Items and
/// Operations given as `$ref`s (to this file or another one inside the folder) are followed as
/// `load` follows them.
extension OpenAPIContract {
    package struct Operation: Sendable, Equatable {
        /// Upper-cased: `GET`.
        package var method: String
        /// As the description writes it: `/pets/{petId}`.
        package var path: String
        /// `operationId`, when it has one.
        package var id: String?
        /// The server URLs that apply (the operation's, else its Path Item's, else the
        /// description's; `/` when none), variables at their defaults, no trailing `/`.
        package var servers: [String]
        /// The keys of `responses:` as written, upper-cased (`200`, `4XX`, `DEFAULT`).
        package var statuses: [String]
    }

    /// Every operation of `paths:`, in the description's order.
    package static func operations(_ doc: Document, folder: String) -> [Operation] {
        let loader = fileLoader(root: folder)
        let top = serverURLs(doc.value["servers"]) ?? [""]
        var out: [Operation] = []
        for (path, raw) in doc.value["paths"]?.members ?? [] where path.hasPrefix("/") {
            let itemPlace = Place(value: doc.value, path: doc.path, pointer: "/paths/\(SchemaURI.escape(path))", node: raw)
            guard let item = follow(itemPlace, loader: loader) else { continue }
            let itemServers = serverURLs(item.node["servers"]) ?? top
            let fixed = item.node.members.filter { methods.contains($0.key.lowercased()) }.map { ($0.key, "/" + SchemaURI.escape($0.key), $0.value) }
            let more = (item.node["additionalOperations"]?.members ?? []).map { ($0.key, "/additionalOperations/" + SchemaURI.escape($0.key), $0.value) }
            for (method, step, rawOp) in fixed + more {
                guard let op = follow(Place(value: item.value, path: item.path, pointer: item.pointer + step, node: rawOp), loader: loader) else { continue }
                var id: String?
                if case .string(let s)? = op.node["operationId"] { id = s }
                out.append(Operation(method: method.uppercased(), path: path, id: id, servers: serverURLs(op.node["servers"]) ?? itemServers,
                                     statuses: (op.node["responses"]?.members ?? []).map { $0.key.uppercased() }))
            }
        }
        return out
    }

    /// A `servers:` list's URLs with every `{variable}` at its default; nil when there is none.
    static func serverURLs(_ node: JSONValue?) -> [String]? {
        guard case .array(let items)? = node, !items.isEmpty else { return nil }
        return items.compactMap { server -> String? in
            guard case .string(var url)? = server["url"] else { return nil }
            for (name, variable) in server["variables"]?.members ?? [] {
                if case .string(let value)? = variable["default"] { url = url.replacing("{\(name)}", with: value) }
            }
            while url.hasSuffix("/") { url.removeLast() }
            return url
        }
    }
}

extension OpenAPIContract {
    /// The response schemas `operation` (an `operationId` or `METHOD /path`) documents, by status
    /// and media type, as written (their `$ref`s unresolved); nil when there is no such operation.
    /// Only schemas written in the description's own file are listed (`export openapi` copies them
    /// with the file's `components.schemas`).
    package static func responseSchemas(_ doc: Document, operation: String, folder: String) -> [(status: String, mediaType: String, schema: JSONValue)]? {
        let loader = fileLoader(root: folder)
        let wanted = methodAndPath(operation)
        for (path, raw) in doc.value["paths"]?.members ?? [] {
            guard let item = follow(Place(value: doc.value, path: doc.path, pointer: "/paths/\(SchemaURI.escape(path))", node: raw), loader: loader)
            else { continue }
            for (method, rawOp) in item.node.members where methods.contains(method.lowercased()) {
                guard let op = follow(Place(value: item.value, path: item.path, pointer: item.pointer + "/" + method, node: rawOp), loader: loader)
                else { continue }
                let matches = op.node["operationId"] == .string(operation)
                    || (wanted.map { $0.method == method.lowercased() && $0.path == path } ?? false)
                guard matches else { continue }
                var out: [(status: String, mediaType: String, schema: JSONValue)] = []
                for (status, rawResponse) in op.node["responses"]?.members ?? [] {
                    let at = Place(value: op.value, path: op.path, pointer: op.pointer + "/responses/\(SchemaURI.escape(status))", node: rawResponse)
                    guard let response = follow(at, loader: loader), response.path == doc.path else { continue }
                    for (type, media) in response.node["content"]?.members ?? [] {
                        if let schema = media["schema"] { out.append((status, type, schema)) }
                    }
                }
                return out
            }
        }
        return nil
    }
}
