#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `targets/apicli.yaml`, the project file: defaults, rules and environments for every service.
/// It is not a service; `Catalog` skips it.
public struct Project: Sendable {
    public static let fileNames = ["apicli.yaml", "apicli.yml"]

    public var file: String?
    public var headers: [Header] = []
    public var timeout: Double?
    public var validation: Validation?
    public var auth: Auth?
    /// Matched against `service.target`.
    public var rules: [Rule] = []
    public var environments: [Environment] = []
    /// `load: { thresholds: … }`: thresholds over the whole of an `apicli load` run.
    public var load: LoadSettings? = nil

    public init() {}

    /// The project file of `directory`, or an empty project when there is none.
    public static func load(directory: String) throws(APIError) -> Project {
        for name in fileNames {
            let path = Path.join(directory, name)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            return try decode([UInt8](data), file: path)
        }
        return Project()
    }

    public static func decode(_ bytes: [UInt8], file: String) throws(APIError) -> Project {
        let root: Node?
        do {
            root = try YAMLParser.parse(bytes)
        } catch {
            throw .invalid(Diagnostic(file: file, error))
        }
        var project = Project()
        project.file = file
        guard let root, !root.isNull else { return project }
        var decoder = ServiceDecoder(file: file)
        decoder.project(root, into: &project)
        if decoder.reader.diagnostics.isEmpty { return project }
        throw .invalidInput(decoder.reader.diagnostics)
    }
}

extension ServiceDecoder {
    mutating func project(_ root: Node, into project: inout Project) {
        guard let entries = reader.mapping(root, "apicli.yaml", known: TargetFile.Keys.project) else { return }
        for e in entries {
            switch e.key {
            case "headers": project.headers = headers(e.value, "the project's headers") ?? []
            case "timeout": project.timeout = reader.duration(e.value, "timeout", allowZero: false)
            case "validate": project.validation = validation(e.value)
            case "auth": project.auth = auth(e.value, "the project")
            case "rules": project.rules = rules(e.value)
            case "environments": project.environments = environments(e.value)
            case "load": project.load = load(e.value, target: nil)
            default: break  // doc
            }
        }
    }
}
