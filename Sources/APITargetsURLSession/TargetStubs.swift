import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
import APITargetsKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers `URLSession` requests with the samples of a catalogue, as `apicli mock` does over HTTP:
/// a request whose method and path match a target (`GET /users/{name}`; a `HEAD` matches a `GET`
/// target too, and gets its sample's head without the body) gets the target's sample
/// (a named one when the test chose it), after its `delay:`; an `error:` sample fails as a
/// `URLError`; a request that matches no target fails loudly, naming the closest targets.
/// Works with any code built on URLSession: give it ``session()`` (or ``configuration(_:)``), or
/// ``install()`` the stubs for `URLSession.shared` too.
///
/// ```swift
/// let stubs = try TargetStubs(catalog)
/// try stubs.use(sample: "notFound", for: "httpbin.status")
/// let (data, response) = try await stubs.session().data(from: url)
/// ```
///
/// One set of stubs answers at a time (the last one installed; `URLProtocol` classes are
/// process-wide): run tests that stub one after another, as XCTest does.
public final class TargetStubs: @unchecked Sendable {
    /// How stubbed requests are answered, as Moya's `StubBehavior`.
    public enum Behavior: Sendable, Equatable {
        /// After each sample's `delay:` (the default); a delay beyond the request's timeout is a
        /// timeout (`URLError.timedOut`), as a server that slow would be.
        case sampleDelay
        /// At once, whatever `delay:` says.
        case immediate
        /// After `seconds`, whatever `delay:` says.
        case delayed(seconds: TimeInterval)
        /// Not stubbed: requests go to the network.
        case never
    }

    struct Route {
        var route: TargetRoute
        var bindings: Bindings
    }

    /// What tests change and read while requests are answered.
    struct State {
        var chosen: [String: String] = [:]
        var behavior: Behavior
        var answered: [String] = []
        var unmatched: [String] = []
    }

    /// A target written in code (``stubbing``): its method, its URL's path (literal) and its `sampleData`.
    struct CodeRoute {
        var name: String
        var method: String
        var path: String
        var parts: [String]
        var sample: Data
        var label: String { "\(method) \(path)" }
    }

    let catalog: TargetCatalog?
    let routes: [Route]
    let coded: [CodeRoute]
    private let state: Locked<State>

    /// Stubs for every target of `catalog` that has a sample (or for the targets `targets` names),
    /// and for the targets written in code `stubbing` lists (see ``init(stubbing:behavior:)``).
    /// The requests are never sent, so a `${VAR}` that only feeds them need not be set; one their
    /// samples use must.
    /// - Throws: `TargetsError.invalid` when a route cannot be built, when `targets` names an
    ///   unknown target, and when two targets answer the same requests (the same method and path
    ///   template, as `apicli mock` refuses them): one problem per pair, at the later target's
    ///   `file:line`, naming both.
    public convenience init(_ catalog: TargetCatalog, targets: [String]? = nil, stubbing: [any TargetType] = [],
                            behavior: Behavior = .sampleDelay) throws(TargetsError) {
        try self.init(catalog: catalog, targets: targets, stubbing: stubbing, behavior: behavior)
    }

    /// Stubs for targets written in code (your own `TargetType`, as Moya's `stubClosure` answers
    /// them): a request with a target's method and its URL's path (`baseURL` + `path`; the query is
    /// not compared) gets status 200 and the target's `sampleData`. List each value a test sends
    /// (`[GitHub.zen, GitHub.userProfile("octocat")]`).
    /// - Throws: `TargetsError.invalid` when two of them answer the same method and path.
    public convenience init(stubbing targets: [any TargetType], behavior: Behavior = .sampleDelay) throws(TargetsError) {
        try self.init(catalog: nil, targets: nil, stubbing: targets, behavior: behavior)
    }

    private init(catalog: TargetCatalog?, targets: [String]?, stubbing: [any TargetType], behavior: Behavior) throws(TargetsError) {
        self.catalog = catalog
        state = Locked(State(behavior: behavior))
        var selected: [(Service, Target)] = []
        if let catalog, let targets {
            for name in targets { selected.append(try catalog.find(name)) }
        } else if let catalog {
            selected = catalog.catalog.services.flatMap { service in service.targets.map { (service, $0) } }
        }
        var routes: [Route] = []
        if let workspace = catalog?.workspace.offline() {
            for (service, target) in selected where !target.allSamples.isEmpty {
                do throws(APIError) {
                    let (route, bindings) = try workspace.route(for: target, in: service)
                    routes.append(Route(route: route, bindings: bindings))
                } catch {
                    throw TargetsError(error, target: target.qualifiedName)
                }
            }
        }
        // The stubs do not pick a GraphQL operation by the request's body: two on one endpoint conflict.
        let (_, conflicts) = TargetRoute.conflicts(routes.map(\.route), operations: false) { a, b in
            "stub one of them (TargetStubs(catalog, targets: [...]) without \(b.target.qualifiedName) or \(a.target.qualifiedName)), or change a path"
        }
        if !conflicts.isEmpty { throw .invalid(conflicts.map(TargetsProblem.init)) }
        // The most specific first (`/users/me` before `/users/{name}`), as `apicli mock` serves them.
        self.routes = TargetRoute.mostSpecificFirst(routes, \.route)
        coded = try Self.codeRoutes(stubbing, besides: self.routes)
    }

    /// The routes of targets written in code; two with one method and path (or one a file target's
    /// literal route answers too) are refused, naming both.
    private static func codeRoutes(_ targets: [any TargetType], besides files: [Route]) throws(TargetsError) -> [CodeRoute] {
        var out: [CodeRoute] = []
        var problems: [TargetsProblem] = []
        for target in targets {
            let url = target.requestURL
            let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
            let parts = path.split(separator: "/").map { String($0).removingPercentEscapes() ?? String($0) }
            let route = CodeRoute(name: target.codeName, method: target.method.rawValue, path: "/" + parts.joined(separator: "/"),
                                  parts: parts, sample: target.sampleData)
            let other = out.first { $0.label == route.label }?.name
                ?? files.first { !$0.route.hasCaptures && $0.route.label == route.label }?.route.target.qualifiedName
            if let other {
                problems.append(TargetsProblem(Diagnostic(file: nil, mark: nil, message: "route conflict: \(route.name) and \(other) both answer \(route.label)",
                                                          hint: "stub one of them, or change a path")))
            }
            out.append(route)
        }
        if !problems.isEmpty { throw .invalid(problems) }
        return out
    }

    deinit { uninstall() }

    /// How requests are answered from now on.
    public var behavior: Behavior {
        get { state.current.behavior }
        set { state.withLock { $0.behavior = newValue } }
    }

    /// Answer `target` (`service.target`) with its sample `sample` (`samples:` in the file; nil:
    /// its default `sample:`) from now on.
    /// - Throws: `TargetsError.invalid` for an unknown target or sample name, with the closest.
    public func use(sample: String?, for target: String) throws(TargetsError) {
        guard let catalog else {
            throw .invalid([TargetsProblem(Diagnostic(file: nil, mark: nil, message: "no target named '\(target)' has samples",
                                                      hint: "targets written in code answer with their sampleData"))])
        }
        let (service, found) = try catalog.find(target)
        if let sample, found.sample(named: sample) == nil {
            let names = found.samples.map(\.name)
            throw .invalid([TargetsProblem(Diagnostic(file: service.file, mark: found.mark,
                message: "\(found.qualifiedName) has no sample named '\(sample)'",
                hint: Suggestions.hint(for: sample, in: names) ?? "its samples: " + (names.isEmpty ? "none" : names.joined(separator: ", "))))])
        }
        state.withLock { $0.chosen[found.qualifiedName] = sample }
    }

    /// The targets that answered, in order (`service.target`, and `:sample` for a named one).
    public var answered: [String] { state.current.answered }

    /// Every request no target matched, with the message it failed with.
    public var unmatched: [String] { state.current.unmatched }

    /// `base` (an ephemeral configuration by default) with the stubbing protocol first; installs
    /// these stubs.
    public func configuration(_ base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        install()
        base.protocolClasses = [StubURLProtocol.self] + (base.protocolClasses ?? [])
        return base
    }

    /// A session answered by these stubs (installed).
    public func session() -> URLSession {
        URLSession(configuration: configuration())
    }

    /// These stubs answer from now on, `URLSession.shared`'s requests too (where the platform lets
    /// a registered `URLProtocol` see them).
    public func install() {
        StubURLProtocol.active.withLock { $0 = self }
        _ = URLProtocol.registerClass(StubURLProtocol.self)
    }

    /// These stubs answer no more (nothing, if others were installed since).
    public func uninstall() {
        StubURLProtocol.active.withLock { if $0 === self { $0 = nil } }
    }

    // MARK: Answering

    /// What a request gets: a response and its body, or an error, after a delay.
    enum Answer: Sendable {
        case response(HTTPURLResponse, Data, delay: TimeInterval)
        case failure(URLError, delay: TimeInterval)
    }

    func answer(_ request: URLRequest) -> Answer {
        let method = request.httpMethod ?? "GET"
        guard let url = request.url else { return .failure(URLError(.badURL), delay: 0) }
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        if let code = codeMatch(method: method, parts: parts) {
            let behavior = state.withLock { s in
                s.answered.append(code.name)
                return s.behavior
            }
            let http = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
            let delay: TimeInterval = if case .delayed(let seconds) = behavior { seconds } else { 0 }
            return .response(http, method == "HEAD" ? Data() : code.sample, delay: delay)
        }
        guard let (index, captures) = TargetRoute.firstMatch(routes.map(\.route), method: method, parts: parts) else {
            let compared = String("\(method) \(path)".prefix(TargetRoute.comparedLength))
            let closest = (TargetRoute.closest(to: method, path: path, parts: parts, among: routes.map(\.route))
                .map { ("\($0.target.qualifiedName) (\($0.label))", Suggestions.distance(compared, String($0.filled(with: parts).prefix(TargetRoute.comparedLength)))) }
                + coded.map { ("\($0.name) (\($0.label))", Suggestions.distance(compared, String($0.label.prefix(TargetRoute.comparedLength)))) })
                .sorted { $0.1 < $1.1 }.prefix(3).map(\.0)
            let message = "no target matches \(method) \(path)" + (closest.isEmpty ? "" : "; closest: " + closest.joined(separator: ", "))
            state.withLock { $0.unmatched.append(message) }
            return .failure(URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: url]), delay: 0)
        }
        let route = routes[index]
        let target = route.route.target
        let (name, behavior) = state.withLock { ($0.chosen[target.qualifiedName], $0.behavior) }
        guard let sample = target.sample(named: name) ?? (name == nil ? target.samples.first?.sample : nil) else {
            return .failure(URLError(.resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: "\(target.qualifiedName) has no default sample: choose one with use(sample:for:)"]), delay: 0)
        }
        state.withLock { $0.answered.append(target.qualifiedName + (name.map { ":\($0)" } ?? "")) }
        let stub = Workspace.stub(sample, bindings: route.bindings, captures: captures, file: route.route.service.file)
        let timeout = request.timeoutInterval
        let delay: TimeInterval
        switch behavior {
        case .sampleDelay: delay = min(sample.delay, timeout)
        case .immediate, .never: delay = 0
        case .delayed(let seconds): delay = seconds
        }
        if behavior == .sampleDelay, let failure = stub.failure(timeout: timeout) {
            return .failure(Self.urlError(failure, url: url), delay: delay)
        } else if let error = sample.error {
            return .failure(Self.urlError(.network(.stubbed(error)), url: url), delay: delay)
        }
        do throws(APIError) {
            let response = try stub.response()
            var fields: [String: String] = [:]
            for header in response.headers { fields[header.name] = fields[header.name].map { $0 + ", " + header.value } ?? header.value }
            let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)!
            return .response(http, method == "HEAD" ? Data() : response.body, delay: delay)
        } catch {
            return .failure(URLError(.cannotParseResponse, userInfo: [NSLocalizedDescriptionKey: "\(target.qualifiedName): the sample cannot be rendered: \(error.summary)"]), delay: 0)
        }
    }

    /// The target written in code that answers `method` at `parts` (a `HEAD` by a `GET` one too).
    private func codeMatch(method: String, parts: [Substring]) -> CodeRoute? {
        guard !coded.isEmpty else { return nil }
        let decoded = parts.map { String($0).removingPercentEscapes() ?? String($0) }
        for method in TargetRoute.answering(method) {
            if let found = coded.first(where: { $0.method == method && $0.parts == decoded }) { return found }
        }
        return nil
    }

    /// A sample's failure as URLSession reports one: its `error:` text, with the code its words name.
    static func urlError(_ error: APIError, url: URL) -> URLError {
        if case .timedOut = error {
            return URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "The request timed out.", NSURLErrorFailingURLErrorKey: url])
        }
        var text = error.summary
        if case .network(.stubbed(let message)) = error { text = message }
        return URLError(code(for: text), userInfo: [NSLocalizedDescriptionKey: text, NSURLErrorFailingURLErrorKey: url])
    }

    /// The `URLError` code an `error:` text names (`connection refused`, `offline`, …);
    /// `.networkConnectionLost` when it names none.
    static func code(for text: String) -> URLError.Code {
        let words = text.lowercased()
        let table: [(String, URLError.Code)] = [
            ("offline", .notConnectedToInternet), ("internet", .notConnectedToInternet),
            ("refused", .cannotConnectToHost), ("could not connect", .cannotConnectToHost),
            ("timed out", .timedOut), ("timeout", .timedOut),
            ("dns", .cannotFindHost), ("host", .cannotFindHost),
            ("certificate", .serverCertificateUntrusted), ("tls", .secureConnectionFailed), ("ssl", .secureConnectionFailed),
            ("cancel", .cancelled),
        ]
        return table.first { words.contains($0.0) }?.1 ?? .networkConnectionLost
    }
}
