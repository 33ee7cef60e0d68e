import APISupport
import APIDiagnostics
import APITargets
import APITransport
import APIVerdict
import APITargetsKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response to a target, judged and accepted.
public struct TargetResponse: Sendable {
    /// `service.target`.
    public var targetName: String
    /// The HTTP status.
    public var statusCode: Int
    /// As URLSession gives them (sorted by name).
    public var headers: [HTTPHeader]
    /// The body.
    public var data: Data
    /// Seconds from sending to the whole body.
    public var duration: TimeInterval

    /// The value of header `name` (case-insensitive).
    public func value(forHTTPHeaderField name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A small async client over URLSession for the targets of a catalogue: it builds the request
/// with the one factory, sends it, and judges the response with the target's `expect:` (status,
/// headers, JSONPath, body, schema, maxTime; else its `validate:`) as `apicli check` does.
///
/// ```swift
/// let client = TargetClient(catalog: catalog)
/// let profile = try await client.send("github.userProfile", params: ["name": "octocat"])
/// ```
public struct TargetClient: Sendable {
    /// Where the targets come from.
    public let catalog: TargetCatalog
    /// What sends them.
    public let session: URLSession

    /// A client sending the targets of `catalog` through `session`: `URLSession.shared` by
    /// default; a stubbed one (``TargetStubs/session()``) in tests.
    public init(catalog: TargetCatalog, session: URLSession = .shared) {
        self.catalog = catalog
        self.session = session
    }

    /// Sends `name` (`service.target`) with `params` for its `{placeholders}`.
    /// - Throws: `TargetsError.rejected` naming every failed
    ///   expectation; `TargetsError.network` and
    ///   `TargetsError.timedOut` when no response came; `TargetsError.invalid`
    ///   when the target cannot be built.
    public func send(_ name: String, params: [String: String] = [:]) async throws(TargetsError) -> TargetResponse {
        try await send(catalog.target(name, parameters: params))
    }

    /// Sends the target `target` names, with its parameters.
    public func send(_ target: some CatalogTarget) async throws(TargetsError) -> TargetResponse {
        try await send(catalog.target(target))
    }

    /// Sends a built target.
    public func send(_ target: FileTarget) async throws(TargetsError) -> TargetResponse {
        let request = try URLRequest(target: target)
        let start = DispatchTime.now()
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            if error.code == .timedOut { throw .timedOut(target: target.name, seconds: request.timeoutInterval) }
            throw .network(target: target.name, message: error.localizedDescription, code: error.code.rawValue)
        } catch {
            throw .network(target: target.name, message: "\(error)", code: -1)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .network(target: target.name, message: "the response is not HTTP", code: URLError.badServerResponse.rawValue)
        }
        let headers = http.allHeaderFields.compactMap { key, value -> HTTPHeader? in
            guard let name = key as? String else { return nil }
            return HTTPHeader(name: name, value: "\(value)")
        }.sorted { $0.name.lowercased() < $1.name.lowercased() }
        let duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let judged = Response(status: http.statusCode, headers: headers.map { HeaderField($0.name, $0.value) }, body: data,
                              duration: duration)
        let verdict = Verdict.judge(.success(judged), expect: target.call.target.expect, validation: target.call.endpoint.validation)
        guard verdict.passed else {
            throw .rejected(target: target.name, status: http.statusCode, failures: verdict.messages)
        }
        return TargetResponse(targetName: target.name, statusCode: http.statusCode, headers: headers, data: data, duration: duration)
    }
}
