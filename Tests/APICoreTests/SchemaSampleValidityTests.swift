@testable import APITargets
import Foundation
import XCTest
@testable import APISupport
@testable import APIYAML
@testable import APIJSON
@testable import APIDiagnostics
@testable import APITransport
@testable import APIVerdict
@testable import APIImport

/// Every sample `import openapi` builds from a schema validates against that schema, judged by
/// Python's `jsonschema` (Tests/Servers/check-samples.py, installed by `make venv`): hand-written schemas
/// using every validation keyword (3.0 and 3.1), and every schema of the real specs in
/// Fixtures/specs (components, bodies, responses, parameters, across files).
final class SchemaSampleValidityTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/apicliTests/Fixtures")

    func testKeywordSchemas31() throws { try judge("import/samples/keywords31.yaml", minimum: 30) }
    func testKeywordSchemas30() throws { try judge("import/samples/keywords30.yaml", minimum: 9) }

    func testRealSpecs() throws {
        for spec in ["tictactoe.yaml", "petstore-expanded.yaml", "uspto.yaml", "api-with-examples.yaml", "link-example.yaml",
                     "callback-example.yaml", "non-oauth-scopes.yaml", "redocly-starter/openapi.yaml", "museum.yaml",
                     "digitalocean/openapi.yaml", "oai-tests/mega.yaml", "oai-tests/webhook-example.yaml",
                     // (not Docker's: its own schema examples break its schemas, `Created: "1739811096"` for an
                     // integer; the import warns at those operations and writes them no schema:)
                     "swagger2/harbor/swagger.yaml", "swagger2/netlify/swagger.yml",
                     "swagger2/slack/slack_web_openapi_v2.json", "oai-tests-3.2/path-item-object-example.yaml",
                     "oai-tests-3.2/media-type-examples.yaml", "apicli-3.2/streams.yaml", "openai/containers.yaml", "fastapi/openapi.json"] {
            try judge("specs/" + spec, minimum: 0)
        }
    }

    /// OpenSearch's 3.1 namespace files and the ../schemas files they name (Fixtures/specs/opensearch).
    func testRealSpecsOpenSearch() throws {
        for spec in ["tasks", "wlm", "dangling_indices"] {
            try judge("specs/opensearch/namespaces/\(spec).yaml", minimum: 1, roots: [Self.fixtures.appendingPathComponent("specs/opensearch").path],
                      onlyRoot: ProcessInfo.processInfo.environment["ALLCOMP"] == nil)
        }
    }

    /// The tic-tac-toe board (issue 20): 3 rows of 3.
    func testBoardHasThreeRowsOfThree() throws {
        let (loader, _) = try load("import/samples/keywords31.yaml")
        var sampler = SchemaSample(loader: loader)
        let doc = try loader.root(Self.fixtures.appendingPathComponent("import/samples/keywords31.yaml").path)
        let board = try XCTUnwrap(SpecLoader.follow(pointer: "/components/schemas/Board", in: doc))
        XCTAssertEqual(sampler.value(board)?.jsonValue.jsonText, #"[[".",".","."],[".",".","."],[".",".","."]]"#)
    }

    /// Issue 36: a name required beside `allOf` keeps the part's property schema (an integer, not
    /// the string a bare required name gets), and a required property without a type is not left out.
    func testRequiredBesideAllOfAndRequiredUntyped() throws {
        let (loader, path) = try load("import/samples/keywords31.yaml")
        var sampler = SchemaSample(loader: loader)
        let doc = try loader.root(path)
        let beside = try XCTUnwrap(SpecLoader.follow(pointer: "/components/schemas/RequiredBesideAllOf", in: doc))
        XCTAssertEqual(sampler.value(beside)?.jsonValue.jsonText, #"{"count":1}"#)
        let untyped = try XCTUnwrap(SpecLoader.follow(pointer: "/components/schemas/RequiredUntyped", in: doc))
        XCTAssertEqual(sampler.value(untyped)?.jsonValue.jsonText, #"{"id":0,"anything":"string"}"#)
    }

    /// The OAI's mega.yaml shape: the schema's own properties beside `anyOf` are in the sample (its
    /// required `id` was left out), and a `mapping` by bare schema name gives the mapping key.
    func testOwnPropertiesBesideAnyOfAndABareMappingName() throws {
        let (loader, path) = try load("import/samples/keywords31.yaml")
        var sampler = SchemaSample(loader: loader)
        let owned = try XCTUnwrap(SpecLoader.follow(pointer: "/components/schemas/Owned", in: try loader.root(path)))
        XCTAssertEqual(sampler.value(owned)?.jsonValue.jsonText, #"{"id":1,"kind":"kitty","lives":1}"#)
    }

    private func load(_ name: String, roots: [String] = []) throws -> (SpecLoader, String) {
        let path = Self.fixtures.appendingPathComponent(name).path
        let loader = SpecLoader(read: { (p: String) throws(APIError) -> [UInt8] in
            guard let d = FileManager.default.contents(atPath: p) else { throw .invalid(Diagnostic(file: nil, mark: nil, message: "no such file")) }
            return [UInt8](d)
        }, roots: roots)
        return (loader, path)
    }

    /// Samples every schema position of the spec and the files it references, and has jsonschema judge them.
    private func judge(_ name: String, minimum: Int, roots: [String] = [], onlyRoot: Bool = false,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let (loader, path) = try load(name, roots: roots)
        var root = try loader.root(path)
        if root["swagger"] != nil {  // judged as import reads it: converted to OpenAPI 3.0 (draft 4's subset)
            root = loader.converting(path) { [unowned loader] doc in Swagger2.convertFile(doc, warn: loader.warn) }
        }
        let draft = root["openapi"]?.text?.hasPrefix("3.0") == true ? "4" : "2020-12"
        var sampler = SchemaSample(loader: loader)
        var checks: [String] = []
        var walked: Set<String> = []
        // Walk every file loaded, loading what its $refs name, until no new file comes in.
        while let next = loader.files.first(where: { !walked.contains($0) }) {
            walked.insert(next)
            let doc = try loader.root(next)
            var positions: [(SpecNode, String)] = []
            collect(doc, pointer: "", parentKey: nil, loader: loader, into: &positions)
            for (node, pointer) in positions where !onlyRoot || next == path {
                guard let sample = sampler.value(node) else { continue }
                checks.append(#"{"ref":\#(jsonString(Self.uri(next) + "#" + pointer)),"sample":\#(sample.jsonValue.jsonText)}"#)
            }
        }
        XCTAssertGreaterThanOrEqual(checks.count, minimum, name, file: file, line: line)
        let documents = try loader.files.map { f in jsonString(Self.uri(f)) + ":" + YAMLOut(try loader.root(f).node).jsonValue.jsonText }
        let job = #"{"draft":"\#(draft)","documents":{\#(documents.joined(separator: ","))},"checks":[\#(checks.joined(separator: ","))]}"#
        let (code, out, err) = try python(job)
        XCTAssertEqual(code, 0, "\(name): \(out)\(err)", file: file, line: line)
    }

    /// Schema positions: values of `schema:` keys and members of `components/schemas`.
    private func collect(_ n: SpecNode, pointer: String, parentKey: String?, loader: SpecLoader, into out: inout [(SpecNode, String)]) {
        if n.ref != nil { _ = loader.resolve(n) }  // loads the file it names
        if n.isMapping, parentKey == "schema" || pointer.hasPrefix("/components/schemas/") && pointer.split(separator: "/").count == 3 {
            out.append((n, pointer))
        }
        for (key, _, value) in n.entries where !["example", "examples", "x-examples"].contains(key) {
            collect(value, pointer: pointer + "/" + Self.escape(key), parentKey: key, loader: loader, into: &out)
        }
        for (i, item) in n.items.enumerated() {
            collect(item, pointer: pointer + "/\(i)", parentKey: nil, loader: loader, into: &out)
        }
    }

    static func escape(_ key: String) -> String {
        let token = key.replacing("~", with: "~0").replacing("/", with: "~1")
        return token.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? token
    }

    static func uri(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: Path.normalized(absolute)).absoluteString
    }

    private func jsonString(_ s: String) -> String { Value.json(s).jsonText }

    private func python(_ input: String) throws -> (Int32, String, String) {
        let python = Self.root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no .venv: run make venv (jsonschema)") }
            throw XCTSkip("no .venv with jsonschema: run make venv")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = [Self.root.appendingPathComponent("Tests/Servers/check-samples.py").path]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        let data = Data(input.utf8)
        DispatchQueue.global().async {
            stdin.fileHandleForWriting.write(data)
            try? stdin.fileHandleForWriting.close()
        }
        let o = stdout.fileHandleForReading.readDataToEndOfFile()
        let e = stderr.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
