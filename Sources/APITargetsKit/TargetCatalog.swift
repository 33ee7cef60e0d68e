import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import Foundation

/// The targets of a folder (or of a bundle's resources), loaded once with their project file
/// (`apicli.yaml`), environments and `.env` values: where every ``FileTarget`` comes from.
///
/// ```swift
/// let catalog = try TargetCatalog(folder: URL(fileURLWithPath: "targets"), environment: "staging",
///                                 variables: ["API_TOKEN": token])
/// let zen = try catalog.target("github.zen")
/// ```
///
/// A library never reads the process environment unless asked (`processEnvironment: true`):
/// variables come from the folder's `.env`, the `envFiles`, then `variables`, which win.
public struct TargetCatalog: Sendable {
    package let workspace: Workspace
    package let catalog: Catalog

    /// Applied to every target as it is built (Moya's `endpointClosure`): add or remove headers,
    /// change the timeout. The identity by default.
    public var endpointClosure: @Sendable (Endpoint) -> Endpoint

    /// Loads every target file of `folder` (`*.yaml`, `*.yml`; the project file `apicli.yaml`).
    /// - Parameters:
    ///   - folder: the targets folder.
    ///   - environment: the environment to use (`environments:` of the files), as `--env`.
    ///   - variables: values for `${VAR}`s; they win over the `.env` files.
    ///   - envFiles: more `.env` files, read after the folder's own `.env`.
    ///   - processEnvironment: also read the process environment (below `variables`).
    ///   - baseURL: send every target here instead (`--base-url`): a local server in tests.
    ///   - endpointClosure: applied to every target as it is built (``endpointClosure``).
    /// - Throws: ``TargetsError/invalid(_:)`` with every problem of every file, as `apicli validate` finds them.
    public init(folder: URL, environment: String? = nil, variables: [String: String] = [:], envFiles: [URL] = [],
                processEnvironment: Bool = false, baseURL: URL? = nil,
                endpointClosure: @escaping @Sendable (Endpoint) -> Endpoint = { $0 }) throws {
        var overrides = EndpointResolver.Overrides()
        overrides.baseURL = baseURL?.absoluteString
        let options = Workspace.Options(directory: folder.path, environmentName: environment,
                                        envFiles: envFiles.map(\.path), overrides: overrides)
        var given = processEnvironment ? ProcessInfo.processInfo.environment : [:]
        given.merge(variables) { _, explicit in explicit }
        // `given` stands where the command line's process environment does: it wins over the files.
        (workspace, catalog) = try Self.load(options, given)
        self.endpointClosure = endpointClosure
        if let environment, !Self.declares(environment, project: workspace.project, catalog: catalog) {
            let known = Set(workspace.project.environments.map(\.name) + catalog.services.flatMap { $0.environments.map(\.name) })
            throw TargetsError.invalid([TargetsProblem(Diagnostic(file: nil, mark: nil, message: "unknown environment '\(environment)'",
                                                      hint: Suggestions.hint(for: environment, in: known.sorted())
                                                        ?? "known environments: " + (known.isEmpty ? "none" : known.sorted().joined(separator: ", "))))])
        }
    }

    /// The targets of a folder of `bundle`'s resources (`Bundle.module` in a package whose target
    /// declares `resources: [.copy("targets")]`).
    /// - Parameters:
    ///   - bundle: the bundle whose resources hold the folder.
    ///   - folder: the folder's name among them.
    ///   - environment: the environment to use, as `--env`.
    ///   - variables: values for `${VAR}`s; they win over the folder's `.env`.
    ///   - baseURL: send every target here instead (`--base-url`).
    ///   - endpointClosure: applied to every target as it is built (``endpointClosure``).
    /// - Throws: ``TargetsError/invalid(_:)`` when the folder is not there or its files have problems.
    public init(bundle: Bundle, folder: String = "targets", environment: String? = nil, variables: [String: String] = [:],
                baseURL: URL? = nil, endpointClosure: @escaping @Sendable (Endpoint) -> Endpoint = { $0 }) throws {
        guard let url = bundle.url(forResource: folder, withExtension: nil) else {
            throw TargetsError.invalid([TargetsProblem(Diagnostic(file: nil, mark: nil, message: "no folder '\(folder)' in the bundle's resources (\(bundle.bundlePath))",
                                                      hint: "declare it in the target's resources: [.copy(\"\(folder)\")]"))])
        }
        try self.init(folder: url, environment: environment, variables: variables, baseURL: baseURL, endpointClosure: endpointClosure)
    }

    /// The workspace and its catalogue. (The initializers throw untyped, always a `TargetsError`:
    /// with `throws(TargetsError)` Swift 6.3.1 built initializers that crashed when they threw.)
    private static func load(_ options: Workspace.Options, _ given: [String: String]) throws(TargetsError) -> (Workspace, Catalog) {
        do throws(APIError) {
            let workspace = try Workspace(options, process: given)
            return (workspace, try workspace.catalog())
        } catch {
            throw TargetsError(error, target: options.directory)
        }
    }

    private static func declares(_ environment: String, project: Project, catalog: Catalog) -> Bool {
        project.environments.contains { $0.name == environment }
            || catalog.services.contains { $0.environments.contains { $0.name == environment } }
    }

    /// Every `service.target`, in file and declaration order.
    public var targetNames: [String] {
        catalog.services.flatMap { service in service.targets.map(\.qualifiedName) }
    }

    /// What the files say that works but is likely a mistake (`method: GTE`).
    public var warnings: [TargetsProblem] {
        catalog.services.flatMap { $0.targets.flatMap(\.warnings) }.map(TargetsProblem.init)
    }

    /// `name` (`service.target`) built with `parameters` for its `{placeholders}` (they win over
    /// its `params:`), then through ``endpointClosure``.
    /// - Throws: ``TargetsError/invalid(_:)`` for an unknown name (with the closest names), an
    ///   unset `${VAR}`, a missing `{param}`; ``TargetsError/unsupported(target:reason:)`` for
    ///   OAuth2, Digest or AWS auth and WebSocket tasks.
    public func target(_ name: String, parameters: [String: String] = [:]) throws(TargetsError) -> FileTarget {
        let (service, target) = try find(name)
        return try build(target, in: service, parameters: parameters)
    }

    /// The target `target` names, built with its parameters.
    public func target(_ target: some CatalogTarget) throws(TargetsError) -> FileTarget {
        try self.target(target.targetName, parameters: target.parameters)
    }

    package func find(_ name: String) throws(TargetsError) -> (Service, Target) {
        do throws(APIError) {
            return try catalog.lookup(name)
        } catch {
            throw TargetsError(error, target: name)
        }
    }

    package func build(_ target: Target, in service: Service, parameters: [String: String]) throws(TargetsError) -> FileTarget {
        let name = target.qualifiedName
        let call: PreparedCall
        let base: String
        do throws(APIError) {
            call = try workspace.build(target, in: service, captured: parameters)
            base = try workspace.baseURL(for: target, in: service)
        } catch {
            throw TargetsError(error, target: name)
        }
        if call.request.websocket != nil {
            throw .unsupported(target: name, reason: "a WebSocket task (task: { websocket: }) is sent by `apicli call`, not by this library")
        }
        var request = call.request
        if let credential = call.endpoint.credential {
            guard let header = credential.staticHeader else {
                throw .unsupported(target: name, reason: "OAuth2, Digest and AWS auth are sent by `apicli call`; this library adds bearer, basic and header credentials")
            }
            if request.headers.value(of: header.name) == nil { request.headers.append(header) }
        }
        request = endpointClosure(Endpoint(targetName: name, request: request)).request
        return FileTarget(call: call, request: request, baseURL: URL(string: base) ?? request.url)
    }
}
