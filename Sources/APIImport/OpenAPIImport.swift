import APIDiagnostics
import APIYAML
import APITargets
/// `apicli import openapi`: a Swagger 2.0 (converted: `Swagger2`) or OpenAPI 3.0, 3.1 or 3.2
/// description (YAML or JSON) → one service file (and a second for its `webhooks`).
/// Reads only what the mapping needs, straight from the YAML layer's nodes, so every warning
/// carries the spec's file:line:col. Never prints; the executable renders the warnings.
package struct OpenAPIImport: Importer {
    package struct Options: Sendable {
        /// The service name; default from `info.title`, else the spec's file name.
        package var service: String?
        /// Only operations with one of these tags (all when empty).
        package var tags: [String]
        /// `--allow-ref-root`: folders besides the spec's own whose files a `$ref` may name.
        package var refRoots: [String]

        package init(service: String? = nil, tags: [String] = [], refRoots: [String] = []) {
            self.service = service
            self.tags = tags
            self.refRoots = refRoots
        }
    }


    package var options: Options
    /// The bytes of a file a `$ref` names (the executable passes a file reader).
    let readFile: (String) throws(APIError) -> [UInt8]

    package init(options: Options, readFile: @escaping (String) throws(APIError) -> [UInt8]) {
        self.options = options
        self.readFile = readFile
    }

    /// The description `input` (named as the user named its file), and what its `$ref`s name.
    package func read(_ input: ImportInput) throws(APIError) -> ImportResult {
        let spec = input.name
        let loader = SpecLoader(read: { [readFile] (path: String) throws(APIError) -> [UInt8] in
            if path == spec { return input.bytes }
            return try readFile(path)
        }, roots: options.refRoots)
        var root = try loader.root(spec)
        let version = try Self.version(of: root)
        var converted: [String: Node] = [:]
        if version.hasPrefix("Swagger") {
            root = loader.converting(spec) { [unowned loader] doc in Swagger2.convertFile(doc, warn: loader.warn) }
        }
        let service = try Self.serviceName(options.service, root: root, spec: spec)
        let mapper = OpenAPIMapper(loader: loader, root: root, service: service)
        var draft = mapper.service(baseURL: "")
        draft.header = [
            "Imported from \(Self.displayName(spec)) (\(version)) by apicli import openapi.",
            "Every operation is a target; samples come from the description's examples or schemas.",
        ]
        draft.targets = mapper.targets(tags: options.tags)
        var webhooks = mapper.webhooks(tags: options.tags)
        webhooks?.header = [
            "Imported from \(Self.displayName(spec)) (\(version)) by apicli import openapi: its webhooks.",
            "Each target is a request the API sends to your receiver: set \(mapper.variablePrefix)_WEBHOOK_URL to its URL",
            "(each webhook goes to that URL + /NAME; change path: to your receiver's route).",
        ]
        guard !draft.targets.isEmpty || webhooks != nil else {
            let what = options.tags.isEmpty ? "no operations" : "no operations tagged \(options.tags.joined(separator: ", "))"
            throw .invalid(Diagnostic(file: spec, mark: root["paths"]?.mark ?? root.mark,
                                      message: "the description has \(what) to import"))
        }
        if version.hasPrefix("Swagger") {
            for file in loader.files { converted[file] = loader.document(file) }
        }
        var result = ImportResult(drafts: draft.targets.isEmpty ? [] : [draft], warnings: loader.warnings,
                                  files: loader.files.sorted(), webhooks: webhooks)
        result.converted = converted
        return result
    }

    /// `OpenAPI 3.0.x`, `3.1.x`, `3.2.x` or `Swagger 2.0`; anything else is exit 2 at the
    /// `openapi:` (or `swagger:`) key.
    static func version(of root: SpecNode) throws(APIError) -> String {
        guard root.isMapping else {
            throw .invalid(Diagnostic(file: root.file, mark: root.mark, message: "an OpenAPI description is a mapping, not \(root.node.kindName)"))
        }
        if let swagger = root["swagger"] {
            guard swagger.text == "2.0" else {
                throw .invalid(Diagnostic(file: root.file, mark: swagger.mark, message: "Swagger \(swagger.text ?? "?") is not supported; only Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2"))
            }
            return "Swagger 2.0"
        }
        guard let node = root["openapi"], let v = node.text else {
            throw .invalid(Diagnostic(file: root.file, mark: root.mark, message: "not an OpenAPI description: there is no 'openapi:' version",
                                      hint: "apicli import openapi reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2 (YAML or JSON)"))
        }
        guard v.hasPrefix("3.0") || v.hasPrefix("3.1") || v.hasPrefix("3.2") else {
            throw .invalid(Diagnostic(file: root.file, mark: node.mark, message: "OpenAPI \(v) is not supported; only Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2"))
        }
        return "OpenAPI " + v
    }

    static func serviceName(_ given: String?, root: SpecNode, spec: String) throws(APIError) -> String {
        if let given {
            guard TargetFile.isName(given) else {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "service name '\(given)' may only hold letters, digits, '_' and '-'"))
            }
            return given
        }
        if let title = root["info"]?["title"]?.text, let name = ImportNames.service(title) { return name }
        let stem = displayName(spec).split(separator: ".").first.map(String.init) ?? ""
        return ImportNames.service(stem) ?? "api"
    }

    static func displayName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
