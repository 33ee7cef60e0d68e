import Foundation
import XCTest

/// Offline means offline: `call --stub`, `check --stub` and `mock` do not need the `${VAR}`s that
/// only feed the request; `-v` and `--curl` show an unset one as `••••`; a sample that needs one
/// says so; `-p` fills the sample's `{name}`s.
final class OfflineStubTests: FolderTestCase {
    static let api = """
        service: api
        baseURL: http://127.0.0.1:9/v1
        headers:
          Authorization: "Bearer ${APICLI_API_TOKEN}"
          X-Client: "${APICLI_CLIENT_ID}"
        targets:
          user:
            path: /users/{id}
            params: { id: "1", key: "${APICLI_API_KEY}" }
            task: { query: { key: "{key}", region: "${APICLI_REGION}" } }
            sample:
              status: 200
              json: { id: "{id}", name: "user {id}" }
            samples:
              keyed: { status: 200, body: "key {key}" }
          login:
            method: POST
            path: /login
            auth: { basic: { user: "${APICLI_LOGIN_USER}", password: "${APICLI_LOGIN_PASSWORD}" } }
            task: { json: { secret: "${APICLI_CLIENT_SECRET}" } }
            sample: { status: 200, json: { token: abc } }
            samples:
              echo: { status: 200, json: { token: "${APICLI_SAMPLE_TOKEN}" } }
          ping:
            path: /ping
            headers: { X-Api-Key: "${APICLI_API_KEY}" }
            task: { form: { token: "${APICLI_API_TOKEN}" } }
            sample: { status: 204 }

        """

    /// The variables are named APICLI_…: `CLI.run` and `MockProcess` pass none of those on, so
    /// they are unset whatever the test machine's environment holds.
    private func run(_ args: [String], in dir: URL) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path])
    }

    func testCallStubNeedsNoSecretThatOnlyFeedsTheRequest() throws {
        let dir = try folder(["api.yaml": Self.api])
        let r = try run(["call", "api.user", "--stub"], in: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"{"id":"1","name":"user 1"}"#)
        let login = try run(["call", "api.login", "--stub"], in: dir)
        XCTAssertEqual(login.code, 0, login.stderr)
        XCTAssertEqual(login.stdout, #"{"token":"abc"}"#)
    }

    func testUnsetVariablesShowAsMaskInVerboseAndCurl() throws {
        let dir = try folder(["api.yaml": Self.api])
        let v = try run(["call", "api.user", "--stub", "-v", "--show-secrets"], in: dir)
        XCTAssertEqual(v.code, 0, v.stderr)
        XCTAssertTrue(v.stderr.contains("X-Client: ••••\n"), v.stderr)
        XCTAssertTrue(v.stderr.contains("Authorization: Bearer ••••\n"), v.stderr)
        let c = try run(["call", "api.login", "--stub", "--curl"], in: dir)
        XCTAssertEqual(c.code, 0, c.stderr)
        XCTAssertTrue(c.stderr.contains(#"{"secret":"••••"}"#), c.stderr)
        XCTAssertTrue(c.stderr.contains("X-Client: ••••"), c.stderr)
        let q = try run(["call", "api.user", "--stub", "--curl"], in: dir)
        XCTAssertTrue(q.stderr.contains("key=••••"), q.stderr)
        XCTAssertTrue(q.stderr.contains("region=••••"), q.stderr)
        XCTAssertFalse(q.stderr.contains("%E2%80%A2"), q.stderr)
    }

    func testASampleThatNeedsAnUnsetVariableSaysWhich() throws {
        let dir = try folder(["api.yaml": Self.api])
        let r = try run(["call", "api.login", "--stub", "--sample", "echo"], in: dir)
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("environment variable APICLI_SAMPLE_TOKEN is not set (used in the sample JSON)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("APICLI_API_TOKEN"), r.stderr)
        // a param that stands for an unset variable, used by the sample
        let k = try run(["call", "api.user", "--stub", "--sample", "keyed"], in: dir)
        XCTAssertEqual(k.code, 2, k.stderr)
        XCTAssertTrue(k.stderr.contains("{key} in the sample body needs ${APICLI_API_KEY}, which is not set"), k.stderr)
        XCTAssertTrue(k.stderr.contains("pass -p key=VALUE"), k.stderr)
        let given = try run(["call", "api.user", "--stub", "--sample", "keyed", "-p", "key=k1"], in: dir)
        XCTAssertEqual(given.code, 0, given.stderr)
        XCTAssertEqual(given.stdout, "key k1")
    }

    func testParamsFillTheSampleOfCallStub() throws {
        let dir = try folder(["api.yaml": Self.api])
        let r = try run(["call", "api.user", "--stub", "-p", "id=42"], in: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, #"{"id":"42","name":"user 42"}"#)
    }

    func testLiveCallStillNeedsTheVariable() throws {
        let dir = try folder(["api.yaml": Self.api])
        let r = try run(["call", "api.user"], in: dir)
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("is not set"), r.stderr)
        XCTAssertFalse(r.stderr.contains("••••"), r.stderr)
        let dry = try run(["call", "api.user", "--dry-run"], in: dir)
        XCTAssertEqual(dry.code, 2, dry.stdout)
    }

    func testCheckStubNeedsNoSecretThatOnlyFeedsTheRequest() throws {
        let dir = try folder(["api.yaml": Self.api])
        let all = try run(["check", "--stub"], in: dir)
        // every sample is judged: the two that need an unset value fail, naming it (exit 2); the rest pass
        XCTAssertEqual(all.code, 2, all.stdout + all.stderr)
        XCTAssertTrue(all.stdout.contains("PASS  api.ping"), all.stdout)
        XCTAssertTrue(all.stdout.contains("PASS  api.user "), all.stdout)
        XCTAssertTrue(all.stdout.contains("PASS  api.login "), all.stdout)
        XCTAssertTrue(all.stdout.contains("environment variable APICLI_SAMPLE_TOKEN is not set (used in the sample JSON)"), all.stdout)
        XCTAssertTrue(all.stdout.contains("{key} in the sample body needs ${APICLI_API_KEY}, which is not set"), all.stdout)
        XCTAssertTrue(all.stdout.contains("2 failed"), all.stdout)
        let ping = try run(["check", "api.ping", "--stub"], in: dir)
        XCTAssertEqual(ping.code, 0, ping.stdout + ping.stderr)
    }

    func testValidateReportsOnlyTheSamplesThatNeedAValue() throws {
        let dir = try folder(["api.yaml": Self.api])
        let r = try run(["validate"], in: dir)
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("error: {key} in the sample body needs ${APICLI_API_KEY}, which is not set"), r.stderr)
        XCTAssertTrue(r.stderr.contains("error: environment variable APICLI_SAMPLE_TOKEN is not set (used in the sample JSON)"), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("2 errors\n"), r.stderr)
        XCTAssertFalse(r.stderr.contains("used in param"), r.stderr)
    }

    func testMockNeedsNoSecretThatOnlyFeedsTheRequest() throws {
        let dir = try folder(["api.yaml": Self.api])
        let mock = try MockProcess(["--targets", dir.path, "api.user"])
        defer { mock.stop() }
        let r = try Curl.run([mock.url + "/v1/users/7"])
        XCTAssertEqual(r.status, 200, r.raw + mock.stderr)
        XCTAssertEqual(r.body, #"{"id":"7","name":"user 7"}"#)
    }
}
