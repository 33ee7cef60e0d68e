import APIJSON
import APISupport
import APIYAML
import APIDiagnostics
import APITargets
/// `apicli import postman`: a Postman Collection v2.0 or v2.1 (JSON, read through the YAML layer
/// so every warning has a line and column) → service files, one per origin. Folders prefix the
/// target names (`folder-request`); `{{variables}}` become `${VARIABLES}`; auth, bodies, path
/// variables and saved responses map onto the target file; scripts are warnings.
package struct PostmanImport: Importer {
    /// The service name; default from `info.name`, else the file's name.
    package var options: CollectionOptions

    package init(options: CollectionOptions) {
        self.options = options
    }

    package func read(_ input: ImportInput) throws(APIError) -> ImportResult {
        let root = try CollectionInput.root(input)
        guard root.isMapping else {
            throw CollectionInput.bad(root, "$", "a Postman collection is a JSON object, not \(root.node.kindName)",
                                      hint: "export the collection from Postman as Collection v2.1")
        }
        if root["item"] == nil {
            let v1 = root["requests"] != nil || root["order"] != nil
            throw CollectionInput.bad(root, "$", v1 ? "this is a Postman Collection v1; only v2.0 and v2.1 are read"
                                                    : "not a Postman collection: there is no 'item' list",
                                      hint: "export the collection from Postman as Collection v2.1")
        }
        if let schema = root["info"]?["schema"]?.text, !schema.contains("v2.0"), !schema.contains("v2.1") {
            throw CollectionInput.bad(root["info"]!["schema"]!, "$.info.schema", "collection schema \(schema) is not v2.0 or v2.1",
                                      hint: "export the collection from Postman as Collection v2.1")
        }
        let file = input.name
        let title = root["info"]?["name"]?.text
        let service = try CollectionInput.serviceName(options.service, title: title, file: file)
        var mapper = PostmanMapper(root: root, service: service)
        try mapper.walk(root["item"]!, at: "$.item", folders: [], auth: nil)
        guard !mapper.requests.isEmpty else {
            throw CollectionInput.bad(root["item"]!, "$.item", "the collection has no requests to import")
        }
        var header = ["Imported from \(Path.lastComponent(file)) (Postman collection\(title.map { " '\(ImportText.oneLine($0))'" } ?? "")) by apicli import postman."]
        header += mapper.serviceAuth.notes
        let doc = CollectionDrafts.doc(CollectionInput.description(root["info"]?["description"]), folders: mapper.folderDocs)
        let drafts = CollectionDrafts.services(mapper.requests, service: service, header: header,
                                               auth: mapper.serviceAuth.auth, notes: mapper.variables.notes, doc: doc)
        let warnings = mapper.warnings + mapper.variables.warnings.map { ImportWarning(file: file, mark: nil, message: $0) }
        return ImportResult(drafts: drafts, warnings: warnings)
    }
}

/// The options of `import postman` and `import insomnia`.
package struct CollectionOptions: Sendable {
    /// The service name (of the file of the origin most requests use); default from the input's name.
    package var service: String?

    package init(service: String? = nil) {
        self.service = service
    }
}

/// What the Postman and Insomnia importers share about reading their input.
enum CollectionInput {
    static func root(_ input: ImportInput) throws(APIError) -> SpecNode {
        let node: Node?
        do { node = try YAMLParser.parse(JSONParser.escapingDEL(input.bytes)) } catch { throw .invalid(Diagnostic(file: input.name, error)) }
        guard let node else { throw .invalid(Diagnostic(file: input.name, mark: nil, message: "the file is empty")) }
        return SpecNode(node: node, file: input.name)
    }

    /// Exit 2 at `node`, naming its JSON path.
    static func bad(_ node: SpecNode, _ path: String, _ message: String, hint: String? = nil) -> APIError {
        .invalid(Diagnostic(file: node.file, mark: node.mark, message: "\(path): \(message)", hint: hint))
    }

    static func serviceName(_ given: String?, title: String?, file: String) throws(APIError) -> String {
        if let given {
            guard TargetFile.isName(given) else {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "service name '\(given)' may only hold letters, digits, '_' and '-'"))
            }
            return given
        }
        return title.flatMap(ImportNames.service) ?? ImportNames.service(Path.stem(Path.lastComponent(file))) ?? "imported"
    }

    /// A description's text: a string, or Postman's `{ content:, type: }` object.
    static func description(_ node: SpecNode?) -> String? {
        guard let node else { return nil }
        let text = node.text ?? node["content"]?.text
        return text?.trimmingWhitespace().isEmpty == false ? text : nil
    }

    /// `key`/`name` + `value` pairs of a list, leaving out `disabled: true` ones.
    static func enabled(_ list: SpecNode?, key: String = "key") -> [(key: String, value: String, node: SpecNode)] {
        (list?.items ?? []).compactMap { item in
            guard item.isMapping, item["disabled"]?.bool != true, let k = item[key]?.text else { return nil }
            return (k, item["value"]?.text ?? "", item)
        }
    }
}
