import Foundation
import TestServers
import XCTest

/// One send path: `call`, `call --stub`, `record`, `check` and `check --stub` send a target through
/// the one `Caller`. One folder holds a flow (a login whose token `me` captures), an OAuth2 target,
/// an `until:` job and a target that answers 503 twice; Tests/Servers/flow-server.py logs every request in
/// order. Each command must send the same requests in the same order and reach the same verdict: a
/// command wired on its own (record without needs:, call without --retries) would differ.
final class SendPathMatrixTests: XCTestCase {
    var server: TestServer!
    var dir: URL!

    override func setUpWithError() throws {
        server = try TestServer("flow-server.py", ["--lifetime", "300"])
        dir = try CLI.folder(["targets/flow.yaml": Self.targets])
    }

    override func tearDownWithError() throws {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    static let targets = """
        baseURL: ${FLOW_URL}
        validate: success
        targets:
          login:
            path: /login
            method: POST
            check: true
            capture: { token: { json: "$.token" } }
            sample: { status: 201, json: { token: tok-sample } }
          me:
            path: /me
            needs: [login]
            headers: { X-Token: "{token}" }
            expect: { status: 200, json: { $.user: ada } }
            sample: { status: 200, json: { user: ada, token: "{token}" } }
          resource:
            path: /resource
            auth: { oauth2: { tokenURL: "${FLOW_URL}/token", clientId: app, clientSecret: "${CLIENT_SECRET}" } }
            sample: { status: 200, json: { ok: true } }
          job:
            path: /job
            until: { expect: { json: { $.state: done } }, every: 20ms, within: 5s }
            sample: { status: 200, json: { state: done } }
          flaky:
            path: /flaky
            sample: { status: 200, json: { ok: true } }
        """

    /// What each target sends, in order, when it is sent alone.
    static let expected: [String: [String]] = [
        "login": ["POST /login"],
        "me": ["POST /login", "GET /me"],
        "resource": ["POST /token", "GET /resource"],
        "job": ["GET /job", "GET /job", "GET /job"],
        "flaky": ["GET /flaky", "GET /flaky", "GET /flaky"],
    ]
    static let order = ["login", "me", "resource", "job", "flaky"]

    /// A fresh copy of the folder (record rewrites it) and a fresh OAuth2 cache for each command.
    func env() throws -> [String: String] {
        let cache = dir.appendingPathComponent("cache-\(UUID().uuidString)")
        return ["FLOW_URL": server.url, "CLIENT_SECRET": "s3cret", "APICLI_CACHE": cache.path]
    }

    func freshFolder() throws -> URL {
        let copy = try CLI.folder(["targets/flow.yaml": Self.targets])
        addTeardownBlock { try? FileManager.default.removeItem(at: copy) }
        return copy
    }

    /// The server's log since the last call, as `METHOD /path` lines, and the entries themselves.
    func takeLog() throws -> (lines: [String], entries: [[String: Any]]) {
        let r = try Curl.run(["\(server.url)/log"])
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [[String: Any]], r.raw)
        _ = try Curl.run(["-X", "POST", "\(server.url)/reset"])
        return (entries.map { "\($0["method"] as? String ?? "?") \($0["path"] as? String ?? "?")" }, entries)
    }

    func testEveryCommandSendsTheSameRequestsInTheSameOrderWithTheSameVerdict() throws {
        _ = try takeLog()
        for command in ["call", "record"] {
            // GIVEN each target sent alone by call or record, with --retries 2
            let folder = try freshFolder()
            let env = try env()
            for name in Self.order {
                let r = try CLI.run([command, "flow.\(name)", "--retries", "2"], env: env, cwd: folder)
                // THEN it passes, and the server saw exactly what the one path sends
                XCTAssertEqual(r.code, 0, "\(command) \(name): \(r.stderr)")
                let (lines, entries) = try takeLog()
                XCTAssertEqual(lines, Self.expected[name], "\(command) \(name)")
                if name == "me" {  // the token the login was issued went into the header
                    XCTAssertEqual(entries.last?["x_token"] as? String, entries.first?["issued"] as? String, "\(command)")
                }
            }
        }
        // AND check sends the same, each target once however many need it
        let check = try CLI.run(["check", "flow", "--jobs", "1", "--retries", "2"], env: try env(), cwd: try freshFolder())
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.hasSuffix("5 passed, 0 failed, 1 flaky\n"), check.stdout)
        XCTAssertEqual(try takeLog().lines, ["POST /login", "GET /me", "POST /token", "GET /resource"]
                       + Self.expected["job"]! + Self.expected["flaky"]!)
    }

    func testWithoutRetriesEveryCommandRejectsTheFlakyTargetAlike() throws {
        _ = try takeLog()
        let env = try env()
        let call = try CLI.run(["call", "flow.flaky"], env: env, cwd: try freshFolder())
        XCTAssertEqual(call.code, 1, call.stderr)
        XCTAssertTrue(call.stderr.contains("flow.flaky: rejected: status 503"), call.stderr)
        XCTAssertEqual(try takeLog().lines, ["GET /flaky"])
        let record = try CLI.run(["record", "flow.flaky"], env: env, cwd: try freshFolder())
        XCTAssertEqual(record.code, 1, record.stderr)
        XCTAssertEqual(try takeLog().lines, ["GET /flaky"])
        let check = try CLI.run(["check", "flow.flaky"], env: env, cwd: try freshFolder())
        XCTAssertEqual(check.code, 1, check.stdout)
        XCTAssertEqual(try takeLog().lines, ["GET /flaky"])
    }

    func testStubbedCommandsSendNothingAndJudgeTheSamplesAlike() throws {
        _ = try takeLog()
        let env = try env()
        for name in Self.order {
            let r = try CLI.run(["call", "flow.\(name)", "--stub"], env: env, cwd: dir)
            XCTAssertEqual(r.code, 0, "\(name): \(r.stderr)")
        }
        // the need's captured value from its sample fills the dependent's sample
        XCTAssertEqual(try CLI.run(["call", "flow.me", "--stub"], env: env, cwd: dir).stdout,
                       #"{"user":"ada","token":"tok-sample"}"#)
        let check = try CLI.run(["check", "flow", "--stub"], env: env, cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout)
        XCTAssertTrue(check.stdout.hasSuffix("5 passed, 0 failed\n"), check.stdout)
        XCTAssertEqual(try takeLog().lines, [])
    }

    /// Issue 26, item 3: a token request is not repeated to where a redirect points (the form holds
    /// the client secret).
    func testAnOAuth2TokenRequestDoesNotFollowARedirect() throws {
        _ = try takeLog()
        let folder = try CLI.folder(["targets/moved.yaml": """
            baseURL: ${FLOW_URL}
            targets:
              resource:
                path: /resource
                auth: { oauth2: { tokenURL: "${FLOW_URL}/token-moved", clientId: app, clientSecret: "${CLIENT_SECRET}" } }
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLI.run(["call", "moved.resource"], env: try env(), cwd: folder)
        XCTAssertEqual(r.code, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("was redirected (status 307)"), r.stderr)
        XCTAssertEqual(try takeLog().lines, ["POST /token-moved"])
    }

    /// Issue 26, item 4: whatever apicli masks as a secret does not follow a redirect to another
    /// origin: a header holding one is dropped, a 307 whose body holds one is not followed.
    func testSecretsDoNotCrossToAnotherOriginOnARedirect() throws {
        _ = try takeLog()
        let folder = try CLI.folder(["targets/hop.yaml": """
            baseURL: ${FLOW_URL}
            targets:
              get: { path: /hop, headers: { X-Api-Key: "${API_KEY}", X-Token: plain } }
              post: { path: /hop, method: POST, task: { json: { password: "${DB_PASSWORD}" } } }
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        var env = try env()
        env["API_KEY"] = "key-1234567"
        env["DB_PASSWORD"] = "pw-7654321"
        let get = try CLI.run(["call", "hop.get"], env: env, cwd: folder)
        XCTAssertEqual(get.code, 0, get.stderr)
        let (lines, entries) = try takeLog()
        XCTAssertEqual(lines, ["GET /hop", "GET /landing"])
        XCTAssertEqual(entries[0]["x_api_key"] as? String, "key-1234567")
        XCTAssertNil(entries[1]["x_api_key"] as? String, "the secret header crossed origins")
        XCTAssertEqual(entries[1]["x_token"] as? String, "plain")
        let post = try CLI.run(["call", "hop.post", "-i"], env: env, cwd: folder)
        XCTAssertEqual(post.code, 0, post.stderr)
        XCTAssertTrue(post.stdout.hasPrefix("HTTP/1.1 307 Temporary Redirect\n"), post.stdout)  // the 307 itself is the answer
        XCTAssertEqual(try takeLog().lines, ["POST /hop"])
    }

    /// Issue 24: a `${VAR}` from a secret command (apicli.yaml `secrets:`) reaches the wire through
    /// every command that sends: call, record, check and load each send it, the command run once
    /// per process.
    func testASecretProviderValueIsSentByEveryCommand() throws {
        _ = try takeLog()
        for command in [["call", "vault.get"], ["record", "vault.get"], ["check", "vault.get"],
                        ["load", "vault.get", "-q", "--users", "1", "--requests", "2"]] {
            let folder = try CLI.folder([
                "targets/apicli.yaml": "secrets:\n  API_KEY: { command: [printf, \"%s\", key-from-vault-31] }\n",
                "targets/vault.yaml": """
                    baseURL: ${FLOW_URL}
                    targets:
                      get: { path: /landing, headers: { X-Api-Key: "${API_KEY}" }, expect: { status: 200 } }
                    """])
            defer { try? FileManager.default.removeItem(at: folder) }
            let r = try CLI.run(command, env: try env(), cwd: folder)
            XCTAssertEqual(r.code, 0, "\(command): \(r.stdout) \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("key-from-vault-31"), "\(command): \(r.stderr)")
            let (lines, entries) = try takeLog()
            XCTAssertEqual(lines, Array(repeating: "GET /landing", count: command[0] == "load" ? 2 : 1), "\(command)")
            XCTAssertEqual(Set(entries.map { $0["x_api_key"] as? String }), ["key-from-vault-31"], "\(command)")
        }
    }

    /// `--connect-to`, `--unix-socket` and a `unix://` base URL reach every command that sends:
    /// call, record, check and load each arrive at the server with the URL's `Host:`. The socket is
    /// nginx's, passing each request on to the flow server.
    func testConnectToAndUnixSocketsReachEveryCommand() throws {
        try NginxServer.require()
        let port = try XCTUnwrap(URL(string: server.url)?.port)
        let socketDir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: socketDir) }
        let sock = socketDir.appendingPathComponent("flow.sock").path
        let nginx = try NginxServer.start(in: socketDir, servers: """
              server {
                listen unix:\(sock);
                location / { proxy_pass http://127.0.0.1:\(port); proxy_set_header Host $http_host; }
              }
            """, ready: "for i in $(seq 100); do curl -sf --unix-socket \(sock) http://x/log >/dev/null && exit 0; sleep 0.1; done; cat error.log; exit 1")
        defer { nginx.stop() }
        _ = try takeLog()
        let routes: [(base: String, flags: [String], host: String)] = [
            ("http://api.flow.test:1", ["--connect-to", "api.flow.test:1:127.0.0.1:\(port)"], "api.flow.test:1"),
            ("http://api.flow.test:1", ["--unix-socket", sock], "api.flow.test:1"),
            ("unix://\(sock):/", [], "localhost"),
        ]
        for route in routes {
            for command in [["call", "routed.get"], ["record", "routed.get"], ["check", "routed.get"],
                            ["load", "routed.get", "-q", "--users", "1", "--requests", "2"]] {
                let folder = try CLI.folder(["targets/routed.yaml": """
                    baseURL: \(route.base)
                    targets:
                      get: { path: /landing, expect: { status: 200 } }
                    """])
                defer { try? FileManager.default.removeItem(at: folder) }
                let r = try CLI.run(command + route.flags, env: try env(), cwd: folder)
                XCTAssertEqual(r.code, 0, "\(route.flags) \(command): \(r.stdout) \(r.stderr)")
                let (lines, entries) = try takeLog()
                XCTAssertEqual(lines, Array(repeating: "GET /landing", count: command[0] == "load" ? 2 : 1), "\(route.flags) \(command)")
                XCTAssertEqual(Set(entries.map { $0["host"] as? String }), [route.host], "\(route.flags) \(command)")
            }
        }
    }
}
