import Foundation
import XCTest

/// `apicli import postman`: real collections (newman's examples, Insomnia's importer fixtures)
/// hold the import invariant; each mapping and hostile inputs are checked on small collections.
final class ImportPostmanCLITests: FolderTestCase {
    private static let fixtures = ImportFixtures.folder.appendingPathComponent("postman")

    func testEveryFetchedCollectionHoldsTheInvariant() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 12)
        for name in files where name != "insomnia-minimal-v2_0.json" {
            let dir = try folder()
            try importApp("postman", Self.fixtures.appendingPathComponent(name).path, into: dir)
            try assertImportInvariant(dir)
        }
    }

    func testNewmanSampleCollection() throws {
        let dir = try folder()
        let r = try importApp("postman", Self.fixtures.appendingPathComponent("newman-sample-collection.json").path, into: dir)
        XCTAssertTrue(r.stderr.contains("newman-sample-collection.json:10:15: warning: $.item[0].event[0]: the test script of request 'A simple GET request' is not run"), r.stderr)
        XCTAssertEqual(try writtenFiles(dir)["sample-postman-collection"], """
            # yaml-language-server: $schema=.apicli-targets.schema.json
            # Imported from newman-sample-collection.json (Postman collection 'Sample Postman Collection') by apicli import postman.
            service: sample-postman-collection
            baseURL: https://postman-echo.com
            doc: A sample collection to demonstrate collections as a set of related requests
            targets:
              aSimpleGETRequest:
                # The test script was not imported (apicli runs no JavaScript).
                doc: A simple GET request
                path: /get
                task: { query: { source: newman-sample-github-collection } }

              aSimplePOSTRequest:
                doc: A simple POST request
                method: POST
                path: /post
                headers: { Content-Type: text/plain }
                task: { body: Duis posuere augue vel cursus pharetra. In luctus a ex nec pretium... }
                check: false

              aSimplePOSTRequestWithJSONBody:
                doc: A simple POST request with JSON body
                method: POST
                path: /post
                headers: { Content-Type: application/json }
                task: { json: { text: Duis posuere augue vel cursus pharetra. In luctus a ex nec pretium... } }
                check: false

            """)
    }

    /// Issue 34 item 6: `{{GITHUB_TOKEN}}` (not defined by the collection) and
    /// `{{AWS_SECRET_ACCESS_KEY}}` (secret-named) were written as `${GITHUB_TOKEN}` and
    /// `${AWS_SECRET_ACCESS_KEY}`: `call` then sent the user's own secrets to the collection's host.
    func testUndeclaredAndSecretVariablesNeverReadTheUsersOwn() throws {
        let dir = try folder(["c.json": """
            {"info": {"name": "leak", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "AWS_SECRET_ACCESS_KEY", "value": "from-collection"}, {"key": "host", "value": "127.0.0.1:9"}],
             "item": [{"name": "x", "request": {"method": "GET", "url": "http://{{host}}/x",
               "header": [{"key": "X-Token", "value": "{{GITHUB_TOKEN}}"}, {"key": "X-Aws", "value": "{{AWS_SECRET_ACCESS_KEY}}"}]}}]}
            """])
        try importApp("postman", "c.json", into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["leak"])
        assertWritten(text, holds: ["X-Token: \"${LEAK_GITHUB_TOKEN}\"", "X-Aws: \"${LEAK_AWS_SECRET_ACCESS_KEY}\""],
                      never: ["${GITHUB_TOKEN}", "${AWS_SECRET_ACCESS_KEY}", "from-collection"], stderr: "", warnings: [])
        let env = ["GITHUB_TOKEN": "ghp_USERS_OWN", "AWS_SECRET_ACCESS_KEY": "AWS_USERS_OWN"]
        let c = try CLI.run(["call", "leak.x", "--dry-run", "--show-secrets", "--targets", dir.path], env: env, cwd: dir)
        XCTAssertFalse(c.stdout.contains("USERS_OWN") || c.stderr.contains("USERS_OWN"), c.stdout + c.stderr)
        let set = try CLI.run(["call", "leak.x", "--dry-run", "--show-secrets", "--targets", dir.path],
                              env: env.merging(["LEAK_GITHUB_TOKEN": "gt", "LEAK_AWS_SECRET_ACCESS_KEY": "ak"]) { a, _ in a }, cwd: dir)
        XCTAssertEqual(set.code, 0, set.stderr)
        XCTAssertTrue(set.stdout.contains("X-Token: gt\nX-Aws: ak\n"), set.stdout)
    }

    /// Folders, variables with and without defaults, path variables, disabled headers and query
    /// pairs, every body mode, auth at each level, saved responses, a status test.
    func testEachMapping() throws {
        let dir = try folder(["c.json": Self.collection])
        let r = try importApp("postman", "c.json", into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["shop"])
        assertWritten(text, holds: [
            "baseURL: \"${BASE_URL:-https://api.example.com/v1}\"",
            "auth: { bearer: \"${SHOP_TOKEN}\" }",                              // collection auth: literal token not written
            "  orders-getOrder:\n",                                               // folder-request
            "    path: /orders/{orderId}/items/${SHOP_ITEM}\n",                  // not defined by the collection: prefixed
            "    params: { orderId: \"42\" }\n",
            "    headers: { Accept: application/json }\n",                       // the disabled header is left out
            "    task: { query: { page: \"2\", tag: [a, b] }, arrays: noBrackets }\n",
            "    expect: { status: 200 }\n",
            "    sample:\n      headers: { Content-Type: application/json }\n      json: { id: 42, note: \"${{}id} $${HOME}\" }\n",
            "    samples: { notFound: { status: 404, body: missing, expectFailure: true } }\n",
            "    task: { json: { name: \"${SHOP_USER_NAME}\", count: 2 } }\n",
            "    task: { form: { a: \"1\", b: two words } }\n",
            "    task: { multipart: [{ name: note, value: hi }, { name: photo, value: \"\" }] }\n",
            "    # Part 'photo' is a file (/tmp/p.png): send it with -F photo=@PATH.\n",
            "    task: { graphql: { query: \"{ viewer { login } }\", variables: { \"n\": 3 } } }\n",
            "    auth: { basic: { user: ann, password: \"${SHOP_PASSWORD}\" } }\n",
            "    auth: { header: X-Key, value: \"${SHOP_API_KEY}\" }\n",
            "    task: { query: { key: \"${SHOP_API_KEY}\" } }\n",
            "    auth: none\n",
        ], never: ["s3cr3t", "hunter2"], stderr: r.stderr, warnings: [
            "c.json:", "warning: $.item[1].event[0]: the pre-request script of request 'Raw JSON' is not run",
            "auth type 'hawk' has no auth: form",
        ])
        try assertImportInvariant(dir)
    }

    /// A variable whose value holds `${HOME}`, a header value with CR/LF, `{id}` and `${` in text,
    /// folders nested 100 deep: the file stays valid and nothing reads the environment.
    func testHostileInputs() throws {
        var nested = #"{"name": "leaf", "request": {"url": "http://127.0.0.1:9/deep"}}"#
        for i in 0..<100 { nested = #"{"name": "f\#(i)", "item": [\#(nested)]}"# }
        let collection = """
            {"info": {"name": "evil", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "home", "value": "${HOME}"}, {"key": "brace", "value": "a}b"}],
             "item": [
              {"name": "x", "request": {"method": "POST", "url": "http://127.0.0.1:9/{{home}}/{id}?q=${PATH}",
                "header": [{"key": "X-Bad", "value": "a\\r\\nInjected: yes"}, {"key": "X-Ok", "value": "{{brace}} ${USER}"}],
                "body": {"mode": "raw", "raw": "{\\"a\\": \\"{{home}} {b} $${x}\\"}", "options": {"raw": {"language": "json"}}}}},
              \(nested)
             ]}
            """
        let dir = try folder(["evil.json": collection])
        let r = try importApp("postman", "evil.json", into: dir)
        XCTAssertTrue(r.stderr.contains("$.item[0].request.header[0]: the value of header 'X-Bad' holds a line break"), r.stderr)
        XCTAssertTrue(r.stderr.contains("folders nested deeper than 64"), r.stderr)
        let text = try XCTUnwrap(try writtenFiles(dir)["evil"])
        XCTAssertFalse(text.contains("Injected"), text)
        // `{{home}}` is not `${HOME}` (the user's home folder) but `${EVIL_HOME}`, with no default (its value holds `${`)
        XCTAssertTrue(text.contains("path: /${EVIL_HOME}/${{}id}\n"), text)
        XCTAssertTrue(text.contains("task: { query: { q: \"$${PATH}\" }, json: { a: \"${EVIL_HOME} ${{}b} $$${x}\" } }"), text)
        XCTAssertTrue(text.contains("headers: { X-Ok: \"${BRACE} $${USER}\" }"), text)
        try assertImportInvariant(dir)
        // show sends the literal text, never the environment's HOME, PATH or USER
        let s = try CLI.run(["show", "evil.x", "--targets", dir.path], env: ["EVIL_HOME": "h", "BRACE": "b", "HOME": "/root"], cwd: dir)
        XCTAssertEqual(s.code, 0, s.stderr)
        XCTAssertTrue(s.stdout.contains("POST http://127.0.0.1:9/h/%7Bid%7D?q=%24%7BPATH%7D\nX-Ok: b ${USER}\n"), s.stdout)
        XCTAssertTrue(s.stdout.contains(#"{"a":"h {b} $${x}"}"#), s.stdout)
    }

    func testBadInputIsExit2WithWhereAndHow() throws {
        let dir = try folder([
            "list.json": "[1, 2]",
            "v1.json": #"{"id": "x", "name": "old", "order": [], "requests": []}"#,
            "items.json": #"{"info": {"name": "x"}, "item": {"name": "not a list"}}"#,
            "empty.json": Self.readFixture("insomnia-minimal-v2_0.json"),
            "broken.json": #"{"info": {"name": "x"}, "item": [ }"#,
        ])
        try assertRefused("postman", [
            ("list.json", "list.json:1:1: error: $: a Postman collection is a JSON object, not a list"),
            ("v1.json", "v1.json:1:1: error: $: this is a Postman Collection v1; only v2.0 and v2.1 are read"),
            ("items.json", "items.json:1:33: error: $.item: 'item' is a list of folders and requests, not a mapping"),
            ("empty.json", "error: $.item: the collection has no requests to import"),
            ("broken.json", "broken.json:1:"),
        ], in: dir)
        // A file that exists is not replaced without --force (exit 5), and nothing else is written
        let c = try folder(["c.json": Self.collection, "out/shop.yaml": "keep"])
        let r = try CLI.run(["import", "postman", "c.json", "--to", "out"], cwd: c)
        XCTAssertEqual(r.code, 5, r.stderr)
        XCTAssertEqual(try String(contentsOf: c.appendingPathComponent("out/shop.yaml"), encoding: .utf8), "keep")
        XCTAssertEqual(try CLI.run(["import", "postman", "c.json", "--to", "out", "--force"], cwd: c).code, 0)
        XCTAssertEqual(try CLI.run(["import", "postman", "c.json", "--service", "a b"], cwd: c).code, 64)
    }

    private static func readFixture(_ name: String) -> String {
        (try? String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    static let collection = #"""
        {
          "info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
          "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "s3cr3t"}]},
          "variable": [{"key": "baseUrl", "value": "https://api.example.com/v1"}, {"key": "apiToken", "value": "hunter2"}],
          "item": [
            {"name": "Orders", "item": [
              {"name": "Get order",
               "event": [{"listen": "test", "script": {"exec": ["pm.test('ok', () => {", "  pm.response.to.have.status(200);", "});"]}}],
               "request": {"method": "GET",
                 "header": [{"key": "Accept", "value": "application/json"}, {"key": "X-Debug", "value": "1", "disabled": true}],
                 "url": {"raw": "{{baseUrl}}/orders/:orderId/items/{{item}}?page=2&tag=a&tag=b&off=1",
                         "host": ["{{baseUrl}}"], "path": ["orders", ":orderId", "items", "{{item}}"],
                         "query": [{"key": "page", "value": "2"}, {"key": "tag", "value": "a"}, {"key": "tag", "value": "b"},
                                   {"key": "off", "value": "1", "disabled": true}],
                         "variable": [{"key": "orderId", "value": "42"}]}},
               "response": [
                 {"name": "OK", "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}, {"key": "Content-Length", "value": "9"}],
                  "body": "{\"id\": 42, \"note\": \"{id} ${HOME}\"}"},
                 {"name": "Not found", "code": 404, "body": "missing"}]}
            ]},
            {"name": "Raw JSON",
             "event": [{"listen": "prerequest", "script": {"exec": ["pm.variables.set('x', 1)"]}}],
             "request": {"method": "POST", "url": "{{baseUrl}}/users",
               "body": {"mode": "raw", "raw": "{\"name\": \"{{userName}}\", \"count\": 2}", "options": {"raw": {"language": "json"}}}}},
            {"name": "Form", "request": {"method": "POST", "url": "{{baseUrl}}/form",
               "body": {"mode": "urlencoded", "urlencoded": [{"key": "a", "value": "1"}, {"key": "b", "value": "two words"}, {"key": "c", "value": "x", "disabled": true}]}}},
            {"name": "Upload", "request": {"method": "POST", "url": "{{baseUrl}}/upload",
               "body": {"mode": "formdata", "formdata": [{"key": "note", "value": "hi", "type": "text"}, {"key": "photo", "type": "file", "src": "/tmp/p.png"}]}}},
            {"name": "GraphQL", "request": {"method": "POST", "url": "{{baseUrl}}/graphql",
               "body": {"mode": "graphql", "graphql": {"query": "{ viewer { login } }", "variables": "{\"n\": 3}"}}}},
            {"name": "Basic", "request": {"url": "{{baseUrl}}/basic",
               "auth": {"type": "basic", "basic": [{"key": "username", "value": "ann"}, {"key": "password", "value": "hunter2"}]}}},
            {"name": "Key header", "request": {"url": "{{baseUrl}}/k1",
               "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "X-Key"}, {"key": "value", "value": "hunter2"}]}}},
            {"name": "Key query", "request": {"url": "{{baseUrl}}/k2",
               "auth": {"type": "apikey", "apikey": [{"key": "key", "value": "key"}, {"key": "value", "value": "hunter2"}, {"key": "in", "value": "query"}]}}},
            {"name": "Public", "request": {"url": "{{baseUrl}}/public", "auth": {"type": "noauth"}}},
            {"name": "Hawk", "request": {"url": "{{baseUrl}}/hawk", "auth": {"type": "hawk", "hawk": []}}}
          ]
        }
        """#
}
