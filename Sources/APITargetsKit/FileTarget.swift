import APISupport
import APITargets
import APIEndpoint
import APITransport
import Foundation

/// A target of the files, built for one set of parameters by the same factory as `apicli show`
/// and `apicli call`: Moya's `TargetType` as a value loaded from a file. Get one from
/// ``TargetCatalog/target(_:parameters:)``.
public struct FileTarget: TargetType, Sendable {
    package var call: PreparedCall
    /// The request after the endpoint closure: what is sent.
    package var request: PreparedRequest
    private let base: URL

    package init(call: PreparedCall, request: PreparedRequest, baseURL: URL) {
        self.call = call
        self.request = request
        base = baseURL
    }

    /// `service.target`.
    public var name: String { call.target.qualifiedName }
    /// The target's `doc:`.
    public var doc: String? { call.target.doc }

    /// The base URL, after the environment and a `baseURL:` override.
    public var baseURL: URL { base }

    /// The URL's path after the base URL's (`/users/moya`), without the query.
    public var path: String {
        let full = request.url.path
        let prefix = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
        return full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
    }

    /// The whole URL as sent, query included.
    public var url: URL { request.url }

    /// The HTTP method.
    public var method: HTTPMethod { HTTPMethod(rawValue: request.method) }

    /// What the request carries: nothing, bytes (JSON, form, text, GraphQL), a file, or multipart parts.
    public var task: TargetTask {
        switch request.body {
        case nil: return .requestPlain
        case .data(let data)?: return .requestData(data)
        case .file(let path)?: return .uploadFile(URL(fileURLWithPath: path))
        case .multipart(let body)?: return .uploadMultipart(parts: body.parts.map(\.name))
        }
    }

    /// The headers, the last of each name.
    public var headers: [String: String]? {
        Dictionary(request.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The headers in the order they are sent.
    public var headerFields: [HTTPHeader] {
        request.headers.map { HTTPHeader(name: $0.name, value: $0.value) }
    }

    /// Seconds.
    public var timeout: TimeInterval { request.timeout }

    /// The default sample's body, its `{params}` expanded (empty without one).
    public var sampleData: Data {
        guard let sample = call.target.sample,
              let response = try? Workspace.stub(sample, bindings: call.bindings, captures: [:], file: call.service.file).response()
        else { return Data() }
        return response.body
    }

    /// The names of the named samples (`samples:`), in declared order.
    public var sampleNames: [String] { call.target.samples.map(\.name) }

    /// The target's `validate:` (after the project file, environment and rules).
    public var validationType: ValidationType { ValidationType(call.endpoint.validation) }
}
