import Foundation
import XCTest
@testable import APIYAML
@testable import APITargets
@testable import APIImport

/// `import curl` reads a command as curl and a shell read it (issue 36): curl's own option table,
/// comments, shell variables, curl's joining rules, `-T` names, and what curl refuses.
final class ImportCurlFidelityTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("curl-fidelity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("PNG".utf8).write(to: dir.appendingPathComponent("pic.png"))
        try Data("ca".utf8).write(to: dir.appendingPathComponent("ca.pem"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func curl(_ command: String) throws -> ImportResult {
        try CurlImport(options: .init(cwd: dir.path)).run(ImportInput(name: "curl", text: command))
    }

    private func yaml(_ r: ImportResult) -> String { YAMLWriter.document(r.drafts[0].yaml) }

    private func warnings(_ r: ImportResult) -> String { r.warnings.map(\.message).joined(separator: "\n") }

    private func refused(_ command: String, _ words: String..., file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try curl(command), file: file, line: line) { error in
            let text = "\(error)"
            for w in words { XCTAssertTrue(text.contains(w), "\(text) lacks \(w)", file: file, line: line) }
        }
    }

    /// Every option curl documents with a value takes it: none becomes the URL.
    func testValueOptionsFromCurlsOwnTable() throws {
        XCTAssertEqual(CurlOptionTable.long["url-query"]?.takesValue, true)
        XCTAssertEqual(CurlOptionTable.short["U"], "proxy-user")
        for command in ["curl --trace-ascii out.txt http://h/x", "curl -U u:p http://h/x", "curl --retry 3 http://h/x",
                        "curl --proxy-user a:b --aws-region eu http://h/x", "curl -sSo out.bin http://h/x",
                        "curl --happy-eyeballs-timeout-ms 10 http://h/x", "curl --no-progress-meter -Lk http://h/x"] {
            let r = try curl(command.replacing("--aws-region eu ", with: ""))
            XCTAssertEqual(r.drafts[0].baseURL, "http://h", command)
            XCTAssertEqual(r.drafts[0].targets[0].path, "/x", command)
            XCTAssertNil(r.drafts[0].targets[0].auth, command)
        }
        XCTAssertTrue(warnings(try curl("curl -U u:p http://h/x")).contains("curl option -U u:p is not imported"))
        // --url-query adds to the query as curl does (encoded; '+' sends it as it is)
        let q = try curl("curl --url-query 'a=b c' --url-query '+x=%41' 'http://h/x?k=1'")
        XCTAssertEqual(q.drafts[0].targets[0].task, [.pair("query", .string("k=1&a=b+c&x=%41"))])
        // an option curl does not know: curl refuses the command, so does the import
        refused("curl --no-such-option v http://h/x", "--no-such-option", "unknown")
        // what changes the request and has no place in a target is refused, not dropped
        refused("curl --ntlm -u a:b http://h/x", "--ntlm", "NTLM")
        refused("curl --request-target '*' -X OPTIONS http://h/x", "--request-target")
    }

    func testDigestIsDigestNeverBasic() throws {
        let r = try curl("curl --digest -u ann:pw http://h/x")
        XCTAssertTrue(yaml(r).contains("digest: { username: ann, password: \"${H_PASSWORD}\" }"), yaml(r))
        XCTAssertFalse(yaml(r).contains("basic"))
        XCTAssertTrue(yaml(try curl("curl --digest --no-digest -u ann:pw http://h/x")).contains("basic:"))
    }

    func testCommentsAndShebangLinesAreSkipped() throws {
        let r = try curl("#!/bin/sh\n# Don't forget: it's a GET\ncurl http://h/x # the API's root\n")
        XCTAssertEqual(r.drafts[0].targets[0].path, "/x")
        XCTAssertEqual(try ShellWords.split("curl a#b '#c' #d\ne"), ["curl", "a#b", "#c", "e"])
    }

    func testShellVariablesBecomeReferences() throws {
        let r = try curl(#"curl -H "Authorization: Bearer $DO_API_TOKEN" -H "X-Region: ${REGION}" "https://api.digitalocean.com/v2/$ACCOUNT/droplets" -d '{"n":"'$NAME'"}' -H 'Content-Type: application/json' -H 'X-Lit: $NOT'"#)
        let y = yaml(r)
        // a credential goes through the service prefix like any credential
        XCTAssertTrue(y.contains("bearer: \"${DIGITALOCEAN_DO_API_TOKEN}\""), y)
        XCTAssertTrue(y.contains("X-Region: \"${REGION}\""), y)
        XCTAssertTrue(y.contains("/v2/${ACCOUNT}/droplets"), y)
        XCTAssertTrue(y.contains(#"{ "n": "${NAME}" }"#), y)
        XCTAssertTrue(y.contains(#"X-Lit: "$NOT""#), y)  // single quotes: literal text
        XCTAssertFalse(y.contains("__apicli"), y)
        XCTAssertFalse(y.lowercased().contains("shellvar"), y)
        let w = warnings(r)
        for name in ["$REGION", "$ACCOUNT", "$NAME", "DIGITALOCEAN_DO_API_TOKEN"] { XCTAssertTrue(w.contains(name), w) }
        XCTAssertFalse(w.contains("$NOT"), w)
        // a variable that starts the URL is its base URL
        let base = try curl(#"curl "$BASE_URL/users?page=2" -H "X-Key: $API_KEY""#)
        XCTAssertEqual(base.drafts[0].baseURL, "${BASE_URL}")
        XCTAssertEqual(base.drafts[0].targets[0].path, "/users")
        XCTAssertTrue(yaml(base).contains("X-Key: \"${LOCAL_API_KEY}\""), yaml(base))
        // what the shell runs first cannot be imported; in single quotes it is text
        refused("curl -H \"X-Date: $(date)\" http://h/x", "command substitution")
        refused("curl -d `cat body.txt` http://h/x", "command substitution")
        XCTAssertTrue(yaml(try curl("curl -H 'X-A: $(date) `x`' http://h/x")).contains("$(date) `x`"))
    }

    func testCurlsJoiningRules() throws {
        let j = try curl(#"curl --json '{"a":' --json '1}' http://h/x"#)
        XCTAssertTrue(yaml(j).contains("json: { a: 1 }"), yaml(j))
        let d = try curl("curl -d a=1 -d b=2 --data-raw @c --data-urlencode 'd=e f' http://h/x")
        XCTAssertEqual(d.drafts[0].targets[0].task.first, .pair("body", .string("a=1&b=2&@c&d=e+f")))
        refused("curl -d a=1 -F f=x http://h/x", "-d/--data", "-F/--form", "only select one")
        refused("curl -T pic.png -d a=1 http://h/x", "only select one")
    }

    func testUploadAppendsTheFileName() throws {
        XCTAssertEqual(try curl("curl -T pic.png http://h/up/").drafts[0].targets[0].path, "/up/pic.png")
        XCTAssertEqual(try curl("curl -T pic.png http://h").drafts[0].targets[0].path, "/pic.png")
        XCTAssertEqual(try curl("curl -T pic.png http://h/up/named").drafts[0].targets[0].path, "/up/named")
        refused("curl -T - http://h/up/", "standard input")
        refused("curl -d @- http://h/x", "standard input")
        refused("curl -F f=@- http://h/x", "standard input")
    }

    func testFilesCurlWouldReadMustExist() throws {
        refused("curl --cacert missing.pem https://h/x", "missing.pem", "does not exist")
        refused("curl -F f=@missing.png http://h/x", "missing.png", "does not exist")
        refused("curl --data-binary @missing.bin http://h/x", "missing.bin")
        XCTAssertTrue(yaml(try curl("curl --cacert ca.pem https://h/x")).contains("ca.pem"))
        // -F name=<file: the file's text as the value, as curl sends it
        let f = try curl("curl -F 'f=<pic.png' http://h/x")
        XCTAssertTrue(yaml(f).contains("value: PNG"), yaml(f))
    }
}
