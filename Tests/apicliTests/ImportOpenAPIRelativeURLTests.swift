import Foundation
import XCTest

/// `import openapi` resolves relative URLs as OpenAPI says (issue 36): a security scheme's
/// `tokenUrl`, `authorizationUrl` and `refreshUrl` against the first server's URL, a relative
/// server URL against the description's location (`$self`) or, without one, http://localhost —
/// RFC 3986 resolution, `${…}` server variables kept.
final class ImportOpenAPIRelativeURLTests: FolderTestCase {
    private func imported(_ spec: String, _ text: String? = nil) throws -> (dir: URL, r: CLI.Result, written: String) {
        let dir = try folder(text.map { ["spec.yaml": $0] } ?? [:])
        let path = text == nil ? spec : dir.appendingPathComponent("spec.yaml").path
        let r = try CLI.run(["import", "openapi", path, "--service", "rel"], cwd: dir)
        let written = (try? String(contentsOf: dir.appendingPathComponent("targets/rel.yaml"), encoding: .utf8)) ?? ""
        return (dir, r, written)
    }

    func testFastAPIsRelativeTokenURLIsResolvedAgainstTheServer() throws {
        // GIVEN FastAPI's description of its OAuth2 tutorial: `tokenUrl: token`, no servers
        let spec = ImportOpenAPIRealSpecTests.specs.appendingPathComponent("fastapi/openapi.json").path
        // WHEN it is imported
        let (dir, r, written) = try imported(spec)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN the token URL is the server's (http://localhost, the default server) /token
        XCTAssertTrue(written.contains("tokenURL: http://localhost/token\n"), written)
        XCTAssertFalse(written.contains("tokenURL: token"), written)
        // AND every secured target validates and passes check --stub
        let env = ImportContractTests.dummies(written)
        let c = try CLI.run(["check", "--stub"], env: env, cwd: dir)
        XCTAssertEqual(c.code, 0, c.stdout + c.stderr)
        XCTAssertTrue(c.stdout.contains("4 passed"), c.stdout)
        // AND a response of `schema: {}` (any JSON) gets a sample it accepts, so no warning blames an example
        XCTAssertFalse(r.stderr.contains("breaks its schema"), r.stderr)
        XCTAssertFalse(r.stderr.contains("breaks it"), r.stderr)
    }

    func testSchemeURLsResolveAgainstTheFirstServerWithItsVariables() throws {
        let (dir, r, written) = try imported("", """
            openapi: 3.0.3
            info: { title: Rel, version: "1" }
            servers:
              - url: https://{region}.example.com/api/v1/
                variables: { region: { default: eu } }
            security: [{ oauth: [read] }]
            paths:
              /me: { get: { responses: { "204": { description: ok } } } }
              /code:
                get:
                  security: [{ code: [] }]
                  responses: { "204": { description: ok } }
            components:
              securitySchemes:
                oauth:
                  type: oauth2
                  flows: { password: { tokenUrl: ../oauth/token, refreshUrl: refresh, scopes: { read: r } } }
                code:
                  type: oauth2
                  flows: { authorizationCode: { authorizationUrl: /authorize, tokenUrl: "token?x=1", scopes: {} } }
            """)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN each is resolved as RFC 3986 says, the server variable kept as a variable
        XCTAssertTrue(written.contains("tokenURL: https://${REL_REGION:-eu}.example.com/api/oauth/token\n"), written)
        XCTAssertTrue(written.contains("tokenURL: https://${REL_REGION:-eu}.example.com/api/v1/token?x=1\n"), written)
        XCTAssertTrue(written.contains("Authorize once in a browser at https://${REL_REGION:-eu}.example.com/authorize"), written)
        XCTAssertTrue(written.contains("Its refreshUrl is https://${REL_REGION:-eu}.example.com/api/v1/refresh"), written)
        let v = try CLI.run(["validate"], env: ImportContractTests.dummies(written), cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }

    func testARelativeServerResolvesAgainstTheDescriptionsLocation() throws {
        // GIVEN a 3.2 description that says where it is served ($self) and relative server URLs
        let (_, r, written) = try imported("", """
            openapi: 3.2.0
            $self: https://api.example.com/specs/v2/openapi.yaml
            info: { title: Rel, version: "1" }
            servers: [{ url: ../../v2 }, { url: "//cdn.example.com/files" }]
            paths: { /a: { get: { responses: { "204": { description: ok } } } } }
            """)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN each server URL is resolved against that location, without a warning about it
        XCTAssertTrue(written.contains("baseURL: https://api.example.com/v2\n"), written)
        XCTAssertTrue(written.contains("https://cdn.example.com/files"), written)
        XCTAssertFalse(r.stderr.contains("not absolute"), r.stderr)
        // AND without $self, a dot segment is resolved against http://localhost, not kept
        let (_, r2, written2) = try imported("", """
            openapi: 3.1.0
            info: { title: Rel, version: "1" }
            servers: [{ url: ../v2/ }]
            paths: { /a: { get: { responses: { "204": { description: ok } } } } }
            """)
        XCTAssertTrue(written2.contains("baseURL: http://localhost/v2\n"), written2)
        XCTAssertTrue(r2.stderr.contains("server url '../v2/' is not absolute; it is written as http://localhost/v2/"), r2.stderr)
    }
}
