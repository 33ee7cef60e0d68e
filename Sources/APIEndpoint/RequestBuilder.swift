import APISupport
import APIJSON
import APIDiagnostics
import APISchema
import APITargets
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Endpoint` → `PreparedRequest`: applies the task's encodings, the default Content-Type and User-Agent.
/// No network; every task form's exact result is testable.
package enum RequestBuilder {

    /// The `User-Agent` of a request that names none.
    package static let defaultUserAgent = "apicli/" + apicliVersion

    /// `boundary` separates multipart parts (random, made only for a multipart body, unless a test fixes it).
    package static func build(_ endpoint: Endpoint, boundary fixed: String? = nil) throws(APIError) -> PreparedRequest {
        let task = endpoint.task
        let encoder = ParameterEncoder(arrays: task.arrays, bools: task.bools)
        var query = task.query
        var body = task.body
        // `query: "text"`: sent as written, before any pairs from parameters or a GraphQL GET.
        var queryText: String?
        if case .string(let text)? = query {
            queryText = URLBuilder.encodeQueryString(text.text)
            query = nil
        }

        if let parameters = task.parameters {
            if !task.parametersInBody(method: endpoint.method) {
                query = merge(query, parameters)
            } else if body == nil {
                body = task.encoding == .json ? .json(parameters) : .form(parameters)
            } else {
                // Only a rule's `task: { encoding: }` can get here: the decoder rejects a second body.
                throw .invalid(Diagnostic(file: endpoint.file, mark: nil,
                                          message: "\(endpoint.name) has a body and parameters (encoding: \(task.encoding.rawValue)) that go in the body",
                                          hint: "set encoding: query to send the parameters in the URL"))
            }
        }

        if case .graphql(let op)? = body, op.get {
            query = merge(query, .object(op.members(inURL: true)))
            body = nil
        }

        var urlString = endpoint.url
        // A `?` character holds a `?` byte: most URLs have none, and a byte search is cheap.
        func hasQuery() -> Bool { urlString.containsByte(UInt8(ascii: "?")) && urlString.contains("?") }
        if let queryText { urlString += (hasQuery() ? (queryText.isEmpty ? "" : "&") : "?") + queryText }
        if let query {
            let encoded = encoder.encode(query)
            if !encoded.isEmpty { urlString += (hasQuery() ? "&" : "?") + encoded }
        }
        guard let url = URL(string: urlString) else {
            throw .invalid(Diagnostic(file: endpoint.file, mark: nil,
                                      message: "\(endpoint.name) builds '\(urlString)', which is not a valid URL"))
        }

        var headers = endpoint.headers
        var payload: PreparedRequest.Body?
        var contentType: String?
        switch body {
        case .json(let v)?:
            payload = .data(Data(v.jsonText.utf8))
            contentType = "application/json"
        case .form(let v)?:
            payload = .data(Data(encoder.encode(v).utf8))
            contentType = "application/x-www-form-urlencoded; charset=utf-8"
        case .text(let t)?:
            payload = .data(Data(t.text.utf8))
            contentType = "text/plain; charset=utf-8"
        case .file(let path, _)?:
            payload = .file(path)
            contentType = "application/octet-stream"
        case .upload(let path, _)?:
            payload = .file(path)
            contentType = MediaType.forPath(path)
        case .graphql(let op)?:
            payload = .data(Data(Value.object(op.members(inURL: false)).jsonText.utf8))
            contentType = "application/json"
        case .multipart(let parts)?:
            let boundary = fixed ?? MultipartBody.randomBoundary()
            let multipart = MultipartBody(boundary: boundary, parts: parts.map(Self.part))
            payload = .multipart(multipart)
            // The boundary must reach the server: a declared multipart type gets it added.
            if let declared = headers.value(of: "Content-Type") {
                if declared.lowercased().hasPrefix("multipart/"), !declared.lowercased().contains("boundary=") {
                    headers.set("Content-Type", declared + "; boundary=\(boundary)")
                }
            } else {
                headers.append(HeaderField("Content-Type", multipart.contentType))
            }
        case nil:
            break
        }
        // `contentType: none`: the body goes without one (as `curl -T` sends a file).
        if payload != nil, headers.value(of: "Content-Type") == nil, let type = task.contentType?.text ?? contentType,
           type != RequestTask.noContentType {
            headers.append(HeaderField("Content-Type", type))
        }
        // Every request names its client, as curl and xh do (GitHub's API refuses one without):
        // unless the target, a rule, `-H` or the project named one, in any case.
        if headers.value(of: "User-Agent") == nil {
            headers.append(HeaderField("User-Agent", defaultUserAgent))
        }
        var request = PreparedRequest(url: url, method: endpoint.method, headers: headers, body: payload,
                                      timeout: endpoint.timeout, tls: endpoint.tls, cookies: endpoint.cookies,
                                      followRedirects: endpoint.followRedirects, maxBody: endpoint.maxBody)
        request.socket = endpoint.socket
        request.http2PriorKnowledge = endpoint.http2PriorKnowledge
        return request
    }

    static func part(_ p: FormPart) -> MultipartBody.Part {
        switch p.content {
        case .value(let t): return MultipartBody.Part(name: p.name, content: .text(t.text), filename: p.filename, type: p.type)
        case .file(let path): return MultipartBody.Part(name: p.name, content: .file(path), filename: p.filename, type: p.type)
        }
    }

    private static func merge(_ a: Value?, _ b: Value) -> Value {
        guard case .object(let left)? = a, case .object(let right) = b else { return a ?? b }
        return .object(left + right)
    }
}
