import Foundation
import XCTest

/// `auth:` against httpbin's /bearer and /basic-auth, and secrets hidden in every output mode.
final class AuthAndSecretsCLITests: XCTestCase {
    var base = ""
    var dir: URL!
    let secret = "zz-secret-42"

    override func setUpWithError() throws {
        base = try CLI.httpbin()
        dir = try CLI.folder(["auth.yaml": """
            baseURL: \(base)
            auth: { bearer: "${API_TOKEN}" }
            targets:
              bearer: { path: /bearer, validate: success }
              basic:
                path: /basic-auth/ann/{pw}
                params: { pw: "${ANN_PASSWORD}" }
                auth: { basic: { user: ann, password: "${ANN_PASSWORD}" } }
                validate: success
              key:
                path: /headers
                auth: { header: X-API-Key, value: "${MY_KEY}" }
              authenticate: { path: /headers, auth: none }
              quiet:
                path: /status/200
                headers: { X-Token: "${API_TOKEN}" }
                task: { query: { t: "${API_TOKEN}" } }
              rejected:
                path: /anything
                headers: { X-Token: "${API_TOKEN}" }
                validate: [201]
            """, "leaky.yaml": "baseURL: \"${BASE_TOKEN}\"\ntargets:\n  a: {}\n"])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func run(_ args: String..., env: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path],
                    env: ["API_TOKEN": secret, "ANN_PASSWORD": "pa ss", "MY_KEY": "k-1"].merging(env) { _, b in b })
    }

    func testBearerFromTheServiceIsAccepted() throws {
        // WHEN the target inherits the service's bearer token THEN httpbin's /bearer accepts it
        let r = try run("call", "auth.bearer")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#""token": "zz-secret-42""#), r.stdout)
    }

    func testMissingTokenIsRejectedByBearer() throws {
        // GIVEN a -H Authorization that replaces the token THEN /bearer rejects it (exit 1)
        let r = try run("call", "auth.bearer", "-H", "Authorization: Basic eA==")
        XCTAssertEqual(r.code, 1, r.stderr)
    }

    func testBasicAuthIsAccepted() throws {
        // WHEN user and password come from basic: THEN /basic-auth/ann/{password} accepts them
        let r = try run("call", "auth.basic")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#""user": "ann""#), r.stdout)
    }

    func testCustomHeaderAndAuthNone() throws {
        // WHEN one target uses a custom auth header and another says auth: none
        let key = try Echo.decode(try run("call", "auth.key"))
        let none = try Echo.decode(try run("call", "auth.authenticate"))
        // THEN the first sends X-API-Key and no Authorization; the second sends neither
        XCTAssertEqual(key.headers["X-Api-Key"], "k-1")
        XCTAssertNil(key.headers["Authorization"])
        XCTAssertNil(none.headers["Authorization"])
        XCTAssertNil(none.headers["X-Api-Key"])
    }

    func testTheSecretAppearsInNoOutputMode() throws {
        // GIVEN a token used as bearer, header and query value
        let runs: [(String, CLI.Result)] = [
            ("-v", try run("call", "auth.quiet", "-v")),
            ("-i", try run("call", "auth.quiet", "-i")),
            ("-vv", try run("call", "auth.rejected", "-vv")),
            ("show", try run("show", "auth.quiet")),
            ("--curl", try run("call", "auth.quiet", "--curl")),
            ("--curl --dry-run", try run("call", "auth.quiet", "--curl", "--dry-run")),
            ("--dry-run", try run("call", "auth.quiet", "--dry-run")),
            ("error line", try run("call", "leaky.a", env: ["BASE_TOKEN": "ftp://\(secret)"])),
            ("network error", try run("call", "auth.quiet", "--base-url", "http://127.0.0.1:9")),
        ]
        for (mode, r) in runs {
            // THEN it is nowhere in what apicli prints (the -vv echo body on stdout is the server's own bytes)
            XCTAssertFalse(r.stderr.contains(secret), "\(mode) stderr: \(r.stderr)")
            if mode != "-vv" { XCTAssertFalse(r.stdout.contains(secret), "\(mode) stdout: \(r.stdout)") }
        }
        XCTAssertTrue(runs[0].1.stderr.contains("> GET \(base)/status/200?t=••••\n> X-Token: ••••\n> User-Agent: \(CLI.defaultUserAgent)\n> Authorization: ••••\n"),
                      runs[0].1.stderr)
        XCTAssertTrue(runs[2].1.stderr.contains(#""X-Token": "••••""#), runs[2].1.stderr)
        XCTAssertEqual(runs[5].1.stdout,
                       "curl -L '\(base)/status/200?t=••••' -H 'X-Token: ••••' -H 'User-Agent: \(CLI.defaultUserAgent)' -H 'Authorization: ••••' --max-time 60\n")
        XCTAssertEqual(runs[5].1.code, 0)
        XCTAssertTrue(runs[7].1.stderr.hasSuffix(
            "leaky.yaml:1:10: error: base URL '••••' for leaky.a does not start with http://, https://, ws:// or wss://\n"
            + "  1 | baseURL: \"${BASE_TOKEN}\"\n    |          ^\n    hint: write it whole, like https://api.example.com/v1\n"),
            runs[7].1.stderr)
    }

    func testShowSecretsShowsThem() throws {
        // WHEN --show-secrets is given THEN the curl command is runnable as is
        let r = try run("call", "auth.quiet", "--curl", "--dry-run", "--show-secrets")
        XCTAssertEqual(r.stdout, "curl -L '\(base)/status/200?t=\(secret)' -H 'X-Token: \(secret)' "
                       + "-H 'User-Agent: \(CLI.defaultUserAgent)' -H 'Authorization: Bearer \(secret)' --max-time 60\n")
    }

    func testTheCurlCommandRunsAndSendsTheSameRequest() throws {
        // GIVEN the curl command for a target with a custom auth header
        let r = try run("call", "auth.key", "--curl", "--dry-run", "--show-secrets")
        // WHEN a shell runs it
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", r.stdout]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        // THEN httpbin saw the header
        let echo = try JSONDecoder().decode(Echo.self, from: data)
        XCTAssertEqual(echo.headers["X-Api-Key"], "k-1")
    }
}
