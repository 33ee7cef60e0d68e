import Foundation
import XCTest

/// Issue 36, collections and recordings: what Postman, Insomnia and HAR inputs hold is not lost
/// without a word. Descriptions become `doc:`, Insomnia path parameters map, Insomnia v5 (YAML)
/// exports import, JSON with a raw DEL or a BOM reads as JSON reads it, a recorded 3xx keeps
/// `followRedirects: false`, and a recorded body that is missing is a warning.
final class ImportCollectionFidelityTests: FolderTestCase {
    private static let postman = ImportFixtures.folder.appendingPathComponent("postman")
    private static let insomnia = ImportFixtures.folder.appendingPathComponent("insomnia")
    private static let har = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/har")

    /// Insomnia's own Postman fixture: the collection's, a folder's and each request's description.
    func testPostmanDescriptionsBecomeDoc() throws {
        let dir = try folder()
        try importApp("postman", Self.postman.appendingPathComponent("insomnia-complex-v2_1.json").path, into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir).values.first { $0.contains("Urlencoded Form Test") })
        assertWritten(text, holds: [
            "doc: \"A collection for testing First Folder: The first folder\"\n",
            "    doc: \"First Folder / Urlencoded Form Test: First Request\"\n",
            "    doc: \"Test Request GraphQL Body: Request with graphql body\"\n",
        ], never: [], stderr: "", warnings: [])
        try assertImportInvariant(dir)
    }

    /// The petstore export's workspace description; a request's and a request group's; and
    /// `pathParameters` (`/users/:id` with `id: 42`) sent as `/users/42`, where it was sent literally.
    func testInsomniaDescriptionsAndPathParameters() throws {
        let dir = try folder()
        try importApp("insomnia", Self.insomnia.appendingPathComponent("inso-insomnia_v4.yaml").path, into: dir)
        XCTAssertTrue(try XCTUnwrap(try writtenFiles(dir)["swagger-petstore-1-0-0"]).contains("\ndoc: \"This is a sample server Petstore server."))

        let input = try folder(["e.json": """
            {"__export_format": 4, "resources": [{"_id": "wrk", "_type": "workspace", "name": "users", "description": "The users API"},
              {"_id": "fld", "_type": "request_group", "parentId": "wrk", "name": "Admin", "description": "Needs an admin"},
              {"_id": "r1", "_type": "request", "parentId": "fld", "name": "get user", "method": "GET", "description": "One user\\nby id",
               "url": "http://127.0.0.1:9/users/:id/posts/:post/:literal", "pathParameters": [{"name": "id", "value": "42"}, {"name": "post", "value": "{{ _.post }}"}]}]}
            """])
        let out = try folder()
        try importApp("insomnia", input.appendingPathComponent("e.json").path, into: out)
        let text = try XCTUnwrap(try writtenFiles(out)["users"])
        assertWritten(text, holds: [
            "doc: \"The users API Admin: Needs an admin\"\n",
            "    doc: \"Admin / get user: One user by id\"\n",
            "    path: /users/{id}/posts/{post}/:literal\n",
            "    params: { id: \"42\", post: \"${USERS_POST}\" }\n",
        ], never: [], stderr: "", warnings: [])
        let c = try CLI.run(["call", "users.admin-getUser", "--dry-run", "--targets", out.path], env: ["USERS_POST": "7"], cwd: out)
        XCTAssertEqual(c.code, 0, c.stderr)
        XCTAssertTrue(c.stdout.contains("GET http://127.0.0.1:9/users/42/posts/7/:literal"), c.stdout)
        try assertImportInvariant(out)
    }

    /// Insomnia 10+ exports (YAML, `type: collection.insomnia.rest/5.0`) from Insomnia's own
    /// repository import, and a v5 tree's folders, descriptions, path parameters and scripts map.
    func testInsomniaV5Exports() throws {
        for name in ["v5-smoke-environments.yaml", "v5-smoke-auth-types.yaml", "v5-smoke-runner-collection.yaml"] {
            let dir = try folder()
            try importApp("insomnia", Self.insomnia.appendingPathComponent(name).path, into: dir)
            try assertImportInvariant(dir)
        }
        // the runner collection: a folder's scripts and environment, every request's scripts
        let runner = try folder()
        let rr = try importApp("insomnia", Self.insomnia.appendingPathComponent("v5-smoke-runner-collection.yaml").path, into: runner)
        assertWritten(try XCTUnwrap(try writtenFiles(runner)["runner"]), holds: [
            "  folderWithEnv-req1:\n",
            "    task: { json: { scope: \"${SCOPE:-collection_base}\", value: \"${VALUE:-collection_base}\" } }\n",
            "    # The after-response script was not imported (apicli runs no JavaScript).\n",
        ], never: [], stderr: rr.stderr, warnings: [
            "v5-smoke-runner-collection.yaml:67:19: warning: $.collection[0].scripts.preRequest: the pre-request script of request group 'FolderWithEnv' is not run",
            "$.collection[0].children[0].scripts.afterResponse: the after-response script of request 'req1' is not run",
            "apicli: wrote", "(12 targets)",
        ])
        let dir = try folder()
        let r = try importApp("insomnia", Self.insomnia.appendingPathComponent("v5-smoke-auth-types.yaml").path, into: dir)
        assertWritten(try XCTUnwrap(try writtenFiles(dir)["auth-tests"]), holds: [
            "  sendsRequestWithBasicAuthentication:\n",
            "    auth: { basic: { user: user, password: \"${AUTH_TESTS_PASSWORD}\" } }\n",
        ], never: ["Basic dXNlcjpwYXNz"], stderr: r.stderr, warnings: ["$.collection[1].authentication: auth type 'oauth1'"])

        let input = try folder(["c.yaml": """
            type: collection.insomnia.rest/5.0
            name: Shop
            meta:
              id: wrk_1
              description: The shop
            collection:
              - name: Orders
                description: Order things
                authentication: { type: bearer, token: "{{ _.token }}" }
                children:
                  - url: "{{ _.base_url }}/orders/:order"
                    name: get order
                    method: GET
                    meta: { id: req_1, description: Reads an order }
                    pathParameters: [{ name: order, value: "7" }]
                    scripts: { preRequest: "insomnia.environment.set('a', 1)" }
                  - url: "{{ _.base_url }}/ws"
                    name: live
                    meta: { id: ws-req_1 }
            environments:
              name: Base Environment
              data: { base_url: "http://127.0.0.1:9/api" }
              subEnvironments:
                - name: Staging
                  data: { base_url: "https://staging.example.com/api" }
            """])
        let out = try folder()
        let r5 = try importApp("insomnia", input.appendingPathComponent("c.yaml").path, into: out)
        assertWritten(try XCTUnwrap(try writtenFiles(out)["shop"]), holds: [
            "doc: \"The shop Orders: Order things\"\n",
            "baseURL: \"${BASE_URL:-http://127.0.0.1:9/api}\"\n",
            "environments: { staging: { baseURL: \"https://staging.example.com/api\" } }\n",
            "  orders-getOrder:\n",
            "    doc: \"Orders / get order: Reads an order\"\n",
            "    path: /orders/{order}\n",
            "    params: { order: \"7\" }\n",
            "    auth: { bearer: \"${SHOP_TOKEN}\" }\n",
        ], never: [], stderr: r5.stderr, warnings: [
            "$.collection[0].children[0].scripts.preRequest: the pre-request script of request 'get order' is not run",
            "$.collection[0].children[1]: websocket_request 'live' is not HTTP",
        ])
        try assertImportInvariant(out)
        // a design document or a mock is not a collection: refused, naming what it is
        let spec = try folder(["s.yaml": "type: spec.insomnia.rest/5.0\nname: x\n"])
        try assertRefused("insomnia", [("s.yaml", "'spec.insomnia.rest/5.0' is not an Insomnia collection")], in: spec)
    }

    /// A raw DEL (0x7F) in a JSON string is JSON; a UTF-8 BOM before it is skipped. A YAML file
    /// still may not hold a raw DEL (YAML's rule), and the written target file escapes it.
    func testJSONWithDELAndBOM() throws {
        let source = try Data(contentsOf: Self.postman.appendingPathComponent("insomnia-complex-v2_1.json"))
        var del = [UInt8](source)
        let at = try XCTUnwrap(del.indices.first { del[$0...].starts(with: Array("A collection for testing".utf8)) })
        del.insert(0x7F, at: at + 1)
        let input = try folder()
        try Data(del).write(to: input.appendingPathComponent("del.json"))
        try (Data([0xEF, 0xBB, 0xBF]) + source).write(to: input.appendingPathComponent("bom.json"))
        for name in ["del.json", "bom.json"] {
            let dir = try folder()
            try importApp("postman", input.appendingPathComponent(name).path, into: dir)
            try assertImportInvariant(dir)
        }
        let dir = try folder()
        try importApp("postman", input.appendingPathComponent("del.json").path, into: dir)
        let written = try writtenFiles(dir)
        XCTAssertTrue(written.values.contains { $0.contains("doc: \"A\\u007f collection for testing") }, "\(written)")

        let insomniaJSON = try String(contentsOf: Self.insomnia.appendingPathComponent("plugins-basic-import.json"), encoding: .utf8)
        try (Data([0xEF, 0xBB, 0xBF]) + Data(insomniaJSON.replacing("\"name\": \"", with: "\"name\": \"\u{7F}").utf8))
            .write(to: input.appendingPathComponent("ins.json"))
        let ins = try folder()
        try importApp("insomnia", input.appendingPathComponent("ins.json").path, into: ins)
        try assertImportInvariant(ins)

        let har = try Data(contentsOf: Self.har.appendingPathComponent("insomnia-deep-input.har"))
        try (Data([0xEF, 0xBB, 0xBF]) + har).write(to: input.appendingPathComponent("bom.har"))
        let h = try CLI.run(["import", "har", "bom.har", "--to", "h"], cwd: input)
        XCTAssertEqual(h.code, 0, h.stderr)

        try Data("type: collection.insomnia.rest/5.0\nname: \"a\u{7F}\"\ncollection: []\n".utf8).write(to: input.appendingPathComponent("del.yaml"))
        try assertRefused("insomnia", [("del.yaml", "control characters are not allowed")], in: input)
    }

    /// Yahoo's recording: the ad trackers' 302s are kept as recorded.
    func testRecordedRedirectsAreNotFollowed() throws {
        let dir = try folder()
        let r = try CLI.run(["import", "har", Self.har.appendingPathComponent("chrome-har-yahoo.har").path, "--to", "out"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let sb = try XCTUnwrap(try writtenFiles(dir.appendingPathComponent("out"))["sb"])
        XCTAssertTrue(sb.contains("    followRedirects: false\n    expect: { status: 302 }\n"), sb)
    }

    /// A 302 recorded from a local httpbin: `check` against the same server passes (it failed:
    /// the redirect was followed and the 200 at its end judged against `status: 302`).
    func testRecordedRedirectChecksAgainstItsServer() throws {
        let base = try CLI.httpbin()
        let dir = try folder(["r.har": """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
              {"request": {"method": "GET", "url": "\(base)/redirect-to?url=/get&status_code=302", "headers": []},
               "response": {"status": 302, "headers": [{"name": "Location", "value": "/get"}], "content": {"mimeType": "application/json", "text": ""}}}]}}
            """])
        let r = try CLI.run(["import", "har", "r.har", "--to", "out"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let c = try CLI.run(["check", "--targets", "out"], env: ["NO_PROXY": "127.0.0.1,localhost"], cwd: dir)
        XCTAssertEqual(c.code, 0, c.stdout + c.stderr)
    }

    /// Playwright's recording of an upload: `bodySize: 0`, no `postData`, `Content-Length: 17`;
    /// a form given only as `postData.params`; a beacon that truly had no body (no warning).
    func testMissingRecordedBodyIsAWarning() throws {
        let dir = try folder(["p.har": """
            {"log": {"version": "1.2", "creator": {"name": "Playwright", "version": "1.49.1"}, "entries": [
              {"request": {"method": "POST", "url": "http://127.0.0.1:9/upload?token=s3cr3tvalue", "bodySize": 0, "headersSize": -1,
                           "headers": [{"name": "Content-Type", "value": "application/json"}, {"name": "Content-Length", "value": "17"}]},
               "response": {"status": 201, "headers": [], "content": {"mimeType": "application/json", "text": "{}"}}},
              {"request": {"method": "POST", "url": "http://127.0.0.1:9/login", "headers": [],
                           "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "user", "value": "ann"}]}},
               "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json", "text": "{}"}}},
              {"request": {"method": "POST", "url": "http://127.0.0.1:9/beacon", "bodySize": 0,
                           "headers": [{"name": "Content-Length", "value": "0"}]},
               "response": {"status": 204, "headers": [], "content": {"mimeType": "", "text": ""}}}]}}
            """])
        let r = try CLI.run(["import", "har", "p.har", "--to", "out"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("entry 0 (POST http://127.0.0.1:9/upload): the request had a 17-byte body the recording does not hold"), r.stderr)
        XCTAssertFalse(r.stderr.contains("s3cr3tvalue"), r.stderr)
        XCTAssertTrue(r.stderr.contains("entry 1 (POST http://127.0.0.1:9/login): the request had a form body (postData.params without text) the recording does not hold"), r.stderr)
        XCTAssertFalse(r.stderr.contains("entry 2"), r.stderr)
        let text = try XCTUnwrap(try writtenFiles(dir.appendingPathComponent("out")).values.first)
        XCTAssertTrue(text.contains("# The recorded request had a 17-byte body the recording does not hold"), text)
    }
}
