import Foundation
import TestServers
import XCTest

/// GraphQL offline and recorded: `apicli mock` tells GraphQL targets on one endpoint apart by the
/// request's `operationName`, else its query's first operation; `check --stub` judges GraphQL
/// samples (an `errors` sample fails); `record` against Tests/Servers/graphql-server.py writes a sample
/// the stub then answers with.
final class GraphQLMockTests: XCTestCase {
    var dir: URL!

    static let file = """
        baseURL: http://127.0.0.1:9
        targets:
          user:
            path: /graphql
            task: { graphql: { query: "query User($id: ID!) { user(id: $id) { name } }", variables: { id: "1" } } }
            sample: { json: { data: { user: { name: Ada } } } }
            expect: { json: { $.data.user.name: Ada } }
          users:
            path: /graphql
            task: { graphql: { query: "fragment F on User { name } query Users { users { ...F } }" } }
            sample: { json: { data: { users: [ { name: Ada }, { name: Grace } ] } } }
          broken:
            path: /graphql
            task: { graphql: { query: "query Broken { broken }" } }
            sample: { json: { data: null, errors: [ { message: "no field broken", path: [broken] } ] } }
          zen:
            path: /graphql
            method: GET
            task: { graphql: { query: "query Zen { zen }" } }
            sample: { json: { data: { zen: calm } } }
          other:
            path: /graphql
            method: GET
            task: { graphql: { query: "query Other { other }" } }
            sample: { json: { data: { other: 1 } } }
        """

    override func setUpWithError() throws {
        dir = try CLI.folder(["targets/gql.yaml": Self.file])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func post(_ mock: MockProcess, _ json: String) throws -> Curl {
        try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", json, mock.url + "/graphql"])
    }

    func testMockAnswersByOperation() throws {
        let mock = try MockProcess([], cwd: dir)
        defer { mock.stop() }
        let byName = try post(mock, #"{"query":"query A { x } query Users { y }","operationName":"Users"}"#)
        XCTAssertEqual(byName.status, 200, byName.raw)
        XCTAssertTrue(byName.body.contains("Grace"), byName.body)
        let byFirst = try post(mock, ##"{"query":"# a comment: query Users\nquery User($id: ID!) { user(id: $id) { name } }"}"##)
        XCTAssertTrue(byFirst.body.contains(#""name":"Ada""#), byFirst.body)
        let get = try Curl.run([mock.url + "/graphql?query=query%20Other%20%7B%20other%20%7D"])
        XCTAssertTrue(get.body.contains(#""other":1"#), get.body)
        let getByName = try Curl.run([mock.url + "/graphql?query=query%20A%7Ba%7D%20query%20Zen%7Bzen%7D&operationName=Zen"])
        XCTAssertTrue(getByName.body.contains("calm"), getByName.body)
        let unknown = try post(mock, #"{"query":"query Nope { x }"}"#)
        XCTAssertEqual(unknown.status, 400, unknown.raw)
        XCTAssertTrue(unknown.body.contains("no operation named Nope is served here; served: User, Users, Broken"), unknown.body)
        // apicli itself, live against the mock: each target gets its own answer
        let env = ["APICLI_BASE_URL": mock.url]
        let call = try CLI.run(["call", "gql.users", "--base-url", mock.url], env: env, cwd: dir)
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertTrue(call.stdout.contains("Grace"), call.stdout)
        let check = try CLI.run(["check", "gql.user", "--all", "--base-url", mock.url], cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
    }

    func testCheckStubJudgesGraphQLSamples() throws {
        let r = try CLI.run(["check", "--stub"], cwd: dir)
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("PASS  gql.user"), r.stdout)
        XCTAssertTrue(r.stdout.contains("graphql errors: no field broken (at broken)"), r.stdout)
    }

    func testFirstOperationNameSkipsFragmentsCommentsAndStrings() throws {
        // through the mock, which is where the rule is used: an anonymous query matches no named target
        let mock = try MockProcess([], cwd: dir)
        defer { mock.stop() }
        let anonymous = try post(mock, #"{"query":"{ users { name } }"}"#)
        XCTAssertEqual(anonymous.status, 400, anonymous.raw)
        XCTAssertTrue(anonymous.body.contains("the request names no operation"), anonymous.body)
        let quoted = try post(mock, #"{"query":"query Users(\"\"\"query User\"\"\" $a: Int) { users }"}"#)
        XCTAssertTrue(quoted.body.contains("Grace"), quoted.body)
    }

    func testRecordWritesASampleTheStubAnswersWith() throws {
        let server = try TestServer("graphql-server.py", ["--lifetime", "60"])
        defer { server.stop() }
        let live = try CLI.folder(["targets/g.yaml": """
            baseURL: \(server.url)
            targets:
              user:
                path: /graphql
                task: { graphql: { query: "query User { user(id: 1) { id name } }" } }
            """])
        defer { try? FileManager.default.removeItem(at: live) }
        let r = try CLI.run(["record", "g.user"], cwd: live)
        XCTAssertEqual(r.code, 0, r.stderr)
        let stub = try CLI.run(["call", "g.user", "--stub"], cwd: live)
        XCTAssertEqual(stub.code, 0, stub.stderr)
        XCTAssertTrue(stub.stdout.contains("Ada"), stub.stdout)
        let check = try CLI.run(["check", "--stub", "g.user"], cwd: live)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
    }
}
