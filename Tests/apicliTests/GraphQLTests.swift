import Foundation
import TestServers
import XCTest

/// `task: { graphql: … }` against a real GraphQL executor (Tests/Servers/graphql-server.py, graphql-core):
/// POST as JSON or GET in the URL as GraphQL over HTTP says, variables expanded from params and
/// captures, `Accept` as the specification asks, `errors` failing call and check by default, and
/// samples answering offline.
final class GraphQLTests: XCTestCase {
    var server: TestServer!
    var dir: URL!

    override func setUpWithError() throws {
        server = try TestServer("graphql-server.py", ["--lifetime", "120"])
        dir = try CLI.folder([
            "targets/gql.yaml": """
                baseURL: \(server.url)
                validate: success
                targets:
                  user:
                    path: /graphql
                    params: { id: "1" }
                    task:
                      graphql:
                        query: "query User($id: ID!) { user(id: $id) { id name } }"
                        variables: { id: "{id}" }
                        operationName: User
                    expect: { json: { $.data.user.name: Ada } }
                    sample: { status: 200, json: { data: { user: { id: "1", name: Ada } } } }
                  byGet:
                    path: /graphql
                    method: GET
                    task: { graphql: { query: "{user(id: 2){name}}" } }
                    expect: { json: { $.data.user.name: Grace } }
                  rename:
                    path: /graphql
                    task: { graphql: { query: { file: rename.graphql }, variables: { id: "1", name: "${NEW_NAME}" } } }
                    capture: { renamed: { json: "$.data.rename.name" } }
                  broken:
                    path: /graphql
                    task: { graphql: "{ broken }" }
                  tolerant:
                    path: /graphql
                    task: { graphql: { query: "{ broken }", errors: allow } }
                """,
            "targets/rename.graphql": "mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { name } }\n",
        ])
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func log() throws -> [[String: Any]] {
        let r = try Curl.run(["\(server.url)/log"])
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [[String: Any]], r.raw)
    }

    func testOperationsAreSentAsGraphQLOverHTTPSays() throws {
        // WHEN each kind is called
        let user = try CLI.run(["call", "gql.user"], cwd: dir)
        XCTAssertEqual(user.code, 0, user.stderr)
        XCTAssertTrue(user.stdout.contains(#""name": "Ada""#), user.stdout)
        XCTAssertEqual(try CLI.run(["call", "gql.byGet"], cwd: dir).code, 0)
        let rename = try CLI.run(["call", "gql.rename"], env: ["NEW_NAME": "Augusta"], cwd: dir)
        XCTAssertEqual(rename.code, 0, rename.stderr)
        XCTAssertTrue(rename.stdout.contains("Augusta"), rename.stdout)
        // THEN the server saw POST JSON with variables expanded, GET in the URL, and the Accept the spec asks
        let seen = try log()
        XCTAssertEqual(seen.map { $0["method"] as? String }, ["POST", "GET", "POST"])
        XCTAssertEqual(seen[0]["operationName"] as? String, "User")
        XCTAssertEqual(seen[0]["variables"] as? [String: String], ["id": "1"])
        XCTAssertEqual(seen[1]["query"] as? String, "{user(id: 2){name}}")
        XCTAssertEqual(seen[2]["variables"] as? [String: String], ["id": "1", "name": "Augusta"])
        XCTAssertEqual(seen[0]["accept"] as? String, "application/graphql-response+json, application/json")
        // AND show prints the operation as it goes
        XCTAssertTrue(try CLI.run(["show", "gql.user"], cwd: dir).stdout.contains(#""operationName":"User""#))
    }

    func testErrorsFailCallAndCheckUnlessAllowed() throws {
        let broken = try CLI.run(["call", "gql.broken"], cwd: dir)
        XCTAssertEqual(broken.code, 1, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("apicli: gql.broken: graphql errors: this field always fails (at broken)"), broken.stderr)
        XCTAssertEqual(try CLI.run(["call", "gql.tolerant"], cwd: dir).code, 0)
        let check = try CLI.run(["check", "gql", "--all"], env: ["NEW_NAME": "Ada"], cwd: dir)
        XCTAssertEqual(check.code, 1, check.stdout)
        let lines = CheckSupport.normalized(check.stdout)
        XCTAssertTrue(lines.contains("FAIL gql.broken 200 T ms graphql errors: this field always fails (at broken)"), lines)
        XCTAssertTrue(lines.contains("PASS gql.user 200"), lines)
        XCTAssertTrue(lines.contains("PASS gql.tolerant 200"), lines)
        XCTAssertTrue(lines.hasSuffix("4 passed, 1 failed\n"), lines)
        // AND offline the sample answers
        XCTAssertEqual(try CLI.run(["call", "gql.user", "--stub"], cwd: dir).code, 0)
    }

    func testBadGraphQLBlocksAreDiagnosedAtTheirPlace() throws {
        let bad = try CLI.folder(["targets/bad.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              a: { task: { graphql: { variables: { x: 1 } } } }
              b: { task: { graphql: { query: "{ x }", method: PUT } } }
              c: { task: { graphql: "{ x }", json: { y: 1 } } }
            """])
        defer { try? FileManager.default.removeItem(at: bad) }
        let r = try CLI.run(["validate"], cwd: bad)
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("targets/bad.yaml:3:25: error: graphql needs query:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("error: graphql method is GET or POST, not 'PUT'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("error: task has more than one body: graphql and json"), r.stderr)
    }
}
