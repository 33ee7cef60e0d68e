import Foundation
import TestServers
import XCTest

/// `auth: { oauth2: }` against the project's OAuth2 server (Tests/Servers/oauth2-server.py, loopback):
/// the token is fetched once and cached on disk (0600, no secret in the name), reused by the next
/// process, refreshed when it expires, fetched anew once on a 401, and never printed.
final class OAuth2Tests: XCTestCase {
    var server: TestServer!
    var dir: URL!
    var cache: URL!

    func start(expires: Int = 3600) throws {
        server = try TestServer("oauth2-server.py", ["--lifetime", "120", "--expires", String(expires)])
        dir = try CLI.folder([
            "targets/api.yaml": """
                baseURL: \(server.url)
                validate: success
                auth:
                  oauth2: { tokenURL: "\(server.url)/token", clientId: app, clientSecret: "${CLIENT_SECRET}", scope: "read write" }
                targets:
                  resource: { path: /resource }
                  asUser:
                    path: /resource
                    auth: { oauth2: { tokenURL: "\(server.url)/token", clientId: app, grant: password, username: ada, password: "${ADA_PASSWORD}" } }
                """,
        ])
        cache = dir.appendingPathComponent("cache")
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    var env: [String: String] { ["CLIENT_SECRET": "s3cret", "ADA_PASSWORD": "lovelace", "APICLI_CACHE": cache.path] }

    func stats() throws -> [String: Int] {
        let r = try Curl.run(["\(server.url)/stats"])
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Int], r.raw)
    }

    func testTheTokenIsFetchedOnceCachedAndNeverShown() throws {
        try start()
        let first = try CLI.run(["call", "api.resource", "-v"], env: env, cwd: dir)
        XCTAssertEqual(first.code, 0, first.stderr)
        XCTAssertEqual(first.stdout, #"{"ok": true}"#)
        XCTAssertTrue(first.stderr.contains("> Authorization: ••••\n"), first.stderr)
        XCTAssertFalse(first.stderr.contains("at-1"), first.stderr)
        // WHEN another process calls again
        XCTAssertEqual(try CLI.run(["call", "api.resource"], env: env, cwd: dir).code, 0)
        // THEN the cached token served it: one token request in all
        XCTAssertEqual(try stats()["client_credentials"], 1)
        XCTAssertEqual(try stats()["resource"], 2)
        // AND the cache is one file, readable by its owner only, named without any secret
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        XCTAssertEqual(files.count, 1)
        XCTAssertTrue(files[0].hasPrefix("oauth2-") && !files[0].contains("s3cret"), files[0])
        let mode = try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(files[0]).path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        // AND show prints the header as a credential, nothing fetched
        let show = try CLI.run(["show", "api.resource"], env: env, cwd: dir)
        XCTAssertTrue(show.stdout.contains("Authorization: ••••"), show.stdout)
        // AND the password grant is a client of its own
        XCTAssertEqual(try CLI.run(["call", "api.asUser"], env: env, cwd: dir).code, 0)
        XCTAssertEqual(try stats()["password"], 1)
        // AND auth clear empties the cache
        let clear = try CLI.run(["auth", "clear"], env: env, cwd: dir)
        XCTAssertEqual(clear.stdout, "removed 2 tokens from \(cache.path)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.path), [])
    }

    func testAnExpiredTokenIsRefreshedAndA401FetchesAFreshOne() throws {
        try start(expires: 31)  // due within 30 s counts as expired: every next call refreshes
        XCTAssertEqual(try CLI.run(["call", "api.resource"], env: env, cwd: dir).code, 0)
        sleep(2)
        XCTAssertEqual(try CLI.run(["call", "api.resource"], env: env, cwd: dir).code, 0)
        XCTAssertEqual(try stats()["client_credentials"], 1)
        XCTAssertEqual(try stats()["refresh_token"], 1)
        // WHEN the server revokes every token, the next call gets a 401, then a fresh token
        XCTAssertEqual(try Curl.run(["-X", "POST", "\(server.url)/revoke"]).status, 200)
        let r = try CLI.run(["call", "api.resource", "-v"], env: env, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "> GET ").count - 1, 2, r.stderr)
        XCTAssertEqual(try stats()["resource"], 4)
        // AND check sends it too
        let check = try CLI.run(["check", "api.resource"], env: env, cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout)
    }

    func testABadClientSecretIsAClearError() throws {
        try start()
        var wrong = env
        wrong["CLIENT_SECRET"] = "nope"
        let r = try CLI.run(["call", "api.resource"], env: wrong, cwd: dir)
        XCTAssertEqual(r.code, 1)
        // (in its own words: not worded as a failed `needs:`)
        XCTAssertEqual(r.stderr, "apicli: api.resource: the oauth2 token request to 127.0.0.1:\(server.port) was refused: "
                       + "status 401 (\"invalid_client\")\n")
    }

    /// An OpenAPI description's OAuth2 scheme imports as `oauth2:` that works: each flow apicli can
    /// run, against the same server, with the credentials in the variables the import names.
    func testImportedOAuth2SchemesFetchTheirTokens() throws {
        try start()
        func spec(_ flow: String) -> String {
            """
            openapi: 3.0.3
            info: { title: Resource, version: "1" }
            servers: [{ url: "\(server.url)" }]
            security: [{ oauth: [read, write] }]
            paths:
              /resource:
                get:
                  operationId: resource
                  responses: { "200": { description: ok, content: { application/json: { example: { ok: true } } } } }
            components:
              securitySchemes:
                oauth:
                  type: oauth2
                  flows:
                    implicit: { authorizationUrl: "\(server.url)/authorize", scopes: { read: r } }
                    \(flow): { authorizationUrl: "\(server.url)/authorize", tokenUrl: "\(server.url)/token", scopes: { read: r, write: w } }
            """
        }
        // (pw: a public client, no secret: ${PW_CLIENT_SECRET:-} is empty and client_id goes in the form)
        var env = ["APICLI_CACHE": cache.path, "CC_CLIENT_ID": "app", "CC_CLIENT_SECRET": "s3cret",
                   "PW_CLIENT_ID": "app", "PW_USERNAME": "ada", "PW_PASSWORD": "lovelace",
                   "AC_CLIENT_ID": "app", "AC_CLIENT_SECRET": "s3cret"]
        for (service, flow) in [("cc", "clientCredentials"), ("pw", "password"), ("ac", "authorizationCode")] {
            let file = dir.appendingPathComponent("\(service).openapi.yaml")
            try spec(flow).write(to: file, atomically: true, encoding: .utf8)
            let imported = try CLI.run(["import", "openapi", file.path, "--service", service], cwd: dir)
            XCTAssertEqual(imported.code, 0, imported.stderr)
        }
        let cc = try String(contentsOf: dir.appendingPathComponent("targets/cc.yaml"), encoding: .utf8)
        XCTAssertTrue(cc.contains("""
            auth:
              oauth2:
                tokenURL: \(server.url)/token
                clientId: "${CC_CLIENT_ID}"
                clientSecret: "${CC_CLIENT_SECRET}"
                scope: read write
                grant: client_credentials

            """), cc)
        // WHEN the imported targets are called with the credentials the comments name
        XCTAssertEqual(try CLI.run(["call", "cc.resource"], env: env, cwd: dir).stdout, #"{"ok": true}"#)
        let pw = try CLI.run(["call", "pw.resource"], env: env, cwd: dir)
        XCTAssertEqual(pw.stdout, #"{"ok": true}"#, pw.stderr)
        // (the authorization code flow starts from a refresh token the user got once in a browser)
        env["AC_REFRESH_TOKEN"] = "rt-1"
        let ac = try CLI.run(["call", "ac.resource"], env: env, cwd: dir)
        XCTAssertEqual(ac.stdout, #"{"ok": true}"#, ac.stderr)
        // THEN each flow fetched its token with its own grant
        XCTAssertEqual(try stats(), ["client_credentials": 1, "password": 1, "refresh_token": 1, "resource": 3])
    }
}
