import Foundation
@testable import APIJSON
@testable import APISchema
@testable import APITransport
@testable import APIVerdict
@testable import APIImport

/// The official JSON-Schema-Test-Suite (json-schema-org), read from `../shared/json-schema-test-suite`
/// next to the repository (where CI puts it; see its SOURCE.txt). Remote references
/// (`http://localhost:1234/…`) are served from its `remotes/` folder, without a network.
struct SchemaTestSuite {
    struct Outcome {
        var passed = 0
        var total = 0
        var failures: [String] = []
    }

    let root: URL

    static func locate() -> SchemaTestSuite? {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let root = repo.deletingLastPathComponent().appendingPathComponent("shared/json-schema-test-suite")
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("tests").path) else { return nil }
        return SchemaTestSuite(root: root)
    }

    func loader() -> @Sendable (String) -> JSONValue? {
        let remotes = root.appendingPathComponent("remotes")
        return { uri in
            let prefix = "http://localhost:1234/"
            guard uri.hasPrefix(prefix) else { return nil }
            let path = String(uri.dropFirst(prefix.count))
            guard !path.contains(".."), let data = try? Data(contentsOf: remotes.appendingPathComponent(path)) else { return nil }
            return JSONValue.parse(data)
        }
    }

    /// Runs every test of `file` (a path under tests/), skipping the groups `skip` names. `declare`:
    /// `dialect` is stated as the schema's `$schema` (where it states none) instead of passed as
    /// the default, which is then draft 2020-12.
    func run(_ file: String, dialect: SchemaDialect, assertFormats: Bool = false, declare: Bool = false, skip: Set<String> = []) throws -> Outcome {
        let data = try Data(contentsOf: root.appendingPathComponent("tests").appendingPathComponent(file))
        guard case .array(let groups)? = JSONValue.parse(data) else { throw SuiteError("\(file) is not a JSON array") }
        var out = Outcome()
        let options = SchemaOptions(assertFormats: assertFormats)
        for group in groups {
            let description = group["description"]?.stringValue ?? "?"
            if skip.contains(description) { continue }
            var schema = group["schema"] ?? .null
            if declare, case .object(let members) = schema, !members.contains(where: { $0.key == "$schema" }) {
                schema = .object([(key: "$schema", value: .string(dialect.uri))] + members)
            }
            let tests = group["tests"]?.arrayValue ?? []
            let compiled: JSONSchema?
            var compileError = ""
            do { compiled = try JSONSchema(schema, uri: "urn:suite:root", dialect: declare ? .draft2020 : dialect, loader: loader()) } catch {
                compiled = nil
                compileError = error.description
            }
            for test in tests {
                out.total += 1
                let expected = test["valid"] == .bool(true)
                let name = "\(file) / \(description) / \(test["description"]?.stringValue ?? "?")"
                guard let compiled else { out.failures.append(name + ": schema refused: " + compileError); continue }
                let instance = test["data"] ?? .null
                let quick = compiled.isValid(instance, options: options)
                let full = compiled.violations(of: instance, options: options)
                if quick == expected && full.isEmpty == expected {
                    out.passed += 1
                } else {
                    out.failures.append(name + ": expected \(expected ? "valid" : "invalid"), got quick=\(quick) full=\(full.isEmpty) \(full.first?.description ?? "")")
                }
            }
        }
        return out
    }

    func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("tests/" + folder).path)
            .filter { $0.hasSuffix(".json") }.sorted().map { folder + "/" + $0 }
    }
}

struct SuiteError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
