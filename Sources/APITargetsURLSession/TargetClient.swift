import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
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
///
/// Redirects and cookies go as in one `apicli` run: the client follows a redirect itself (at most
/// 10; not at all for a target with `followRedirects: false`, whose 3xx is the response), never
/// carries a credential to another origin, and keeps the cookies of its responses (a redirect's
/// too) in a jar of its own, in memory, under the rules of `apicli`'s jar (a rule's
/// `cookies: false` neither sends nor stores): Foundation's `HTTPCookieStorage` is not used. The
/// target's timeout bounds the whole exchange, redirects included.
public struct TargetClient: Sendable {
    /// Where the targets come from (nil: a client of targets written in code only).
    public let catalog: TargetCatalog?
    private let sender: Sender

    /// A client sending the targets of `catalog` with `session`'s configuration (its protocol
    /// classes, such as ``TargetStubs/session()``'s, timeouts, proxies and headers), or with
    /// `URLSessionConfiguration.default`'s. The client sends through a session of its own made
    /// from that configuration, whose delegate hands every redirect back to it (`session`'s
    /// delegate is not called); `URLSession.shared` itself is not used.
    public init(catalog: TargetCatalog, session: URLSession? = nil) {
        self.catalog = catalog
        var settings = catalog.workspace.settings
        settings.cookies = CookieJar()
        sender = Sender(configuration: session?.configuration ?? .default, settings: settings)
    }

    /// A client of targets written in code only (your own `TargetType`, as Moya's), without a
    /// catalogue of files: as ``init(catalog:session:)``, with no endpoint closure.
    public init(session: URLSession? = nil) {
        catalog = nil
        sender = Sender(configuration: session?.configuration ?? .default, settings: RunSettings())
    }

    /// The catalogue, or the error that this client has none.
    private func files(for name: String) throws(TargetsError) -> TargetCatalog {
        guard let catalog else {
            throw .invalid([TargetsProblem(Diagnostic(file: nil, mark: nil, message: "\(name): this client has no target files",
                                                      hint: "make it with TargetClient(catalog:) to send the targets of a catalogue"))])
        }
        return catalog
    }

    /// Sends `name` (`service.target`) with `params` for its `{placeholders}`.
    /// - Throws: `TargetsError.rejected` naming every failed
    ///   expectation; `TargetsError.network` and
    ///   `TargetsError.timedOut` when no response came; `TargetsError.invalid`
    ///   when the target cannot be built.
    public func send(_ name: String, params: [String: String] = [:]) async throws(TargetsError) -> TargetResponse {
        try await send(files(for: name).target(name, parameters: params))
    }

    /// Sends the target `target` names, with its parameters.
    public func send(_ target: some CatalogTarget) async throws(TargetsError) -> TargetResponse {
        try await send(files(for: target.targetName).target(target))
    }

    /// Sends a built target.
    public func send(_ target: FileTarget) async throws(TargetsError) -> TargetResponse {
        try await send(target.request, name: target.name, expect: target.call.target.expect,
                       validation: target.call.endpoint.validation)
    }

    /// Sends a target written in code (your own `TargetType`, as Moya's): its request built by the
    /// one factory (`baseURL` + `path`, `method`, `headers`, `task`), mapped by the catalogue's
    /// `endpointClosure` (when the client has a catalogue), and judged by its `validationType`.
    /// - Throws: as ``send(_:params:)``; `TargetsError.unsupported` for an
    ///   `uploadMultipart` task.
    public func send<Target: TargetType>(_ target: Target) async throws(TargetsError) -> TargetResponse {
        if let file = target as? FileTarget { return try await send(file) }
        let (name, request): (String, PreparedRequest)
        if let catalog {
            (name, request) = try catalog.request(for: target)
        } else {
            (name, request) = (target.codeName, try target.preparedRequest())
        }
        return try await send(request, name: name, expect: nil, validation: target.validationType.validation)
    }

    /// The value of the `Cookie` header the client's jar sends to `url` (nil: none).
    public func cookies(for url: URL) -> String? {
        sender.settings.cookies.header(for: url)
    }

    /// Sends `request` through the redirect loop and the jar, and judges the last response.
    func send(_ request: PreparedRequest, name: String, expect: Expectations?, validation: Validation) async throws(TargetsError) -> TargetResponse {
        let start = DispatchTime.now()
        var failure: URLError?
        let response: Response
        // The target's timeout bounds the whole exchange, redirects included, as for `apicli call`
        // (URLSession's own is an idle timeout): at the deadline the running hop is cancelled.
        let holder = Canceller()
        do {
            response = try await Deadline.bound(request.timeout, onTimeout: { holder.cancel() }) { () async throws -> Response in
                try await sender.settings.follow(request) { (sent, _) async throws(APIError) -> Exchanged in
                    do {
                        return try await sender.exchange(sent, holder: holder)
                    } catch let error as URLError {
                        failure = error
                        throw .network(.other(error.localizedDescription))
                    } catch let error as APIError {
                        throw error
                    } catch {
                        throw .network(.other("\(error)"))
                    }
                }
            }
        } catch {
            let error = error as? APIError ?? .network(.other("\(error)"))
            if case .timedOut = error { throw .timedOut(target: name, seconds: request.timeout) }
            if let failure {
                if failure.code == .timedOut { throw .timedOut(target: name, seconds: request.timeout) }
                throw .network(target: name, message: failure.localizedDescription, code: failure.code.rawValue)
            }
            if case .invalidInput = error { throw TargetsError(error, target: name) }
            throw .network(target: name, message: error.summary, code: -1)
        }
        let duration = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        var judged = response
        judged.duration = duration
        let verdict = Verdict.judge(.success(judged), expect: expect, validation: validation)
        guard verdict.passed else {
            throw .rejected(target: name, status: response.status, failures: verdict.messages)
        }
        return TargetResponse(targetName: name, statusCode: response.status,
                              headers: response.headers.map { HTTPHeader(name: $0.name, value: $0.value) },
                              data: response.body, duration: duration)
    }
}

/// The client's own session (the given configuration, Foundation's cookie storage off) and its
/// delegate, which hands every redirect back: `RunSettings.follow` decides what follows, as for
/// `apicli call`. Invalidated when the last copy of the client goes.
final class Sender: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let settings: RunSettings
    private var session: URLSession!

    init(configuration: URLSessionConfiguration, settings: RunSettings) {
        self.settings = settings
        super.init()
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    /// One hop: `request` as it is (its `Cookie` the jar's), the response and whether it is a
    /// redirect to follow.
    /// `holder` cancels it (the deadline).
    func exchange(_ request: PreparedRequest, holder: Canceller) async throws -> Exchanged {
        var wire = try URLRequest(prepared: request)
        wire.httpShouldHandleCookies = false
        let (data, http): (Data, HTTPURLResponse) = try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: wire) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: (data ?? Data(), http))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }
            holder.set { task.cancel() }
            task.resume()
        }
        let headers = HeaderField.fields(ofFoundation: http.allHeaderFields)
        let follows = Redirect.follows(status: http.statusCode, location: headers.value(of: "Location"), after: request)
        return Exchanged(Response(status: http.statusCode, headers: headers, body: data, duration: 0), follows: follows)
    }
}
