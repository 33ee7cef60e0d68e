import Foundation
import XCTest

/// Issue 34 items 18 and 19 end to end against the local httpbin (under gunicorn, whose request
/// header limit is 8190 bytes, as many servers'): a new 3 KB cookie on each of 300 responses
/// leaves every request answerable (the `Cookie` header stays within 8190 bytes) and the jar at
/// 150 cookies; a control character in a cookie file is exit 2 naming FILE:line:column.
final class CookieLimitTests: FolderTestCase {
    func testThreeHundredBigCookiesKeepTheHeaderAndTheJarBounded() throws {
        let base = try CLI.httpbin()
        let value = String(repeating: "v", count: 3000)
        var targets = "baseURL: \(base)\ntargets:\n"
        for i in 0..<300 {
            targets += "  c\(i): { path: /cookies/set, task: { query: { c\(i): \(value) } }, expect: { status: 200 } }\n"
        }
        let dir = try folder(["hb.yaml": targets])
        let jar = dir.appendingPathComponent("jar.txt").path
        let r = try CLI.run(["check", "--targets", dir.path, "--cookie-jar", jar], timeout: 300)
        XCTAssertEqual(r.code, 0, String(r.stdout.suffix(2000)) + r.stderr)
        let lines = try String(contentsOfFile: jar, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("127.0.0.1\t") }
        XCTAssertEqual(lines.count, 150)
    }

    func testAControlCharacterInACookieFileIsTheFilesError() throws {
        let dir = try folder(["hb.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  echo: { path: /cookies }\n"])
        let jar = dir.appendingPathComponent("jar.txt")
        try Data("# Netscape HTTP Cookie File\n\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tab\u{1}c\n".utf8).write(to: jar)
        for flag in ["--cookie-jar", "--cookie"] {
            let r = try CLI.run(["call", "hb.echo", "--targets", dir.path, flag, jar.path])
            XCTAssertEqual(r.code, 2, flag + ": " + r.stderr)
            XCTAssertTrue(r.stderr.contains("jar.txt:3:33: error: not a Netscape cookie line: a control character (0x01)"), r.stderr)
            XCTAssertFalse(r.stderr.contains("malformed"), r.stderr)
        }
    }
}
