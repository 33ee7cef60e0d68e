import Foundation
import XCTest

/// `import openapi` on real Swagger 2.0 descriptions (Docker Engine, Harbor, Netlify, Slack: API
/// publishers with no OpenAPI 3 description) and the OAI's own OpenAPI 3.2 test descriptions
/// (Fixtures/specs, see SOURCE.txt): import exits 0, `validate` accepts the file, `check --stub
/// --all` passes with dummy values for its `${VAR}`s, one target per operation.
final class ImportSwaggerRealSpecTests: FolderTestCase {
    static let specs = ImportOpenAPIRealSpecTests.specs

    /// (spec, service, operations: counted in the file by method keys under paths)
    static let real: [(String, String, Int)] = [
        ("swagger2/docker/swagger.yaml", "docker", 108), ("swagger2/harbor/swagger.yaml", "harbor", 203),
        ("swagger2/netlify/swagger.yml", "netlify", 174), ("swagger2/slack/slack_web_openapi_v2.json", "slack", 174),
        ("oai-tests-3.2/path-item-object-example.yaml", "pets", 3), ("oai-tests-3.2/path_item_servers_parameters.yaml", "things", 7),
        ("oai-tests-3.2/media-type-examples.yaml", "media", 1), ("oai-tests-3.2/operation-object-example.yaml", "operation", 1),
        ("oai-tests-3.2/request-body-examples.yaml", "bodies", 1), ("oai-tests-3.2/mega.yaml", "mega", 1),
        ("apicli-3.2/streams.yaml", "streams", 4),
    ]

    func testEveryRealDescriptionKeepsTheImportInvariant() throws {
        for (spec, service, operations) in Self.real {
            let dir = try folder()
            let r = try CLI.run(["import", "openapi", Self.specs.appendingPathComponent(spec).path, "--service", service], cwd: dir)
            XCTAssertEqual(r.code, 0, "\(spec): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("wrote targets/\(service).yaml (\(operations) target"), "\(spec): \(r.stderr.suffix(2000))")
            let text = try String(contentsOf: dir.appendingPathComponent("targets/\(service).yaml"), encoding: .utf8)
            let names = text.matches(of: /\n  ([A-Za-z0-9_-]+):\n/).map { String($0.output.1) }
            XCTAssertEqual(names.count, operations, "\(spec): \(names)")
            if service == "pets" {  // 3.2's query method and additional operations have their contracts too
                for op in ["queryPetsById", "copyPetsById"] {
                    XCTAssertTrue(text.contains("schema: { openapi: pets.openapi/path-item-object-example.yaml, operation: \(op) }"), text)
                }
            }
            var files = text
            if let hooks = try? String(contentsOf: dir.appendingPathComponent("targets/\(service)-webhooks.yaml"), encoding: .utf8) { files += hooks }
            let env = ImportContractTests.dummies(files)
            let v = try CLI.run(["validate"], env: env, cwd: dir)
            XCTAssertEqual(v.code, 0, "\(spec) validate: \(v.stdout.suffix(3000))\(v.stderr.suffix(3000))")
            let c = try CLI.run(["check", "--stub", "--all"], env: env, cwd: dir)
            XCTAssertEqual(c.code, 0, "\(spec) check --stub --all: \(c.stdout.suffix(3000))\(c.stderr.suffix(3000))")
        }
    }

    func testSwaggerDescriptionsGetContractsFromTheirConvertedCopy() throws {
        // GIVEN Netlify's Swagger 2.0 description (host, basePath, schemes; definitions by $ref)
        let dir = try folder()
        let r = try CLI.run(["import", "openapi", Self.specs.appendingPathComponent("swagger2/netlify/swagger.yml").path, "--service", "netlify"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/netlify.yaml"), encoding: .utf8)
        // THEN the base URL is host + basePath, and the contracts name the converted copy
        XCTAssertTrue(text.contains("baseURL: https://api.netlify.com/api/v1"), String(text.prefix(800)))
        XCTAssertTrue(text.contains("schema: { openapi: netlify.openapi/swagger.openapi.yaml, operation: listSites }"), String(text.prefix(3000)))
        let copy = try String(contentsOf: dir.appendingPathComponent("targets/netlify.openapi/swagger.openapi.yaml"), encoding: .utf8)
        XCTAssertTrue(copy.hasPrefix("openapi: \"3.0.3\"\n"), String(copy.prefix(200)))
        XCTAssertTrue(copy.contains(##"{ "$ref": "#/components/schemas/site" }"##), "definitions are rewritten to components/schemas")
        XCTAssertFalse(copy.contains("#/definitions/"))
    }

    func testContractsJudgeSwaggersSchemaDialect() throws {
        // GIVEN a Swagger 2.0 description whose example holds null where the schema says x-nullable
        let dir = try folder()
        let spec = dir.appendingPathComponent("swagger.yaml")
        try """
            swagger: "2.0"
            info: { title: Pets }
            host: 127.0.0.1:9
            schemes: [http]
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  parameters: [{ name: id, in: path, required: true, type: string }]
                  responses:
                    "200":
                      description: ok
                      schema:
                        type: object
                        required: [name]
                        properties: { name: { type: string }, tag: { type: string, x-nullable: true }, photo: { type: file } }
                      examples: { application/json: { name: Rex, tag: null } }

            """.write(to: spec, atomically: true, encoding: .utf8)
        let r = try CLI.run(["import", "openapi", spec.path], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("(1 target, 0 warnings)"), r.stderr)
        // THEN the target refers to the converted description, and its null passes the contract
        let file = dir.appendingPathComponent("targets/pets.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("schema: { openapi: pets.openapi/swagger.openapi.yaml, operation: getPet }"), text)
        XCTAssertEqual(try CLI.run(["check", "--stub"], cwd: dir).code, 0)
        // AND a value the schema forbids fails it
        try text.replacingOccurrences(of: "tag: null", with: "tag: 5").write(to: file, atomically: true, encoding: .utf8)
        let c = try CLI.run(["check", "--stub"], cwd: dir)
        XCTAssertNotEqual(c.code, 0, c.stdout)
        XCTAssertTrue(c.stdout.contains("$.tag: 5 is integer, not string"), c.stdout)
    }

    func testARawSwaggerFileIsRefusedAsAContract() throws {
        // GIVEN a hand-written reference to a Swagger 2.0 file (whose response schemas OpenAPI 3's
        // reading would not find, so nothing would be checked)
        let dir = try folder([
            "targets/contracts/swagger.yaml": """
                swagger: "2.0"
                info: { title: P }
                paths: { /p: { get: { operationId: getP, responses: { "200": { description: ok, schema: { type: string } } } } } }

                """,
            "targets/p.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  getP:
                    path: /p
                    expect: { schema: { openapi: contracts/swagger.yaml, operation: getP } }
                    sample: { json: 5 }

                """,
        ])
        // THEN validate says so instead of passing every response
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 2, v.stdout + v.stderr)
        XCTAssertTrue(v.stderr.contains("schema file 'contracts/swagger.yaml' is a Swagger 2.0 description; contracts read OpenAPI 3"), v.stderr)
    }
}
