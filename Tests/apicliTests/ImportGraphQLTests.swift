import Foundation
import TestServers
import XCTest

/// GraphQL from the importers (issue 23: "`import postman`/`curl` map GraphQL bodies to it"):
/// Postman's `graphql` body mode and a curl POST of `{"query", "variables", "operationName"}` JSON
/// to a `/graphql` path become `task: { graphql: … }`; the imported targets validate, are sent
/// as GraphQL over HTTP to a real executor (Tests/Servers/graphql-server.py), and the mock answers them.
final class ImportGraphQLTests: FolderTestCase {
    var server: TestServer?

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    /// The executor's request log: method and body of each request.
    private func log(_ server: TestServer) throws -> [[String: Any]] {
        let r = try Curl.run(["\(server.url)/log"])
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [[String: Any]], r.raw)
    }

    func testRealPostmanCollectionGraphQLBody() throws {
        // GIVEN a real Postman v2.1 collection (Kong/insomnia's importer fixture) with a GraphQL login mutation
        let dir = try folder()
        let r = try CLI.run(["import", "postman", ImportFixtures.path("postman/insomnia-complex-v2_1.json")], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/complex-test-collection.yaml"), encoding: .utf8)
        // THEN it is a graphql: task, the query as written, {{variables}} (not defined by the
        // collection) → ${SERVICE_VARS}
        XCTAssertTrue(text.contains("""
              testRequestGraphQLBody:
                doc: "Test Request GraphQL Body: Request with graphql body"
                method: POST
                path: /graphql/
                task:
                  graphql:
                    query: "mutation loginUser($username: String!, $password: String!) {\\n  login(username: $username, password: $password) {\\n    token\\n    status {\\n      success\\n    }\\n  }\\n}\\n"
                    variables:
                      password: "${COMPLEX_TEST_COLLECTION_PASSWORD}"
                      username: "${COMPLEX_TEST_COLLECTION_USERNAME}"
            """), text)
        let v = try CLI.run(["validate"], env: ["COMPLEX_TEST_COLLECTION_PASSWORD": "p", "COMPLEX_TEST_COLLECTION_USERNAME": "u",
                                                "COMPLEX_TEST_COLLECTION_BASE_URL": "http://127.0.0.1:9"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }

    func testPostmanGraphQLSentToARealExecutorAndMocked() throws {
        // GIVEN a collection with a query by name (variables given as a mapping, as some exports do),
        // a mutation with variables as JSON text, and a GET query
        let server = try TestServer("graphql-server.py", ["--lifetime", "300"])
        self.server = server
        let dir = try folder(["c.json": #"""
            {"info": {"name": "Gql", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "variable": [{"key": "base", "value": "\#(server.url)"}],
             "item": [
              {"name": "User", "request": {"method": "POST", "url": "{{base}}/graphql",
                "header": [{"key": "Content-Type", "value": "application/json"}],
                "body": {"mode": "graphql", "graphql": {"query": "query A { user(id: \"2\") { name } } query User($id: ID!) { user(id: $id) { id name } }",
                                                        "variables": {"id": "{{userId}}"}, "operationName": "User"}}}},
              {"name": "Rename", "request": {"method": "POST", "url": "{{base}}/graphql",
                "body": {"mode": "graphql", "graphql": {"query": "mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { name } }",
                                                        "variables": "{\"id\": \"1\", \"name\": \"Lovelace\"}"}}}},
              {"name": "ByGet", "request": {"method": "GET", "url": "{{base}}/graphql",
                "body": {"mode": "graphql", "graphql": {"query": "{ user(id: \"2\") { name } }"}}}}
             ]}
            """#])
        let r = try CLI.run(["import", "postman", "c.json", "--service", "gql"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/gql.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains(#"variables: { id: "${GQL_USER_ID}" }"#), text)
        XCTAssertTrue(text.contains("operationName: User"), text)
        XCTAssertTrue(text.contains("method: GET"), text)
        // THEN validate accepts it, and each target is sent as GraphQL over HTTP and answered by the executor
        let env = ["GQL_USER_ID": "1"]
        let v = try CLI.run(["validate"], env: env, cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
        let user = try CLI.run(["call", "gql.user"], env: env, cwd: dir)
        XCTAssertEqual(user.code, 0, user.stderr)
        XCTAssertTrue(user.stdout.contains(#""name": "Ada""#) || user.stdout.contains(#""name":"Ada""#), user.stdout)
        let rename = try CLI.run(["call", "gql.rename"], env: env, cwd: dir)
        XCTAssertTrue(rename.stdout.contains("Lovelace"), rename.stdout + rename.stderr)
        let get = try CLI.run(["call", "gql.byGet"], env: env, cwd: dir)
        XCTAssertTrue(get.stdout.contains("Grace"), get.stdout + get.stderr)
        let sent = try log(server)
        XCTAssertEqual(sent.map { $0["method"] as? String }, ["POST", "POST", "GET"], "\(sent)")
        let first = try XCTUnwrap(sent.first, "\(sent)")
        XCTAssertEqual(first["operationName"] as? String, "User")
        XCTAssertEqual(first["variables"] as? [String: String], ["id": "1"])
        // AND check --stub passes on the samples it has (none: nothing to judge is no failure)
        let stub = try CLI.run(["check", "--stub"], env: env, cwd: dir)
        XCTAssertEqual(stub.code, 0, stub.stdout + stub.stderr)
    }

    func testInsomniaGraphQLBodyKeepsItsOperationName() throws {
        // GIVEN an Insomnia export whose GraphQL body names its operation among two
        let server = try TestServer("graphql-server.py", ["--lifetime", "300"])
        self.server = server
        let dir = try folder(["e.yaml": """
            _type: export
            __export_format: 4
            resources:
              - { _id: wrk_1, _type: workspace, name: Gql, parentId: null }
              - { _id: env_1, _type: environment, parentId: wrk_1, name: Base, data: { base_url: "\(server.url)" } }
              - _id: req_1
                _type: request
                parentId: wrk_1
                name: user
                method: POST
                url: "{{ _.base_url }}/graphql"
                body: { mimeType: application/graphql, text: '{"query": "query A { user(id: \\"2\\") { name } } query B { user(id: \\"1\\") { name } }", "operationName": "B"}' }
            """])
        let r = try CLI.run(["import", "insomnia", "e.yaml", "--service", "gql"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/gql.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("operationName: B"), text)
        // THEN the executor runs B (without the name it refuses a document of two operations)
        let call = try CLI.run(["call", "gql.user"], cwd: dir)
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertTrue(call.stdout.contains("Ada"), call.stdout)
    }

    func testCurlGraphQLPostBecomesAGraphQLTask() throws {
        // GIVEN a browser's copy of a GraphQL POST (Apollo's member order) to the local executor
        let server = try TestServer("graphql-server.py", ["--lifetime", "300"])
        self.server = server
        let dir = try folder()
        let command = #"curl '\#(server.url)/graphql' -H 'accept: */*' -H 'content-type: application/json' "#
            + #"--data-raw '{"operationName":"User","variables":{"id":"2"},"query":"query User($id: ID!) { user(id: $id) { id name } }"}'"#
        let r = try shell("printf '%s' \"$CMD\" | \"$APICLI\" import curl --service gql --name user > targets/gql.yaml",
                          cwd: try makeTargets(dir), env: ["CMD": command])
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/gql.yaml"), encoding: .utf8)
        // THEN the body is a graphql: task with the three members; the Content-Type header is graphql:'s own
        XCTAssertTrue(text.contains("""
                task:
                  graphql:
                    query: "query User($id: ID!) { user(id: $id) { id name } }"
                    variables: { id: "2" }
                    operationName: User
            """), text)
        XCTAssertFalse(text.lowercased().contains("content-type"), text)
        XCTAssertTrue(text.contains(#"headers: { accept: "*/*" }"#), text)  // curl's own Accept is kept
        // AND the member order curl sent is said, once
        XCTAssertEqual(r.stderr.components(separatedBy: "written as task: graphql:").count - 1, 1, r.stderr)
        // AND the target validates and, sent to the executor, gets Grace
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
        let call = try CLI.run(["call", "gql.user"], cwd: dir)
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertTrue(call.stdout.contains("Grace"), call.stdout)
        let sent = try XCTUnwrap(try log(server).last)
        XCTAssertEqual(sent["operationName"] as? String, "User")
        XCTAssertEqual(sent["variables"] as? [String: String], ["id": "2"])

        // AND the mock of a recorded answer matches on the operation name
        let samples = text + "    sample: { json: { data: { user: { id: \"2\", name: Grace } } } }\n"
        try samples.write(to: dir.appendingPathComponent("targets/gql.yaml"), atomically: true, encoding: .utf8)
        let mock = try MockProcess([], cwd: dir)
        defer { mock.stop() }
        let answer = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                                   #"{"query":"query User($id: ID!) { user(id: $id) { name } }","operationName":"User"}"#, mock.url + "/graphql"])
        XCTAssertEqual(answer.status, 200, answer.raw)
        XCTAssertTrue(answer.body.contains("Grace"), answer.body)
    }

    func testCurlJSONThatIsNotAGraphQLRequestStaysJSON() throws {
        // GIVEN JSON POSTs that are not plain GraphQL requests (or not to /graphql, or not sent as JSON)
        for (url, data, type, expect) in [
            ("http://127.0.0.1:9/graphql", #"{"query":"{ a }","extensions":{"persistedQuery":{"version":1}}}"#, "application/json", "json:"),
            ("http://127.0.0.1:9/api/search", #"{"query":"{ a }"}"#, "application/json", "json:"),
            ("http://127.0.0.1:9/graphql", #"{"query":"{ a }"}"#, "text/plain", "body:"),
            ("http://127.0.0.1:9/graphql", #"{"query":3}"#, "application/json", "json:"),
            ("http://127.0.0.1:9/graphql", #"[{"query":"{ a }"}]"#, "application/json", "json:"),
            ("http://127.0.0.1:9/v1/graphql/", #"{"query":"{ a }"}"#, "application/json; charset=utf-8", "graphql:"),
        ] {
            let dir = try folder()
            let r = try shell("\"$APICLI\" import curl \"$CMD\"", cwd: dir, env: ["CMD": "curl '\(url)' -H 'Content-Type: \(type)' -d '\(data)'"])
            XCTAssertEqual(r.code, 0, "\(data): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("task: { \(expect)") || r.stdout.contains("task:\n      \(expect)"), "\(url) \(data): \(r.stdout)")
            try r.stdout.write(to: dir.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
            let v = try CLI.run(["validate", "t.yaml"], cwd: dir)
            XCTAssertEqual(v.code, 0, "\(data): \(v.stdout)\(v.stderr)\n\(r.stdout)")
        }
    }

    private func makeTargets(_ dir: URL) throws -> URL {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("targets"), withIntermediateDirectories: true)
        return dir
    }
}
