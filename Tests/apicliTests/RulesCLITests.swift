import Foundation
import XCTest

/// Moya's endpoint and request mapping examples as `rules:` (docs/project-file.md, Rules), against a local httpbin:
/// an APP_NAME header on every target, a token on all but `authenticate`, a timeout, cookies off.
final class RulesCLITests: XCTestCase {
    var base = ""
    var dir: URL!

    /// The YAML docs/project-file.md shows, with the base URL pointed at the local httpbin through an environment.
    override func setUpWithError() throws {
        base = try CLI.httpbin()
        dir = try CLI.folder([
            "apicli.yaml": """
                headers: { APP_NAME: "My Awesome App" }   # endpointClosure: adding(newHTTPHeaderFields:)
                rules:
                  - match: "*"
                    except: ["*.authenticate"]
                    headers: { AUTHENTICATION_TOKEN: "${AUTH_TOKEN}" }
                  - match: "*"
                    timeout: 30                           # requestClosure: timeoutInterval
                  - match: "api.upload*"
                    cookies: false                        # requestClosure: httpShouldHandleCookies = false
                  - match: "api.legacy*"
                    task: { encoding: form }              # endpointClosure: replacing(task:)
                  - match: "*.slow*"
                    timeout: 1
                environments:
                  local: { baseURL: "\(base)" }
                """,
            "api.yaml": """
                baseURL: https://api.example.com
                targets:
                  headers: { path: /headers }
                  authenticate: { path: /headers, method: GET }
                  slow: { path: /delay/3 }
                  slowButDeclared: { path: /delay/1, timeout: 5 }
                  uploadAvatar: { path: /cookies/set, task: { query: { session: abc } } }
                  legacyRemove: { path: /anything, method: DELETE, task: { parameters: { a: 1 } } }
                  withCookies: { path: /cookies/set, task: { query: { session: abc } } }
                """,
        ])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func run(_ args: String..., env: [String: String] = ["APICLI_ENV": "local", "AUTH_TOKEN": "t0k"]) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path], env: env)
    }

    func testAppNameOnEveryTargetAndTheTokenOnAllButAuthenticate() throws {
        // WHEN two targets are called, one of them excepted from the token rule
        let headers = try Echo.decode(try run("call", "api.headers")).headers
        let login = try Echo.decode(try run("call", "api.authenticate")).headers
        // THEN both carry APP_NAME (httpbin echoes it as App-Name); only the first carries the token
        XCTAssertEqual(headers["App-Name"], "My Awesome App")
        XCTAssertEqual(headers["Authentication-Token"], "t0k")
        XCTAssertEqual(login["App-Name"], "My Awesome App")
        XCTAssertNil(login["Authentication-Token"])
    }

    func testTimeoutRuleTimesOutAndTheTargetsOwnTimeoutWins() throws {
        // WHEN a target under a 1 s rule calls /delay/3, and one with its own 5 s calls /delay/1
        let slow = try run("call", "api.slow")
        let declared = try run("call", "api.slowButDeclared")
        // THEN the first times out (exit 4) after about a second; the second succeeds
        XCTAssertEqual(slow.code, 4, slow.stderr)
        XCTAssertEqual(slow.stderr, "apicli: api.slow: timed out after 1 s\n")
        XCTAssertLessThan(slow.seconds, 2.5)
        XCTAssertEqual(declared.code, 0, declared.stderr)
    }

    func testCookiesOffSendsNoCookieAfterTheRedirect() throws {
        // WHEN /cookies/set sets a cookie and redirects to /cookies, with cookies off and on
        let off = try run("call", "api.uploadAvatar")
        let on = try run("call", "api.withCookies")
        // THEN only the session that handles cookies sends it back
        XCTAssertEqual(off.stdout.filter { !$0.isWhitespace }, #"{"cookies":{}}"#)
        XCTAssertEqual(on.stdout.filter { !$0.isWhitespace }, #"{"cookies":{"session":"abc"}}"#)
    }

    func testLegacyRuleSendsParametersAsAForm() throws {
        // WHEN a DELETE, whose parameters encoding: url would put in the query, runs under the legacy* rule
        let echo = try Echo.decode(try run("call", "api.legacyRemove"))
        // THEN they travel as a form body
        XCTAssertEqual(echo.form, ["a": .string("1")])
        XCTAssertEqual(echo.args, [:])
        XCTAssertEqual(echo.headers["Content-Type"], "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testShowSaysWhichRuleSetWhat() throws {
        let r = try run("show", "api.uploadAvatar")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            api.uploadAvatar  (\(dir.path)/api.yaml:7)

            GET \(base)/cookies/set?session=abc
            APP_NAME: My Awesome App
            AUTHENTICATION_TOKEN: ••••
            User-Agent: \(CLI.defaultUserAgent)

            timeout   30 s
            validate  none
            samples   none
            cookies   off

            baseURL  from environment 'local' of apicli.yaml
            header APP_NAME  from apicli.yaml
            header AUTHENTICATION_TOKEN  from rule "*" (\(dir.path)/apicli.yaml:3)
            timeout  from rule "*" (\(dir.path)/apicli.yaml:6)
            cookies off  from rule "api.upload*" (\(dir.path)/apicli.yaml:8)

            """)
    }

    func testEnvironmentFromFlagVariableAndUnknownName() throws {
        // GIVEN no APICLI_ENV: the service's own baseURL (a name that never resolves) is used
        let flag = try run("call", "api.headers", "--env", "local", env: ["AUTH_TOKEN": "x"])
        XCTAssertEqual(flag.code, 0, flag.stderr)
        let unknown = try run("call", "api.headers", "--env", "locl", env: ["AUTH_TOKEN": "x"])
        XCTAssertEqual(unknown.code, 2)
        XCTAssertEqual(unknown.stderr, "error: unknown environment 'locl' for api.headers\n    hint: did you mean 'local'?\n")
    }

    func testEnvFilesLoadBeforeExpansionAndTheProcessEnvironmentWins() throws {
        // GIVEN targets/.env and an --env-file, both setting AUTH_TOKEN, and only .env setting APICLI_X
        try Data("AUTH_TOKEN=from-dot-env\n".utf8).write(to: dir.appendingPathComponent(".env"))
        let file = dir.appendingPathComponent("extra.env")
        try Data("# extra\nAUTH_TOKEN=\"from-env-file\"\n".utf8).write(to: file)
        // WHEN called with .env alone, with --env-file, and with the variable in the process environment
        let dotEnv = try Echo.decode(try run("call", "api.headers", env: ["APICLI_ENV": "local"])).headers
        let envFile = try Echo.decode(try run("call", "api.headers", "--env-file", file.path, env: ["APICLI_ENV": "local"]))
        let process = try Echo.decode(try run("call", "api.headers", "--env-file", file.path,
                                               env: ["APICLI_ENV": "local", "AUTH_TOKEN": "from-process"]))
        // THEN the later source wins: .env < --env-file < process
        XCTAssertEqual(dotEnv["Authentication-Token"], "from-dot-env")
        XCTAssertEqual(envFile.headers["Authentication-Token"], "from-env-file")
        XCTAssertEqual(process.headers["Authentication-Token"], "from-process")
    }

    func testListIgnoresTheProjectFile() throws {
        let r = try run("list", env: [:])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("apicli."), r.stdout)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 7)
    }
}
