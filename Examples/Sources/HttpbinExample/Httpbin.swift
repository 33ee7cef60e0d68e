import APITargetsKit
import APITargetsURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The httpbin targets of apicli's targets/httpbin.yaml, named as a Moya user names endpoints.
public enum Httpbin: CatalogTarget {
    case get
    case status(Int)
    case delay(seconds: Int)
    case post

    public var targetName: String {
        switch self {
        case .get: return "httpbin.get"
        case .status: return "httpbin.status"
        case .delay: return "httpbin.delay"
        case .post: return "httpbin.post"
        }
    }

    public var parameters: [String: String] {
        switch self {
        case .status(let code): return ["code": "\(code)"]
        case .delay(let seconds): return ["seconds": "\(seconds)"]
        case .get, .post: return [:]
        }
    }
}

/// App code over URLSession that knows nothing of stubs: the tests give it a stubbed session.
public struct HttpbinService: Sendable {
    public let catalog: TargetCatalog
    public let session: URLSession

    public init(catalog: TargetCatalog, session: URLSession = .shared) {
        self.catalog = catalog
        self.session = session
    }

    /// The status code `httpbin.status` answers with.
    public func status(_ code: Int) async throws -> Int {
        let request = try catalog.urlRequest(Httpbin.status(code))
        let (_, response) = try await session.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// The `args` httpbin echoes for `httpbin.get`.
    public func arguments() async throws -> [String: String] {
        let (data, _) = try await session.data(for: try catalog.urlRequest(Httpbin.get))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (object?["args"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
    }
}

/// The targets this module ships in its resources (targets/echo.yaml), pointed at `echoURL`.
public func bundledCatalog(echoURL: String) throws -> TargetCatalog {
    try TargetCatalog(bundle: .module, variables: ["ECHO_URL": echoURL])
}

/// Endpoints written in code, as a Moya user writes them: the library builds their requests with
/// the same factory as the files', sends them and stubs them with `sampleData`.
public enum Echo: TargetType {
    case note(String)
    case ping

    /// Where the tests' local server listens (set before sending).
    nonisolated(unsafe) public static var base = URL(string: "http://127.0.0.1:1")!

    public var baseURL: URL { Self.base }
    public var path: String {
        switch self {
        case .note: return "/notes"
        case .ping: return "/ping"
        }
    }
    public var method: HTTPMethod {
        if case .note = self { return .post }
        return .get
    }
    public var task: TargetTask {
        if case .note(let text) = self { return .requestData(Data(text.utf8)) }
        return .requestPlain
    }
    public var headers: [String: String]? { ["X-App": "example"] }
    public var sampleData: Data { Data(#"{"pong":true}"#.utf8) }
    public var validationType: ValidationType { .successCodes }
}
