import Foundation
import TestServers
import XCTest

/// `import openapi` writes `expect: { schema: { openapi:, operation: } }` (issue 21, "Import fills
/// it in"), and an imported spec round-trips: import → validate → check --stub (samples satisfy
/// the schemas) → mock → check --all live against the mock, schemas on, all pass.
final class ImportContractTests: FolderTestCase {
    static let specs = ImportOpenAPIRealSpecTests.specs
    private var mock: MockProcess?
    private var oauth2: TestServer?

    override func tearDown() {
        mock?.stop()
        oauth2?.stop()
        super.tearDown()
    }

    /// Points every OAuth2 `tokenURL:` of the imported file at the project's loopback OAuth2 server
    /// (never the spec's public host) and gives its client's credentials; the environment for the file.
    func loopbackAuth(_ file: URL) throws -> [String: String] {
        var text = try String(contentsOf: file, encoding: .utf8)
        var env = Self.dummies(text)
        guard text.contains("tokenURL:") else { return env }
        if oauth2 == nil { oauth2 = try TestServer("oauth2-server.py", ["--lifetime", "300"]) }
        text = text.replacing(/tokenURL: [^\n]+/, with: "tokenURL: \(oauth2!.url)/token")
        try text.write(to: file, atomically: true, encoding: .utf8)
        for key in env.keys where key.hasSuffix("_CLIENT_ID") { env[key] = "app" }
        for key in env.keys where key.hasSuffix("_CLIENT_SECRET") { env[key] = "s3cret" }
        return env
    }

    static let realSpecs = [
        ("tictactoe.yaml", "tictactoe"), ("petstore-expanded.yaml", "petstore"), ("uspto.yaml", "uspto"),
        ("api-with-examples.yaml", "examples"), ("link-example.yaml", "links"), ("callback-example.yaml", "callbacks"),
        ("non-oauth-scopes.yaml", "scopes"), ("redocly-starter/openapi.yaml", "starter"),
    ]

    /// Dummy values for every `${VAR}` without a default in `file`.
    static func dummies(_ file: String) -> [String: String] {
        let variables = Set(file.matches(of: /\$\{([A-Z0-9_]+)\}/).map { String($0.output.1) })
        return Dictionary(uniqueKeysWithValues: variables.map { ($0, "dummy-\($0.lowercased())") })
    }

    func testRealSpecsRoundTripThroughTheMockWithSchemasOn() throws {
        var checked = 0
        for (spec, service) in Self.realSpecs {
            let dir = try folder()
            let r = try CLI.run(["import", "openapi", Self.specs.appendingPathComponent(spec).path, "--service", service], cwd: dir)
            XCTAssertEqual(r.code, 0, "\(spec): \(r.stderr)")
            let url = dir.appendingPathComponent("targets/\(service).yaml")
            let env = try loopbackAuth(url)
            let file = try String(contentsOf: url, encoding: .utf8)
            checked += file.components(separatedBy: "schema: { openapi: \(service).openapi/").count - 1
            let v = try CLI.run(["validate"], env: env, cwd: dir)
            XCTAssertEqual(v.code, 0, "\(spec) validate: \(v.stdout)\(v.stderr)")
            let stub = try CLI.run(["check", "--stub"], env: env, cwd: dir)
            XCTAssertEqual(stub.code, 0, "\(spec) check --stub: \(stub.stdout)\(stub.stderr)")
            mock?.stop()
            let m = try MockProcess(["--validate", "--targets", dir.appendingPathComponent("targets").path], env: env)
            mock = m
            let live = try CLI.run(["check", "--all", "--base-url", m.url + ImportMockConformanceTests.basePath(file)], env: env, cwd: dir)
            XCTAssertEqual(live.code, 0, "\(spec) check live against the mock: \(live.stdout)\(live.stderr)")
            XCTAssertFalse(live.stdout.contains("FAIL"), "\(spec): \(live.stdout)")
        }
        XCTAssertGreaterThan(checked, 25)  // api-with-examples and non-oauth-scopes have no schemas
    }

    func testADescriptionUnderTheTargetsFolderIsReferencedWhereItIs() throws {
        // GIVEN the multi-file starter kept in targets/contracts/ (not copied: the one source of truth)
        let dir = try folder()
        let contracts = dir.appendingPathComponent("targets/contracts")
        try FileManager.default.createDirectory(at: contracts.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.specs.appendingPathComponent("redocly-starter"), to: contracts)
        let r = try CLI.run(["import", "openapi", "targets/contracts/openapi.yaml", "--service", "starter"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let file = try String(contentsOf: dir.appendingPathComponent("targets/starter.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains("schema: { openapi: contracts/openapi.yaml, operation: "), file)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("targets/starter.openapi").path))
        let env = Self.dummies(file)
        XCTAssertEqual(try CLI.run(["check", "--stub"], env: env, cwd: dir).code, 0)

        // WHEN the description changes, THEN the contract changes with it: the sample is now stale
        let schema = contracts.appendingPathComponent("components/schemas/MenuItemList.yaml")
        let text = try String(contentsOf: schema, encoding: .utf8)
        try text.replacingOccurrences(of: "const: list", with: "const: page").write(to: schema, atomically: true, encoding: .utf8)
        let stub = try CLI.run(["check", "--stub"], env: env, cwd: dir)
        XCTAssertEqual(stub.code, 1, stub.stdout)
        XCTAssertTrue(stub.stdout.contains("starter.listMenuItems") && stub.stdout.contains("[const]"), stub.stdout)
    }

    func testAnExampleThatBreaksItsSchemaGetsNoSchemaAndAWarning() throws {
        let dir = try folder(["api.yaml": """
            openapi: 3.0.3
            info: { title: bad, version: "1" }
            servers: [{ url: "http://127.0.0.1:9" }]
            paths:
              /n:
                get:
                  operationId: getN
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: { type: object, properties: { n: { type: integer, minimum: 1 } } }
                          example: { n: 0 }
              /m:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: { type: object, properties: { m: { type: string } } }
                          example: { m: "x" }
            """])
        let r = try CLI.run(["import", "openapi", "api.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("api.yaml:14:24: warning: the description's example (the sample) breaks its schema"), r.stderr)
        XCTAssertTrue(r.stderr.contains("$.n: 0 is below minimum 1"), r.stderr)
        let file = try String(contentsOf: dir.appendingPathComponent("targets/bad.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains("# No expect: schema: the description's example"), file)
        XCTAssertTrue(file.contains("schema: { openapi: bad.openapi/api.yaml, operation: GET /m }"), file)
        XCTAssertEqual(try CLI.run(["validate"], cwd: dir).code, 0)

        // importing again needs --force for the copy too, and refreshes it
        let again = try CLI.run(["import", "openapi", "api.yaml", "-o", "targets/other.yaml", "--service", "bad"], cwd: dir)
        XCTAssertEqual(again.code, 5, again.stderr)
        XCTAssertTrue(again.stderr.contains("bad.openapi already exists"), again.stderr)
        XCTAssertEqual(try CLI.run(["import", "openapi", "api.yaml", "--force"], cwd: dir).code, 0)
    }
}
