import Foundation
import TestServers
import XCTest

/// `auth: { aws: }` judged by botocore: Tests/Servers/sigv4-server.py (the venv's python) rebuilds each
/// request apicli sent from what arrived and signs it with botocore's SigV4Auth (S3SigV4Auth for
/// s3) at the request's X-Amz-Date; the two `Authorization` values must be byte-equal.
final class SigV4BotocoreTests: FolderTestCase {
    let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    var server: TestServer?

    override func setUpWithError() throws {
        let python = CLI.root.appendingPathComponent(".venv/bin/python").path
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import botocore"]
        check.standardError = FileHandle.nullDevice
        if (try? check.run()) == nil || { check.waitUntilExit(); return check.terminationStatus != 0 }() {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no .venv with botocore: run make venv") }
            throw XCTSkip("no .venv with botocore: run make venv")
        }
        server = try TestServer("sigv4-server.py", [secret], python: python)
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    private func targets(service: String = "execute-api", keys: String = #"accessKey: AKIDEXAMPLE, secretKey: "${AWS_SECRET}""#) throws -> URL {
        let dir = try folder(["aws.yaml": """
            baseURL: \(server!.url)
            auth: { aws: { region: eu-west-1, service: \(service), \(keys) } }
            targets:
              get: { path: "/items/a b/x.json", task: { query: { b: "2", a: "x y~", c: "" } }, headers: { X-Trace: "  one   two " } }
              post: { path: /items, method: POST, task: { json: { name: "Ann", n: [1, 2] } } }
              upload: { path: /upload, method: PUT, task: { upload: body.bin } }
              form: { path: /form, method: POST, task: { multipart: [ { name: a, value: "1" }, { name: f, file: body.bin } ] } }
              checked: { path: /checked, expect: { status: 200, json: { "$.verified": true } } }
            """, "body.bin": String(repeating: "0123456789abcdef", count: 9000)])
        return dir
    }

    private func run(_ dir: URL, _ args: [String], env: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path], env: ["AWS_SECRET": secret].merging(env) { $1 })
    }

    func testBotocoreComputesTheSameAuthorizationForEveryBodyKind() throws {
        for service in ["execute-api", "s3"] {
            let dir = try targets(service: service)
            for name in ["aws.get", "aws.post", "aws.upload", "aws.form"] {
                // WHEN the signed target is sent THEN botocore, signing what arrived, gets the same Authorization
                let r = try run(dir, ["call", name])
                XCTAssertEqual(r.code, 0, "\(service) \(name): \(r.stdout) \(r.stderr)")
                XCTAssertTrue(r.stdout.contains(#""verified": true"#), "\(service) \(name): \(r.stdout)")
                XCTAssertFalse(r.stdout.contains(secret) || r.stderr.contains(secret))
            }
        }
    }

    func testAWrongSecretIsRefusedByTheVerifier() throws {
        // WHEN apicli signs with another secret than the server's THEN botocore's signature differs (403)
        let r = try CLI.run(["call", "aws.post", "--targets", try targets().path], env: ["AWS_SECRET": "another-secret"])
        XCTAssertTrue(r.stdout.contains(#""verified": false"#), r.stdout)
    }

    func testKeysAndTokenFromTheStandardVariables() throws {
        let dir = try targets(keys: "")
        // WHEN the keys are not written THEN AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN sign
        let env = ["AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": secret, "AWS_SESSION_TOKEN": "tok-session-5"]
        let r = try run(dir, ["call", "aws.get", "-v"], env: env)
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains(#""verified": true"#), r.stdout)
        XCTAssertTrue(r.stdout.contains("x-amz-security-token"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Credential=AKIDENV/"), r.stdout)
        XCTAssertFalse((r.stdout + r.stderr).contains(secret), "the secret key is never printed")
        XCTAssertFalse(r.stderr.contains("tok-session-5"), "-v hides the session token: \(r.stderr)")
        // AND without them it is exit 2 naming the variable
        let missing = try CLI.run(["call", "aws.get", "--targets", dir.path], env: ["AWS_ACCESS_KEY_ID": ""])
        XCTAssertEqual(missing.code, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("AWS_ACCESS_KEY_ID"), missing.stderr)
    }

    func testCheckAndRecordSignThroughTheSamePath() throws {
        let dir = try targets()
        let check = try run(dir, ["check", "aws.checked", "aws.post"])
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        let record = try run(dir, ["record", "aws.post"])
        XCTAssertEqual(record.code, 0, record.stdout + record.stderr)
        let saved = try String(contentsOf: dir.appendingPathComponent("aws.yaml"), encoding: .utf8)
        XCTAssertTrue(saved.contains(#""verified": true"#), saved)
        XCTAssertFalse(saved.contains(secret), saved)
    }

    func testCurlUsesAwsSigv4WithTheSecretHidden() throws {
        let dir = try targets()
        let hidden = try run(dir, ["call", "aws.post", "--curl", "--dry-run"])
        XCTAssertTrue(hidden.stdout.contains("--aws-sigv4 aws:amz:eu-west-1:execute-api --user 'AKIDEXAMPLE:••••'"), hidden.stdout)
        XCTAssertFalse(hidden.stdout.contains(secret))
    }

    /// `--aws-sigv4 aws:amz:REGION:SERVICE` as curl spells it, on a target without `auth: { aws: }`
    /// (its bearer auth replaced), the keys from the `AWS_*` variables: botocore agrees for every
    /// command that sends, and `--curl` prints the flag with the secret hidden.
    func testTheAwsSigv4FlagSignsWithKeysFromTheEnvironment() throws {
        let dir = try folder(["plain.yaml": """
            baseURL: \(server!.url)
            auth: { bearer: "${API_TOKEN}" }
            targets:
              get: { path: "/items/x", task: { query: { b: "2", a: "1" } }, expect: { status: 200, json: { "$.verified": true } } }
              post: { path: /items, method: POST, task: { json: { n: 1 } }, expect: { status: 200, json: { "$.verified": true } } }
            """])
        let env = ["AWS_ACCESS_KEY_ID": "AKIDFLAG", "AWS_SECRET_ACCESS_KEY": secret, "API_TOKEN": "bearer-not-sent"]
        for service in ["execute-api", "s3"] {
            let flag = ["--aws-sigv4", "aws:amz:eu-west-1:\(service)"]
            for command in [["call", "plain.get"], ["call", "plain.post"], ["check", "plain.get", "plain.post"], ["record", "plain.post"],
                            ["load", "plain.get", "-q", "--users", "1", "--requests", "2"]] {
                let r = try run(dir, command + flag, env: env)
                XCTAssertEqual(r.code, 0, "\(service) \(command): \(r.stdout) \(r.stderr)")
                if command[0] == "call" { XCTAssertTrue(r.stdout.contains(#""verified": true"#), "\(service) \(command): \(r.stdout)") }
                XCTAssertFalse((r.stdout + r.stderr).contains(secret))
            }
        }
        let curl = try run(dir, ["call", "plain.get", "--aws-sigv4", "AWS:AMZ:us-east-1:execute-api", "--curl", "--dry-run"], env: env)
        XCTAssertTrue(curl.stdout.contains("--aws-sigv4 aws:amz:us-east-1:execute-api --user 'AKIDFLAG:••••'"), curl.stdout)
        XCTAssertFalse(curl.stdout.contains("bearer-not-sent") || curl.stdout.contains(secret), curl.stdout)
        // AND a key not exported is exit 2 naming the flag and the variable
        let missing = try run(dir, ["call", "plain.get", "--aws-sigv4", "aws:amz:eu-west-1:execute-api"], env: ["AWS_ACCESS_KEY_ID": "AKIDFLAG"])
        XCTAssertEqual(missing.code, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("--aws-sigv4 for plain.get has no secretKey: AWS_SECRET_ACCESS_KEY is not set"), missing.stderr)
        // AND a value curl would not take is a usage error
        for bad in ["aws:amz:eu-west-1", "gcp:amz:eu-west-1:s3", "aws:amz::s3", "aws:amz:eu west:s3", "aws:amz:r:s:x"] {
            let r = try run(dir, ["call", "plain.get", "--aws-sigv4", bad], env: env)
            XCTAssertEqual(r.code, 64, "\(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--aws-sigv4 takes aws:amz:REGION:SERVICE"), r.stderr)
        }
    }
}
