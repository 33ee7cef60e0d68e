import Foundation
import XCTest

/// The import invariant (issue 20): whatever `import openapi` writes, `validate` accepts, and every
/// target builds with `show` and passes `check --stub` offline; what cannot be mapped is one warning
/// at its place. Shapes from real multi-file APIs: path keys with fragments, Operation, Path Item,
/// Parameter, Response, Example and Header objects by `$ref` to other files, a response schema that
/// cannot be read, server variables in the scheme, port and path, every parameter style.
final class ImportOpenAPIInvariantTests: FolderTestCase {
    func testMultiFileSpecWithEveryRefShapeImportsWhole() throws {
        // GIVEN the multi-file description of Fixtures/import/invariant
        let dir = try folder()
        let spec = ImportFixtures.path("invariant/api.yaml")
        let r = try CLI.run(["import", "openapi", spec], cwd: dir)
        // THEN it is written, and the only warnings are the unreadable $ref (once, said once), the
        // style the query cannot have, and the operation whose schemas therefore get no expect: schema:;
        // the path's servers (the description's own) say nothing
        XCTAssertEqual(r.code, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning:") }.map(String.init)
        XCTAssertEqual(warnings, [
            "\(spec):28:23: warning: $ref 'missing.yaml#/Nope': cannot read \(ImportFixtures.path("invariant/missing.yaml")): no such file",
            "\(spec):46:58: warning: style 'matrix' is not defined for query parameter 'odd'; it is sent as form",
            "\(spec):20:7: warning: operation 'putFile': no expect: schema: written, its schemas do not load: "
                + "$ref \"missing.yaml#/Nope\" does not resolve (looked for file://targets/invariant.openapi/missing.yaml#/Nope)",
        ])
        let file = try String(contentsOf: dir.appendingPathComponent("targets/invariant.yaml"), encoding: .utf8)
        // AND the Operation given by $ref is imported with its name, parameters and example response
        XCTAssertTrue(file.contains("getFile:\n    doc: \"A file's metadata\"\n    path: /files/{file_id}\n    params: { file_id: abc }"), file)
        XCTAssertTrue(file.contains(#"sample: { json: { id: abc, name: "report ${{}draft}.pdf", size: 3 } }"#), file)
        // AND the Path Item given by $ref too, its sample honouring minItems and uniqueItems
        XCTAssertTrue(file.contains("listShared:\n    path: /shared"), file)
        XCTAssertTrue(file.contains("sample: { json: [a, b] }"), file)
        // AND the unreadable response schema leaves no expectation its sample cannot meet
        XCTAssertTrue(file.contains("putFile:\n    # No example for the 200 application/json response: its content is not expected."), file)
        try assertUsable(dir.appendingPathComponent("targets"), service: "invariant",
                         targets: ["getFilesByFileIdGetSharedLink", "getFile", "putFile", "listShared", "styles"])
        // AND the URLs: variables in scheme, port and path; the fragment kept out; every style as OpenAPI sends it
        func url(_ target: String) throws -> String {
            let s = try CLI.run(["show", "invariant.\(target)"], cwd: dir)
            XCTAssertEqual(s.code, 0, s.stderr)
            return s.stdout.split(separator: "\n").first { $0.hasPrefix("GET ") || $0.hasPrefix("PUT ") }.map(String.init) ?? s.stdout
        }
        XCTAssertEqual(try url("getFilesByFileIdGetSharedLink"), "GET https://api.example.com:8443/v2/files/f1")
        XCTAssertEqual(try url("styles"), "GET https://api.example.com:8443/v2/styles/1,2,3/.3.4/;matrix=5,6/role=admin,n=1"
                       + "?csv=x%2Cy&filter%5Bcolor%5D=red&json=%7B%22a%22%3A1%7D&lat=1&lon=2&multi=m&multi=n&odd=o&pipes=a%7Cb&spaces=a%20b")
        let header = try CLI.run(["show", "invariant.styles"], cwd: dir)
        XCTAssertTrue(header.stdout.contains("X-List: h1,h2"), header.stdout)
        let http = try CLI.run(["show", "invariant.getFile"], env: ["INVARIANT_SCHEME": "http", "INVARIANT_PORT": "8080"], cwd: dir)
        XCTAssertTrue(http.stdout.contains("GET http://api.example.com:8080/v2/files/abc"), http.stdout)
        // AND the scheme's enum gives one environment per value
        XCTAssertTrue(file.contains("""
            environments:
              https: { baseURL: "https://api.example.com:${INVARIANT_PORT:-8443}/${INVARIANT_BASE:-v2}" }
              http: { baseURL: "http://api.example.com:${INVARIANT_PORT:-8443}/${INVARIANT_BASE:-v2}" }

            """), file)
        let env = try CLI.run(["show", "invariant.getFile", "--env", "http"], cwd: dir)
        XCTAssertTrue(env.stdout.contains("GET http://api.example.com:8443/v2/files/abc"), env.stdout)
    }

    func testOpenAPI31PathItemsFromComponents() throws {
        // GIVEN a 3.1 description whose path item is a $ref to components/pathItems, with webhooks
        let dir = try folder(["spec.yaml": """
            openapi: 3.1.0
            info: { title: Items, version: "1" }
            servers: [{ url: "https://api.example.com" }]
            paths:
              /things/{id}: { $ref: "#/components/pathItems/Thing" }
            webhooks:
              thingChanged: { $ref: "#/components/pathItems/Thing" }
            components:
              pathItems:
                Thing:
                  parameters: [{ name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }]
                  get:
                    operationId: getThing
                    responses:
                      '200':
                        description: ok
                        content:
                          application/json:
                            schema: { type: object, required: [id, tags], properties: { id: { type: integer }, tags: { type: [array, "null"], items: { type: string }, minItems: 2 } } }

            """])
        let r = try CLI.run(["import", "openapi", "spec.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN the operation is imported with its path item's parameter, and the webhook (the same
        // path item, by the same $ref) as a target of items-webhooks, at /thingChanged of the receiver
        XCTAssertFalse(r.stderr.contains("warning:"), r.stderr)
        let hooks = try String(contentsOf: dir.appendingPathComponent("targets/items-webhooks.yaml"), encoding: .utf8)
        XCTAssertTrue(hooks.contains("baseURL: \"${ITEMS_WEBHOOK_URL:-http://localhost:8080}\"\n"), hooks)
        XCTAssertTrue(hooks.contains("  getThing:\n    # Webhook 'thingChanged': the API sends this request to your receiver (baseURL).\n    path: /thingChanged\n"), hooks)
        XCTAssertTrue(hooks.contains("sample: { json: { id: 0, tags: [string, string] } }"), hooks)
        try assertUsable(dir.appendingPathComponent("targets"), service: "items-webhooks", targets: ["getThing"])
        let file = try String(contentsOf: dir.appendingPathComponent("targets/items.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains("getThing:\n    path: /things/{id}\n    params: { id: 1 }\n"), file)
        XCTAssertTrue(file.contains("sample: { json: { id: 0, tags: [string, string] } }"), file)
        try assertUsable(dir.appendingPathComponent("targets"), service: "items", targets: ["getThing"])
    }

    func testServerVariablesThatWouldNameASecretAreWrittenAsTheirDefault() throws {
        // GIVEN a server whose variable would become ${…_TOKEN} (a spec choosing what the environment sends)
        let dir = try folder(["spec.yaml": """
            openapi: 3.0.3
            info: { title: Acme, version: "1" }
            servers:
              - url: "https://{TOKEN}.example.com/{undeclared_secret}"
                variables: { TOKEN: { default: www } }
            paths:
              /a: { get: { operationId: a, responses: { '204': { description: none } } } }
              /b:
                servers: [{ url: "https://other.example.com" }]
                get: { operationId: b, servers: [{ url: "https://other.example.com" }], responses: { '204': { description: none } } }
              /c:
                servers: [{ url: "https://other.example.com" }]
                get: { operationId: c, responses: { '204': { description: none } } }

            """])
        let r = try CLI.run(["import", "openapi", "spec.yaml", "-o", "-"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN the URL holds the defaults, not the variables; the other server is one warning, not three
        XCTAssertTrue(r.stdout.contains("baseURL: https://www.example.com/localhost\n"), r.stdout)
        XCTAssertEqual(r.stderr.components(separatedBy: "warning:").count - 1, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("spec.yaml:5:25: warning: server variable {TOKEN} is written as its default 'www'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("spec.yaml:4:5: warning: server variable {undeclared_secret} is not declared; it is written as 'localhost'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("spec.yaml:9:14: warning: servers https://other.example.com of path /b are not imported"), r.stderr)
    }
}
