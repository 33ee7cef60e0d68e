import Foundation
import XCTest

/// `--cookie-jar FILE` and `--cookie FILE`: Netscape cookie files that curl and apicli share,
/// against the local httpbin (`/cookies/set?…` sets, `/cookies` echoes what was sent). curl reads
/// what apicli wrote and apicli reads what curl wrote.
final class CookieJarFileTests: FolderTestCase {
    var base = ""

    override func setUpWithError() throws {
        base = try CLI.httpbin()
    }

    private func targets() throws -> URL {
        try folder(["hb.yaml": """
            baseURL: \(base)
            targets:
              set: { path: /cookies/set, task: { query: { sid: "abc123", lang: en } } }
              setTwo: { path: /cookies/set, task: { query: { theme: dark } } }
              echo: { path: /cookies }
            """])
    }

    private func run(_ dir: URL, _ args: String...) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path])
    }

    func testCurlReadsTheJarApicliWrote() throws {
        let dir = try targets()
        let jar = dir.appendingPathComponent("jar.txt").path
        // WHEN apicli is given a jar that does not exist yet THEN it writes the run's cookies to it
        let r = try run(dir, "call", "hb.set", "--cookie-jar", jar)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOfFile: jar, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# Netscape HTTP Cookie File\n"), text)
        XCTAssertTrue(text.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc123\n"), text)
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: jar)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        // AND curl -b sends them
        let curl = try Curl.run(["-b", jar, "\(base)/cookies"])
        XCTAssertTrue(curl.body.contains(#""sid": "abc123""#) && curl.body.contains(#""lang": "en""#), curl.raw)
        // AND a later apicli run with the same jar sends them and adds its own
        let again = try run(dir, "call", "hb.setTwo", "--cookie-jar", jar)
        XCTAssertEqual(again.code, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains(#""sid": "abc123""#) && again.stdout.contains(#""theme": "dark""#), again.stdout)
        let both = try Curl.run(["-b", jar, "\(base)/cookies"])
        XCTAssertTrue(both.body.contains(#""theme": "dark""#) && both.body.contains(#""sid": "abc123""#), both.raw)
    }

    func testApicliReadsTheJarCurlWrote() throws {
        let dir = try targets()
        let jar = dir.appendingPathComponent("curl-jar.txt").path
        let set = try Curl.run(["-c", jar, "\(base)/cookies/set?from=curl&n=7"])
        XCTAssertEqual(set.code, 0, set.raw)
        let before = try String(contentsOfFile: jar, encoding: .utf8)
        // WHEN apicli starts from curl's file with --cookie THEN it sends curl's cookies
        let r = try run(dir, "call", "hb.echo", "--cookie", jar)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#""from": "curl""#) && r.stdout.contains(#""n": "7""#), r.stdout)
        // AND --cookie alone never writes the file
        _ = try run(dir, "call", "hb.set", "--cookie", jar)
        XCTAssertEqual(try String(contentsOfFile: jar, encoding: .utf8), before)
        // AND --cookie-jar on curl's file keeps curl's cookies and adds apicli's
        let both = try run(dir, "call", "hb.set", "--cookie-jar", jar)
        XCTAssertEqual(both.code, 0, both.stderr)
        let curl = try Curl.run(["-b", jar, "\(base)/cookies"])
        XCTAssertTrue(curl.body.contains(#""from": "curl""#) && curl.body.contains(#""sid": "abc123""#), curl.raw)
    }

    func testABadJarIsExit2NamingTheLine() throws {
        let dir = try targets()
        let jar = dir.appendingPathComponent("bad.txt")
        try Data("# Netscape HTTP Cookie File\n\n127.0.0.1\tFALSE\t/\tFALSE\tsoon\tsid\tx\n".utf8).write(to: jar)
        let r = try run(dir, "call", "hb.echo", "--cookie-jar", jar.path)
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.txt:3:1: error: not a Netscape cookie line"), r.stderr)
        XCTAssertTrue(r.stderr.contains("'soon'"), r.stderr)
        // AND a --cookie file that cannot be read is a usage error
        let missing = try run(dir, "call", "hb.echo", "--cookie", dir.appendingPathComponent("none.txt").path)
        XCTAssertEqual(missing.code, 64, missing.stderr)
    }

    func testWithoutAJarCookiesLastOneRunAndNothingIsWritten() throws {
        let dir = try targets()
        XCTAssertEqual(try run(dir, "call", "hb.set").code, 0)
        let r = try run(dir, "call", "hb.echo")
        XCTAssertTrue(r.stdout.contains(#""cookies": {}"#), r.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["hb.yaml"])
    }

    /// `cookies: { jar: FILE }` in apicli.yaml: the default `--cookie-jar` of `call` and `record`
    /// (relative to the targets folder); `--cookie-jar` wins; `check` keeps its per-run jar unless
    /// `--cookie-jar` asks.
    func testTheProjectFileJarIsTheDefaultOfCallAndRecord() throws {
        let dir = try targets()
        try Data("cookies: { jar: state/jar.txt }\n".utf8).write(to: dir.appendingPathComponent("apicli.yaml"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("state"), withIntermediateDirectories: true)
        let jar = dir.appendingPathComponent("state/jar.txt").path
        // WHEN call sets cookies THEN they are written to the project's jar, 0600, and the next call sends them
        XCTAssertEqual(try run(dir, "call", "hb.set").code, 0)
        XCTAssertTrue(try String(contentsOfFile: jar, encoding: .utf8).contains("\tsid\tabc123\n"))
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: jar)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        let echo = try run(dir, "call", "hb.echo")
        XCTAssertTrue(echo.stdout.contains(#""sid": "abc123""#), echo.stdout)
        // AND record reads and writes it too
        XCTAssertEqual(try run(dir, "record", "hb.setTwo").code, 0)
        XCTAssertTrue(try String(contentsOfFile: jar, encoding: .utf8).contains("\ttheme\tdark\n"))
        // AND check keeps its per-run jar: it neither sends the file's cookies nor writes them
        try Data("""
            baseURL: \(base)
            targets:
              fresh: { path: /cookies, expect: { status: 200, json: { "$.cookies": {} } } }
              setThird: { path: /cookies/set, task: { query: { third: "3" } } }
            """.utf8).write(to: dir.appendingPathComponent("ck.yaml"))
        let before = try String(contentsOfFile: jar, encoding: .utf8)
        // One at a time, in file order: `fresh` and `setThird` share the run's jar, and run side by
        // side `fresh` could go after `setThird`'s cookie came back (it did once, on a busy machine).
        let check = try run(dir, "check", "ck.*", "--jobs", "1")
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        XCTAssertEqual(try String(contentsOfFile: jar, encoding: .utf8), before)
        // AND asked with --cookie-jar, check uses that jar
        let asked = try run(dir, "check", "ck.fresh", "--cookie-jar", jar)
        XCTAssertEqual(asked.code, 1, asked.stdout)
        // AND --cookie-jar wins over the project's on call: the other file is written, the project's untouched
        let other = dir.appendingPathComponent("other.txt").path
        XCTAssertEqual(try run(dir, "call", "ck.setThird", "--cookie-jar", other).code, 0)
        XCTAssertTrue(try String(contentsOfFile: other, encoding: .utf8).contains("\tthird\t3\n"))
        XCTAssertFalse(try String(contentsOfFile: other, encoding: .utf8).contains("abc123"))
        XCTAssertEqual(try String(contentsOfFile: jar, encoding: .utf8), before)
    }

    func testABadProjectCookiesKeyIsExit2() throws {
        let dir = try targets()
        for (text, words) in [("cookies: { file: x }\n", "unknown key 'file'"), ("cookies: {}\n", "cookies: needs jar:"),
                              ("cookies: { jar: \"\" }\n", "cookies jar is empty"), ("cookies: jar.txt\n", "must be a mapping")] {
            try Data(text.utf8).write(to: dir.appendingPathComponent("apicli.yaml"))
            let r = try run(dir, "call", "hb.echo")
            XCTAssertEqual(r.code, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("apicli.yaml:1:"), r.stderr)
            XCTAssertTrue(r.stderr.contains(words), "\(text): \(r.stderr)")
        }
    }
}
