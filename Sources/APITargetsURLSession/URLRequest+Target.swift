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
        let request = target.request
        self.init(url: request.url)
        httpMethod = request.method
        timeoutInterval = request.timeout
        httpShouldHandleCookies = request.cookies
        for header in request.headers {
            addValue(header.value, forHTTPHeaderField: header.name)
        }
        if let body = request.body {
            do throws(APIError) {
                httpBody = try SizedBody(body).data()
            } catch {
                throw TargetsError(error, target: target.name)
            }
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
