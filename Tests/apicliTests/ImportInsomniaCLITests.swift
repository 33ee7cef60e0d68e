import Foundation
import XCTest

/// `apicli import insomnia`: real exports from Insomnia's own repository (JSON and YAML) hold the
/// import invariant; request groups, environments, auth and bodies map as documented.
final class ImportInsomniaCLITests: FolderTestCase {
    private static let fixtures = ImportFixtures.folder.appendingPathComponent("insomnia")

    func testEveryFetchedExportHoldsTheInvariant() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 5)
        for name in files {
            let dir = try folder()
            try importApp("insomnia", Self.fixtures.appendingPathComponent(name).path, into: dir)
            try assertImportInvariant(dir)
        }
    }

    /// The petstore export: two origins (two files), `{{ base_url }}` made of three variables
    /// inlined (`{{ host }}` as `${SERVICE_HOST}`, not the shell's `HOST`), its sub-environment as `environments:`, a folder as a name prefix.
    func testEnvironmentsAndFolders() throws {
        let dir = try folder()
        try importApp("insomnia", Self.fixtures.appendingPathComponent("inso-insomnia_v4.yaml").path, into: dir)
        let files = try writtenFiles(dir)
        XCTAssertEqual(files.keys.sorted(), ["swagger-petstore-1-0-0", "swagger-petstore-1-0-0-jsonplaceholder-typicode-com"])
        let main = try XCTUnwrap(files["swagger-petstore-1-0-0"])
        XCTAssertTrue(main.contains("""
            baseURL: "${SWAGGER_PETSTORE_1_0_0_SCHEME}://${SWAGGER_PETSTORE_1_0_0_HOST}${SWAGGER_PETSTORE_1_0_0_BASE_PATH}"
            doc: "This is a sample server Petstore server.
            """), main)
        XCTAssertTrue(main.contains("""
            the authorization filters."
            environments: { openapi-env: { baseURL: "http://petstore.swagger.io/v2" } }
            """), main)
        // variables the export does not define (the base environment leaves them to a sub-environment) get the prefix
        XCTAssertTrue(main.contains("    path: /store/order/${SWAGGER_PETSTORE_1_0_0_ORDER_ID}\n"), main)
        XCTAssertTrue(main.contains("    headers: { api_key: \"${SWAGGER_PETSTORE_1_0_0_API_KEY}\" }\n"), main)
        let other = try XCTUnwrap(files["swagger-petstore-1-0-0-jsonplaceholder-typicode-com"])
        XCTAssertTrue(other.contains("  exampleFolder-example2:\n    doc: Example Folder / Example 2\n    path: /posts/1xx\n"), other)
        // the environment gives the whole base URL: show needs no variable for it
        let s = try CLI.run(["show", "swagger-petstore-1-0-0.returnsPetInventoriesByStatus", "--env", "openapi-env",
                             "--targets", dir.path], env: ["SWAGGER_PETSTORE_1_0_0_API_KEY": "k"], cwd: dir)
        XCTAssertEqual(s.code, 0, s.stderr)
        XCTAssertTrue(s.stdout.contains("GET http://petstore.swagger.io/v2/store/inventory"), s.stdout)
    }

    /// Issue 34 item 6: an undefined `{{ _.NPM_TOKEN }}` was written as `${NPM_TOKEN}`, the user's own.
    func testUndeclaredVariablesArePrefixed() throws {
        let input = try folder(["e.json": """
            {"__export_format": 4, "resources": [{"_id": "wrk", "_type": "workspace", "name": "pkg"},
              {"_id": "r1", "_type": "request", "parentId": "wrk", "name": "publish", "method": "PUT", "url": "http://127.0.0.1:9/p",
               "headers": [{"name": "X-Npm", "value": "{{ _.NPM_TOKEN }}"}]}]}
            """])
        let dir = try folder()
        try importApp("insomnia", input.appendingPathComponent("e.json").path, into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["pkg"])
        assertWritten(text, holds: ["X-Npm: \"${PKG_NPM_TOKEN}\""], never: ["${NPM_TOKEN}"], stderr: "", warnings: [])
        let c = try CLI.run(["call", "pkg.publish", "--dry-run", "--show-secrets", "--targets", dir.path], env: ["NPM_TOKEN": "npm_USERS_OWN"], cwd: dir)
        XCTAssertFalse(c.stdout.contains("USERS_OWN") || c.stderr.contains("USERS_OWN"), c.stdout + c.stderr)
    }

    /// Auth (basic with the password out of the file, bearer, API key in the query), bodies
    /// (JSON with `{{ _.var }}`, form, multipart with a file, GraphQL), a group's auth and scripts.
    func testEachMapping() throws {
        let input = try folder(["e.yaml": Self.export])
        let dir = try folder()
        let r = try importApp("insomnia", input.appendingPathComponent("e.yaml").path, into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["demo"])
        assertWritten(text, holds: [
            "baseURL: \"${BASE_URL:-http://127.0.0.1:9/api}\"",
            "  admin-createUser:\n",
            "    auth: { basic: { user: ann, password: \"${DEMO_PASSWORD}\" } }\n",    // the request group's auth
            "    task: { json: { name: \"${USER_NAME:-Ada}\", tags: [a] } }\n",
            "    task: { query: { q: x, api_key: \"${DEMO_API_KEY}\" } }\n",
            "    task: { form: { a: \"1\" } }\n",
            "    task: { multipart: [{ name: doc, value: \"\" }, { name: \"n\", value: \"2\" }] }\n",
            "    task: { graphql: { query: \"{ me { id } }\" } }\n",
            "    auth: { bearer: \"${DEMO_TOKEN}\" }\n",                  // {{ _.token }}: a secret, prefixed
            "    # The pre-request script was not imported (apicli runs no JavaScript).\n",
        ], never: ["pa55", "abc123"], stderr: r.stderr, warnings: [
            "e.yaml:", "grpc_request 'stream' is not HTTP", "the pre-request script of request 'search' is not run",
        ])
        try assertImportInvariant(dir)
    }

    func testBadInputIsExit2() throws {
        let dir = try folder([
            "none.json": #"{"_type": "export", "__export_format": 4, "resources": [{"_id": "wrk_1", "_type": "workspace", "name": "w"}]}"#,
            "old.json": #"{"_type": "export", "__export_format": 3, "resources": []}"#,
            "postman.json": #"{"info": {"name": "x"}, "item": []}"#,
        ])
        try assertRefused("insomnia", [
            ("none.json", "none.json:1:56: error: $.resources: the export has no HTTP requests to import"),
            ("old.json", "old.json:1:40: error: $.__export_format: Insomnia export format 3 is not read; only formats 4 and 5"),
            ("postman.json", "postman.json:1:1: error: $: not an Insomnia export: there is no 'resources' list nor 'type: collection.insomnia.rest/5.0'"),
        ], in: dir)
    }

    static let export = """
        _type: export
        __export_format: 4
        resources:
          - { _id: wrk_1, _type: workspace, name: Demo, parentId: null }
          - { _id: env_1, _type: environment, parentId: wrk_1, name: Base, data: { base_url: "http://127.0.0.1:9/api", userName: Ada, token: abc123 } }
          - _id: fld_1
            _type: request_group
            parentId: wrk_1
            name: Admin
            authentication: { type: basic, username: ann, password: pa55 }
          - _id: req_1
            _type: request
            parentId: fld_1
            name: create user
            method: POST
            url: "{{ _.base_url }}/users"
            headers: [{ name: Content-Type, value: application/json }, { name: X-Off, value: "1", disabled: true }]
            body: { mimeType: application/json, text: '{"name": "{{ _.userName }}", "tags": ["a"]}' }
          - _id: req_2
            _type: request
            parentId: wrk_1
            name: search
            url: "{{ _.base_url }}/search?q=x"
            authentication: { type: apikey, key: api_key, value: abc123, addTo: queryParams }
            preRequestScript: "insomnia.request.addHeader({key: 'a', value: 'b'})"
          - _id: req_3
            _type: request
            parentId: wrk_1
            name: form
            method: POST
            url: "{{ _.base_url }}/form"
            body: { mimeType: application/x-www-form-urlencoded, params: [{ name: a, value: "1" }, { name: b, value: "2", disabled: true }] }
          - _id: req_4
            _type: request
            parentId: wrk_1
            name: upload
            method: POST
            url: "{{ _.base_url }}/upload"
            body: { mimeType: multipart/form-data, params: [{ name: doc, type: file, fileName: /tmp/x.pdf }, { name: n, value: "2" }] }
          - _id: req_5
            _type: request
            parentId: wrk_1
            name: graphql
            method: POST
            url: "{{ _.base_url }}/graphql"
            body: { mimeType: application/graphql, text: '{"query": "{ me { id } }"}' }
            authentication: { type: bearer, token: "{{ _.token }}" }
          - { _id: grpc_1, _type: grpc_request, parentId: wrk_1, name: stream }
        """
}
