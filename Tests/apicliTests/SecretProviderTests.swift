import Foundation
import XCTest

/// `secrets: { NAME: { command: [argv…] } }` in apicli.yaml: a `${NAME}` from a command (as `op
/// read`, `pass show`, `vault kv get` give it), run with no shell, once per process, only when a
/// target that needs it is built, bounded in time, its value hidden like any secret; a failing
/// command is exit 2 naming the variable. Sent to the local httpbin.
final class SecretProviderTests: FolderTestCase {
    var base = ""
    let value = "vault-value-9d2e"

    override func setUpWithError() throws {
        base = try CLI.httpbin()
    }

    /// `vault.sh` prints the value and appends a line to `ran` each time it runs. `@DIR@` in
    /// `secrets` is the folder.
    private func project(_ secrets: String) throws -> URL {
        let dir = try folder([
            "targets/hb.yaml": """
                baseURL: \(base)
                targets:
                  bearer: { path: /bearer, auth: { bearer: "${API_TOKEN}" }, expect: { status: 200 } }
                  again: { path: /bearer, auth: { bearer: "${API_TOKEN}" }, expect: { status: 200 } }
                  echo: { path: /headers, headers: { X-Val: "${ODD}" } }
                  plain: { path: /get }
                """,
            "vault.sh": "#!/bin/sh\necho run >> \"$(dirname \"$0\")/ran\"\necho '\(value)'\n",
            "sealed.sh": "#!/bin/sh\necho 'Error: vault is sealed' >&2\nexit 3\n",
        ])
        try Data(("secrets:\n" + secrets.replacingOccurrences(of: "@DIR@", with: dir.path)).utf8)
            .write(to: dir.appendingPathComponent("targets/apicli.yaml"))
        for script in ["vault.sh", "sealed.sh"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent(script).path)
        }
        return dir
    }

    private func runs(_ dir: URL) -> Int {
        ((try? String(contentsOf: dir.appendingPathComponent("ran"), encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    func testTheValueComesFromTheCommandOncePerProcessAndIsHidden() throws {
        let dir = try project("  API_TOKEN: { command: [@DIR@/vault.sh, read, \"op://vault/api/token\"] }\n")
        let targets = dir.appendingPathComponent("targets").path
        // WHEN a target that needs it is called THEN the command's value is the bearer token
        let call = try CLI.run(["call", "hb.bearer", "-v", "--targets", targets])
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertTrue(call.stdout.contains(#""authenticated": true"#), call.stdout)
        XCTAssertTrue(call.stdout.contains(value), "httpbin echoes the token it got: \(call.stdout)")
        XCTAssertFalse(call.stderr.contains(value), "-v hides it: \(call.stderr)")
        XCTAssertTrue(call.stderr.contains("Authorization: Bearer ••••") || call.stderr.contains("Authorization: ••••"), call.stderr)
        XCTAssertEqual(runs(dir), 1)
        // AND check with two targets that need it runs the command once
        let check = try CLI.run(["check", "hb.bearer", "hb.again", "--targets", targets])
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertEqual(runs(dir), 2, "once for call, once for the whole check")
        // AND a target that does not need it does not run it
        XCTAssertEqual(try CLI.run(["call", "hb.plain", "--targets", targets]).code, 0)
        XCTAssertEqual(runs(dir), 2)
        // AND an exported variable wins: the command is not run
        let exported = try CLI.run(["call", "hb.bearer", "--targets", targets], env: ["API_TOKEN": "exported-tok"])
        XCTAssertEqual(exported.code, 0, exported.stderr)
        XCTAssertEqual(runs(dir), 2)
    }

    func testCheckOfManyTargetsBuiltOnSeveralThreadsRunsTheCommandOnce() throws {
        // GIVEN 40 targets that need a secret from a command that takes a while, the first of them
        // after a login that needs it too (`check` builds the login in a worker, running the
        // flow, while its planning task builds the others)
        let dir = try folder([
            "targets/hb.yaml": "baseURL: \(base)\ntargets:\n"
                + "  me: { path: /bearer, needs: [login], auth: { bearer: \"${API_TOKEN}\" }, expect: { status: 200 } }\n"
                + "  login: { path: /bearer, auth: { bearer: \"${API_TOKEN}\" }, expect: { status: 200 } }\n"
                + (0..<38).map {
                    "  b\($0): { path: /bearer, auth: { bearer: \"${API_TOKEN}\" }, expect: { status: 200 } }\n"
                }.joined(),
            "slow-vault.sh": "#!/bin/sh\necho run >> \"$(dirname \"$0\")/ran\"\nsleep 0.5\necho '\(value)'\n",
        ])
        try Data("secrets:\n  API_TOKEN: { command: [\(dir.path)/slow-vault.sh] }\n".utf8)
            .write(to: dir.appendingPathComponent("targets/apicli.yaml"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent("slow-vault.sh").path)
        // WHEN they are checked with 8 jobs
        let check = try CLI.run(["check", "--jobs", "8", "--targets", dir.appendingPathComponent("targets").path])
        // THEN all pass, the command ran once, and its value is not shown
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.contains("40 passed, 0 failed"), check.stdout)
        XCTAssertEqual(runs(dir), 1)
        XCTAssertFalse(check.stdout.contains(value) || check.stderr.contains(value))
    }

    func testShowAndDryRunDoNotRunTheCommand() throws {
        let dir = try project("  API_TOKEN: { command: [@DIR@/vault.sh] }\n  ODD: { command: [@DIR@/vault.sh] }\n")
        let targets = dir.appendingPathComponent("targets").path
        // WHEN the request is only shown, in every way that shows it
        for args in [["show", "hb.bearer"], ["show", "hb.echo", "--show-secrets"],
                     ["call", "hb.bearer", "--dry-run"], ["call", "hb.echo", "--dry-run", "-v"],
                     ["call", "hb.bearer", "--dry-run", "--curl"], ["call", "hb.echo", "--dry-run", "--curl", "--show-secrets"]] {
            let r = try CLI.run(args + ["--targets", targets])
            XCTAssertEqual(r.code, 0, "\(args): \(r.stderr)")
            // THEN the secret command did not run, and the secret shows as ••••
            XCTAssertEqual(runs(dir), 0, "\(args) ran the secret command")
            XCTAssertFalse(r.stdout.contains(value) || r.stderr.contains(value), "\(args): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains("••••"), "\(args): \(r.stdout)")
        }
        // AND calling it does run it, once
        let call = try CLI.run(["call", "hb.bearer", "--targets", targets])
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertEqual(runs(dir), 1)
    }

    func testNoShellRunsTheCommand() throws {
        let dir = try project("  ODD: { command: [printf, \"%s\", \"$HOME; $(id) `id`\"] }\n")
        let r = try CLI.run(["call", "hb.echo", "--show-secrets", "--targets", dir.appendingPathComponent("targets").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN the argument arrives as written: nothing expanded it
        XCTAssertTrue(r.stdout.contains(#""X-Val": "$HOME; $(id) `id`""#), r.stdout)
        // AND without --show-secrets -v hides it, whatever the variable's name
        let hidden = try CLI.run(["call", "hb.echo", "-v", "--targets", dir.appendingPathComponent("targets").path])
        XCTAssertTrue(hidden.stderr.contains("X-Val: ••••"), hidden.stderr)
        XCTAssertFalse(hidden.stderr.contains("$(id)"), hidden.stderr)
    }

    func testAFailingCommandIsExit2NamingTheVariableAndItsStderr() throws {
        let dir = try project("  API_TOKEN: { command: [@DIR@/sealed.sh] }\n")
        let r = try CLI.run(["call", "hb.bearer", "--targets", dir.appendingPathComponent("targets").path])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("apicli.yaml:2:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("the secret command of API_TOKEN"), r.stderr)
        XCTAssertTrue(r.stderr.contains("failed (exit 3): Error: vault is sealed"), r.stderr)
        // AND a program that does not exist says so
        let missing = try project("  API_TOKEN: { command: [no-such-program-apicli, read] }\n")
        let m = try CLI.run(["call", "hb.bearer", "--targets", missing.appendingPathComponent("targets").path])
        XCTAssertEqual(m.code, 2, m.stderr)
        XCTAssertTrue(m.stderr.contains("could not start: no-such-program-apicli"), m.stderr)
    }

    func testASlowCommandIsStoppedAtItsTimeout() throws {
        let dir = try project("  API_TOKEN: { command: [sleep, \"20\"], timeout: 1s }\n")
        let start = Date()
        let r = try CLI.run(["call", "hb.bearer", "--targets", dir.appendingPathComponent("targets").path])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("did not finish within 1 s"), r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 8)
    }

    func testBadDeclarationsAreExit2() throws {
        for (yaml, message) in [("  API_TOKEN: { command: \"op read x\" }\n", "is a list"),
                                ("  API_TOKEN: { timeout: 2s }\n", "needs command:"),
                                ("  bad-name: { command: [pass] }\n", "is not a variable name"),
                                ("  API_TOKEN: { command: [pass], shell: true }\n", "shell")] {
            let dir = try project(yaml)
            let r = try CLI.run(["call", "hb.plain", "--targets", dir.appendingPathComponent("targets").path])
            XCTAssertEqual(r.code, 2, "\(yaml): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(yaml): \(r.stderr)")
        }
    }
}
