import APISupport
import APIEndpoint
import Foundation

/// One request header, in the order it is sent.
public struct HTTPHeader: Sendable, Hashable, CustomStringConvertible {
    /// The header's name, as written.
    public var name: String
    /// Its value.
    public var value: String
    /// A header `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
    /// `Name: value`.
    public var description: String { "\(name): \(value)" }
}

/// A target built into what it sends, before it becomes a `URLRequest`: what an endpoint closure
/// (``TargetCatalog/endpointClosure``, Moya's `endpointClosure`) sees and may change — add a header
/// to every target but some, change a timeout.
///
/// ```swift
/// catalog.endpointClosure = { endpoint in
///     endpoint.targetName.hasPrefix("github.") ? endpoint.adding(newHTTPHeaderFields: ["X-Trace": "1"]) : endpoint
/// }
/// ```
public struct Endpoint: Sendable {
    /// `service.target`.
    public let targetName: String
    package var request: PreparedRequest

    package init(targetName: String, request: PreparedRequest) {
        self.targetName = targetName
        self.request = request
    }

    /// The whole URL, query included.
    public var url: URL {
        get { request.url }
        set { request.url = newValue }
    }

    /// The HTTP method.
    public var method: HTTPMethod {
        get { HTTPMethod(rawValue: request.method) }
        set { request.method = newValue.rawValue }
    }

    /// The headers in the order they are sent.
    public var httpHeaderFields: [HTTPHeader] {
        get { request.headers.map { HTTPHeader(name: $0.name, value: $0.value) } }
        set { request.headers = newValue.map { HeaderField($0.name, $0.value) } }
    }

    /// Seconds.
    public var timeout: TimeInterval {
        get { request.timeout }
        set { request.timeout = newValue }
    }

    /// This endpoint with these headers set (replacing those of the same name, case-insensitively).
    public func adding(newHTTPHeaderFields fields: [String: String]) -> Endpoint {
        var out = self
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { out.request.headers.set(name, value) }
        return out
    }

    /// This endpoint without the header `name` (case-insensitive).
    public func removingHTTPHeaderField(named name: String) -> Endpoint {
        var out = self
        out.request.headers.removeAll { $0.name.lowercased() == name.lowercased() }
        return out
    }

    /// This endpoint with another timeout, in seconds.
    public func replacing(timeout: TimeInterval) -> Endpoint {
        var out = self
        out.timeout = timeout
        return out
    }
}
