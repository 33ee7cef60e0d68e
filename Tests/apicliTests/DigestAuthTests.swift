import Foundation
import XCTest

/// `auth: { digest: }` against httpbin's /digest-auth endpoints: the 401 challenge answered
/// (MD5 and SHA-256, qop=auth), through call, check and record, shown as curl's `--digest`.
final class DigestAuthTests: FolderTestCase {
    var base = ""
    let password = "pw-digest-77"

    override func setUpWithError() throws {
        base = try CLI.httpbin()
    }

    private func targets() throws -> URL {
        try folder(["dg.yaml": """
            baseURL: \(base)
            auth: { digest: { username: ann, password: "${DIGEST_PW}" } }
            targets:
              md5: { path: /digest-auth/auth/ann/\(password)/MD5, validate: success, expect: { status: 200 } }
              sha256: { path: /digest-auth/auth/ann/\(password)/SHA-256, validate: success, expect: { status: 200 } }
              wrong: { path: /digest-auth/auth/ann/other-password/MD5, validate: success }
            """])
    }

    private func run(_ dir: URL, _ args: String...) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path], env: ["DIGEST_PW": password])
    }

    func testMD5AndSHA256ChallengesAreAnswered() throws {
        let dir = try targets()
        for name in ["dg.md5", "dg.sha256"] {
            // WHEN the target is called THEN httpbin's challenge is answered and it authenticates the user
            let r = try run(dir, "call", name)
            XCTAssertEqual(r.code, 0, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains(#""authenticated": true"#), "\(name): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains(#""user": "ann""#), "\(name): \(r.stdout)")
        }
    }

    func testAWrongPasswordEndsWithThe401() throws {
        // WHEN the server's password differs THEN the answer is refused once, not looped on
        let r = try run(try targets(), "call", "dg.wrong", "-i")
        XCTAssertNotEqual(r.code, 0)
        XCTAssertTrue(r.stdout.hasPrefix("HTTP/1.1 401"), r.stdout)
        XCTAssertFalse(r.stdout.contains(password) || r.stderr.contains(password))
    }

    func testCheckAndRecordGoThroughTheSamePath() throws {
        let dir = try targets()
        // WHEN check runs the digest targets THEN both pass (one process: the nonce is reused with nc)
        let check = try run(dir, "check", "dg.md5", "dg.sha256")
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertFalse(check.stdout.contains(password) || check.stderr.contains(password))
        // AND record stores the authenticated answer
        let record = try run(dir, "record", "dg.md5")
        XCTAssertEqual(record.code, 0, record.stdout + record.stderr)
        let saved = try String(contentsOf: dir.appendingPathComponent("dg.yaml"), encoding: .utf8)
        XCTAssertTrue(saved.contains("authenticated"), saved)
    }

    func testCurlShowsDigestWithThePasswordHidden() throws {
        let dir = try targets()
        // WHEN the curl command is asked for THEN it uses curl's --digest -u, the password hidden
        let hidden = try run(dir, "call", "dg.md5", "--curl", "--dry-run")
        XCTAssertEqual(hidden.stdout, "curl -L '\(base)/digest-auth/auth/ann/••••/MD5' -H 'User-Agent: \(CLI.defaultUserAgent)' --digest -u 'ann:••••' --max-time 60\n")
        // AND with --show-secrets curl itself runs it and is let in
        let shown = try run(dir, "call", "dg.sha256", "--curl", "--dry-run", "--show-secrets")
        XCTAssertTrue(shown.stdout.contains("--digest -u ann:\(password)"), shown.stdout)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", shown.stdout.replacingOccurrences(of: "curl -L", with: "curl -s -L")]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains(#""authenticated": true"#))
    }
}
