import XCTest

/// `schema:` beyond `expect:` (issue 21): on a capture's source (the captured value must satisfy
/// it, else the targets that need it fail without being sent) and on `until:` conditions.
final class SchemaFlowTests: FolderTestCase {
    private func flow(loginID: Int) throws -> URL {
        try folder(["targets/flow.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              login:
                path: /login
                capture:
                  userId: { json: "$.id", schema: { type: integer, minimum: 1 } }
                  token: { json: "$.token", schema: { type: string, minLength: 8 }, secret: true }
                sample: { json: { id: \(loginID), token: "\(loginID > 0 ? "long-enough" : "s3")" } }
              me:
                path: /users/{userId}
                needs: login
                sample: { json: { ok: true } }
              job:
                path: /job
                until: { expect: { schema: { required: [state], properties: { state: { const: done } } } }, within: 5s }
                sample: { json: { state: running } }
            """])
    }

    func testACaptureThatBreaksItsSchemaStopsTheTargetsThatNeedIt() throws {
        let bad = try flow(loginID: 0)
        let r = try CLI.run(["check", "--stub", "flow.me"], cwd: bad)
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("needs: capture 'userId' of flow.login breaks its schema: $: 0 is below minimum 1 (#) [minimum]"), r.stdout)

        let good = try flow(loginID: 7)
        XCTAssertEqual(try CLI.run(["check", "--stub", "flow.me"], cwd: good).code, 0)
        XCTAssertEqual(try CLI.run(["validate"], cwd: good).code, 0)
    }

    func testASecretCaptureIsNotQuotedInItsViolation() throws {
        let dir = try folder(["targets/flow.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              login:
                path: /login
                capture: { token: { json: "$.token", schema: { type: string, minLength: 20 }, secret: true } }
                sample: { json: { token: "hunter2-s3cret" } }
              me: { path: /me, needs: login, headers: { Authorization: "Bearer {token}" }, sample: { json: {} } }
            """])
        let r = try CLI.run(["check", "--stub", "flow.me"], cwd: dir)
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("needs: capture 'token' of flow.login breaks its schema: $: expected"), r.stdout)
        XCTAssertTrue(r.stdout.contains("[minLength]"), r.stdout)
        XCTAssertFalse((r.stdout + r.stderr).contains("hunter2"), r.stdout + r.stderr)
    }

    func testUntilTakesASchemaCondition() throws {
        let dir = try flow(loginID: 7)
        let r = try CLI.run(["check", "--stub", "flow.job"], cwd: dir)
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("does not meet until: schema: $.state: \"running\" is not \"done\""), r.stdout)
        XCTAssertTrue(r.stdout.contains("(#/properties/state) [const]"), r.stdout)
    }

    func testAWrongCaptureSchemaIsAnErrorAtItsLine() throws {
        let dir = try folder(["targets/flow.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              login:
                path: /login
                capture: { id: { json: "$.id", schema: { type: 12 } } }
            """])
        let r = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("targets/flow.yaml:5:"), r.stderr)
    }
}
