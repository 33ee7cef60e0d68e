import APIYAML
import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import Foundation

/// What describes one request, in Moya's shape: code written against Moya's `TargetType` reads the
/// same. ``FileTarget`` (a target loaded from a file) conforms; so may types of your own.
public protocol TargetType {
    /// The service's base URL (after the environment and `baseURL` overrides).
    var baseURL: URL { get }
    /// The path after the base URL, its `{params}` filled (without the query: see ``FileTarget/url``).
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// What the request carries.
    var task: TargetTask { get }
    /// The request's headers (the last of each name).
    var headers: [String: String]? { get }
    /// The body of the default sample, for stubbing.
    var sampleData: Data { get }
    /// Which status codes are a success.
    var validationType: ValidationType { get }
}

extension TargetType {
    /// Default: no headers.
    public var headers: [String: String]? { nil }
    /// Default: empty.
    public var sampleData: Data { Data() }
    /// Default: `.none`, as Moya's (every status is a response).
    public var validationType: ValidationType { .none }
}

/// An HTTP method (an RFC 9110 token, upper-cased): `.get`, `.post`, or any other.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's token, upper-cased (`GET`).
    public let rawValue: String
    /// The method `rawValue` names, upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }
    /// The method a literal names (`"PROPFIND"`).
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The token (`GET`).
    public var description: String { rawValue }

    /// `GET`.
    public static let get: HTTPMethod = "GET"
    /// `POST`.
    public static let post: HTTPMethod = "POST"
    /// `PUT`.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`.
    public static let delete: HTTPMethod = "DELETE"
    /// `HEAD`.
    public static let head: HTTPMethod = "HEAD"
    /// `OPTIONS`.
    public static let options: HTTPMethod = "OPTIONS"
}

/// What a request carries, as the target file's `task:` builds it.
public enum TargetTask: Sendable, Equatable {
    /// No body.
    case requestPlain
    /// These bytes (JSON, a form, text, GraphQL), with the Content-Type in the headers.
    case requestData(Data)
    /// A file's bytes, streamed from disk.
    case uploadFile(URL)
    /// A `multipart/form-data` body with these parts, by name.
    case uploadMultipart(parts: [String])
}

/// Which status codes a target accepts (`validate:` in the target file), as Moya's `ValidationType`.
public enum ValidationType: Sendable, Equatable {
    /// Any status.
    case none
    /// 200–299.
    case successCodes
    /// 200–399.
    case successAndRedirectCodes
    /// Exactly these.
    case customCodes([Int])

    /// Whether `status` is accepted (as `validate:` accepts it in `apicli`).
    public func accepts(_ status: Int) -> Bool {
        validation.accepts(status)
    }

    /// The target files' `validate:` this stands for.
    package var validation: Validation {
        switch self {
        case .none: return .none
        case .successCodes: return .success
        case .successAndRedirectCodes: return .successAndRedirect
        case .customCodes(let codes): return .codes(codes)
        }
    }

    package init(_ validation: Validation) {
        switch validation {
        case .none: self = .none
        case .success: self = .successCodes
        case .successAndRedirect: self = .successAndRedirectCodes
        case .codes(let codes): self = .customCodes(codes)
        }
    }
}

/// A type of your own that names a target of the files: an enum with a case per endpoint, as Moya
/// code has, whose requests the files describe.
///
/// ```swift
/// enum GitHub: CatalogTarget {
///     case zen, userProfile(String)
///     var targetName: String { switch self { case .zen: "github.zen"; case .userProfile: "github.userProfile" } }
///     var parameters: [String: String] {
///         if case .userProfile(let name) = self { return ["name": name] } else { return [:] }
///     }
/// }
/// ```
public protocol CatalogTarget: Sendable {
    /// `service.target`.
    var targetName: String { get }
    /// Values for the target's `{placeholders}`; they win over its `params:`.
    var parameters: [String: String] { get }
}

extension CatalogTarget {
    /// Default: none (the target's `params:` apply).
    public var parameters: [String: String] { [:] }
}

extension TargetType {
    /// How a target written in code is named in errors and in ``TargetStubs``'s lists:
    /// `Type.case` for an enum case (`GitHub.zen`, `GitHub.userProfile("octocat")`).
    package var codeName: String {
        let type = String(describing: Swift.type(of: self))
        let value = String(describing: self)
        return value.hasPrefix(type) ? value : type + "." + value
    }

    /// `baseURL` joined with `path`, as Moya joins them (`appendingPathComponent`; the base URL
    /// alone for an empty path); a ``FileTarget``'s URL as its file built it.
    package var requestURL: URL {
        if let file = self as? FileTarget { return file.url }
        return path.isEmpty ? baseURL : baseURL.appendingPathComponent(path)
    }

    /// The request this target sends, built by the one factory (`RequestBuilder`, as a target
    /// file's): ``requestURL``, `method`, `headers` (by name), the task's body — `requestData`'s
    /// bytes as they are, `uploadFile`'s file streamed with a Content-Type from its extension —
    /// the `User-Agent` every request names and a 60 s timeout. A ``FileTarget``'s request as its
    /// catalogue built it.
    /// - Throws: ``TargetsError/unsupported(target:reason:)`` for `uploadMultipart` (it names the
    ///   parts only: send multipart from a target file).
    package func preparedRequest() throws(TargetsError) -> PreparedRequest {
        if let file = self as? FileTarget { return file.request }
        let name = codeName
        var body: RequestTask.Body?
        switch task {
        case .requestPlain, .requestData: break
        case .uploadFile(let file): body = .upload(file.path, mark: Mark(line: 0, column: 0))
        case .uploadMultipart:
            throw .unsupported(target: name, reason: "uploadMultipart names the parts only: send a multipart body from a target file (task: { multipart: })")
        }
        let fields = (headers ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }.map { HeaderField($0.key, $0.value) }
        let endpoint = APIEndpoint.Endpoint(name: name, url: requestURL.absoluteString, method: method.rawValue, headers: fields,
                                            task: RequestTask(body: body), timeout: Service.defaultTimeout,
                                            validation: validationType.validation, file: "")
        var request: PreparedRequest
        do throws(APIError) {
            request = try RequestBuilder.build(endpoint)
        } catch {
            throw TargetsError(error, target: name)
        }
        if case .requestData(let data) = task { request.body = .data(data) }
        return request
    }
}

extension TargetCatalog {
    /// The request `target` sends and its name: a ``FileTarget``'s as built; a target written in
    /// code built by the factory (``TargetType/preparedRequest()``), then through ``endpointClosure``.
    package func request(for target: some TargetType) throws(TargetsError) -> (name: String, request: PreparedRequest) {
        if let file = target as? FileTarget { return (file.name, file.request) }
        let name = target.codeName
        return (name, endpointClosure(Endpoint(targetName: name, request: try target.preparedRequest())).request)
    }
}
