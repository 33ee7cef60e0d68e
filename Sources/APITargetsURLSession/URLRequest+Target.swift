import APISupport
import APIDiagnostics
import APIEndpoint
import APITransport
import APITargetsKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The request `target` sends, as the one factory built it (the same method, URL, headers
    /// and body bytes `apicli show` prints for the file): headers in their order (a repeated name
    /// joined with `, `), a file or multipart body read into `httpBody`, the target's timeout.
    /// - Throws: `TargetsError.invalid` when a body file cannot be read.
    public init(target: FileTarget) throws(TargetsError) {
        do throws(APIError) {
            try self.init(prepared: target.request)
        } catch {
            throw TargetsError(error, target: target.name)
        }
    }

    /// The request a target written in code sends (your own `TargetType`, as Moya's), built by the
    /// one factory: `baseURL` + `path` (Moya's `appendingPathComponent`), `method`, `headers`, the
    /// task's body, the `User-Agent` apicli sends and a 60 s timeout.
    /// - Throws: `TargetsError.unsupported` for an `uploadMultipart` task; `TargetsError.invalid`
    ///   when an upload's file cannot be read.
    public init<Target: TargetType>(target: Target) throws(TargetsError) {
        let request = try target.preparedRequest()
        do throws(APIError) {
            try self.init(prepared: request)
        } catch {
            throw TargetsError(error, target: target.codeName)
        }
    }

    /// The request the factory prepared, with Foundation's cookie handling as the request says
    /// (`cookies: false` turns it off).
    init(prepared request: PreparedRequest) throws(APIError) {
        self.init(url: request.url)
        httpMethod = request.method
        timeoutInterval = request.timeout
        httpShouldHandleCookies = request.cookies
        for header in request.headers {
            addValue(header.value, forHTTPHeaderField: header.name)
        }
        if let body = request.body {
            httpBody = try SizedBody(body).data()
        }
    }
}

extension TargetCatalog {
    /// The `URLRequest` of `name` (`service.target`) built with `parameters`.
    public func urlRequest(_ name: String, parameters: [String: String] = [:]) throws(TargetsError) -> URLRequest {
        try URLRequest(target: target(name, parameters: parameters))
    }

    /// The `URLRequest` of the target `target` names.
    public func urlRequest(_ target: some CatalogTarget) throws(TargetsError) -> URLRequest {
        try URLRequest(target: self.target(target))
    }
}
