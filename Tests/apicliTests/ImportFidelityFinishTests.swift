import Foundation
import XCTest

/// Issue 36's last small items: a raw DEL in a JSON description, curl's `-u name` (a password
/// curl asks for), a secret-named query key given twice, and `mock --validate`'s help.
final class ImportFidelityFinishTests: FolderTestCase {
    /// A raw DEL (0x7F) inside a JSON string is JSON (RFC 8259 §7): the description imports as
    /// collections do, and the written targets' `expect: schema:` loads it (validate, check --stub).
    func testARawDELInAJSONDescriptionImportsAndItsContractLoads() throws {
        let json = """
            {"openapi": "3.0.3", "info": {"title": "del", "version": "1"},
             "servers": [{"url": "http://127.0.0.1:9"}],
             "paths": {"/items": {"get": {"operationId": "listItems", "summary": "List\u{7F} items",
               "responses": {"200": {"description": "ok\u{7F}", "content": {"application/json": {
                 "schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "pattern": "^[^\u{7F}]*$"}}},
                 "example": {"name": "widget"}}}}}}}}}
            """
        let dir = try folder()
        let spec = dir.appendingPathComponent("api/del.json")
        try FileManager.default.createDirectory(at: spec.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: spec)
        XCTAssertTrue(try Data(contentsOf: spec).contains(0x7F))
        let r = try CLI.run(["import", "openapi", "api/del.json", "--service", "del"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/del.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("schema: { openapi: del.openapi/del.json, operation: listItems }"), text)
        XCTAssertTrue(text.contains(#"doc: "List\u007f items""#), text)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
        let c = try CLI.run(["check", "--stub"], cwd: dir)
        XCTAssertEqual(c.code, 0, c.stdout + c.stderr)
    }

    /// `curl -u name` asks for the password when it runs: the import writes it as a variable and
    /// says so (it was an empty password, which curl never sends).
    func testCurlUserWithoutAPasswordIsAVariable() throws {
        let dir = try folder()
        let r = try CLI.run(["import", "curl", "--service", "rt", "--name", "t", "curl -u ann http://127.0.0.1:9/x"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#"auth: { basic: { user: ann, password: "${RT_PASSWORD}" } }"#), r.stdout)
        XCTAssertEqual(r.stderr, "curl: warning: curl -u ann without a password asks for it when it runs; it is written as "
                       + "${RT_PASSWORD} in rt.yaml: set RT_PASSWORD to call it\n")
        try r.stdoutData.write(to: dir.appendingPathComponent("rt.yaml"))
        let sent = try CLI.run(["call", "rt.t", "--dry-run", "--curl", "--show-secrets", "--targets", dir.path], env: ["RT_PASSWORD": "s3"])
        XCTAssertEqual(sent.code, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.contains("Basic " + Data("ann:s3".utf8).base64EncodedString()), sent.stdout)
        // `-u name:` (an empty password, given) and a user in the URL stay as given
        for cmd in ["curl -u ann: http://127.0.0.1:9/x", "curl http://ann@127.0.0.1:9/x"] {
            let e = try CLI.run(["import", "curl", "--service", "rt", "--name", "t", cmd], cwd: dir)
            XCTAssertTrue(e.stdout.contains(#"auth: { basic: { user: ann, password: "" } }"#), cmd + "\n" + e.stdout)
        }
    }

    /// `curl -T file` sends no Content-Type: the target says `contentType: none`, sends none, and
    /// its `--curl` removes the one curl's --data-binary would add.
    func testCurlUploadSendsNoContentType() throws {
        let dir = try folder(["up.bin": "abc"])
        let r = try CLI.run(["import", "curl", "--service", "rt", "--name", "t", "curl -T up.bin http://127.0.0.1:9/x/"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("task: { upload: \(dir.path)/up.bin, contentType: none }"), r.stdout)
        XCTAssertEqual(r.stderr, "")
        try r.stdoutData.write(to: dir.appendingPathComponent("rt.yaml"))
        let sent = try CLI.run(["call", "rt.t", "--dry-run", "--curl", "--targets", dir.path])
        XCTAssertEqual(sent.code, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.contains("-H Content-Type: --data-binary @\(dir.path)/up.bin"), sent.stdout)
        // a Content-Type given with -H is sent as given
        let typed = try CLI.run(["import", "curl", "--service", "rt", "--name", "t", "curl -T up.bin -H 'Content-Type: text/x' http://127.0.0.1:9/x/"], cwd: dir)
        XCTAssertFalse(typed.stdout.contains("contentType"), typed.stdout)
    }

    /// A secret-named query key given twice keeps both values, each in a variable of its own
    /// (they were one `${RT_KEY}`, so the request sent one value twice); so do the repeated keys of
    /// a Postman collection (a list, whose values were written as given).
    func testRepeatedSecretQueryKeysGetAVariableEach() throws {
        let dir = try folder()
        let r = try CLI.run(["import", "curl", "--service", "rt", "--name", "t", "curl 'http://127.0.0.1:9/x?key=one&key=two&a=1'"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#"query: "key=${RT_KEY}&key=${RT_KEY_2}&a=1""#), r.stdout)
        XCTAssertTrue(r.stderr.contains("the query parameter key of t (value 2) is written as ${RT_KEY_2}"), r.stderr)
        try r.stdoutData.write(to: dir.appendingPathComponent("rt.yaml"))
        let sent = try CLI.run(["call", "rt.t", "--dry-run", "--curl", "--show-secrets", "--targets", dir.path],
                               env: ["RT_KEY": "one", "RT_KEY_2": "two"])
        XCTAssertTrue(sent.stdout.contains("/x?key=one&key=two&a=1"), sent.stdout + sent.stderr)

        let postman = """
            {"info": {"name": "pm", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "get", "request": {"method": "GET", "url": {"raw": "http://127.0.0.1:9/x?api_key=one&api_key=two",
               "protocol": "http", "host": ["127", "0", "0", "1"], "port": "9", "path": ["x"],
               "query": [{"key": "api_key", "value": "one"}, {"key": "api_key", "value": "two"}]}}}]}
            """
        try Data(postman.utf8).write(to: dir.appendingPathComponent("pm.json"))
        let p = try CLI.run(["import", "postman", "pm.json", "--to", "out"], cwd: dir)
        XCTAssertEqual(p.code, 0, p.stderr)
        let written = try String(contentsOf: dir.appendingPathComponent("out/pm.yaml"), encoding: .utf8)
        XCTAssertFalse(written.contains("one") || written.contains("two"), written)
        XCTAssertTrue(written.contains("${PM_API_KEY}") && written.contains("${PM_API_KEY_2}"), written)
    }

    /// `mock --validate`'s help says what it does: the documented client-error status, parameters too.
    func testMockValidateHelpSaysWhatItDoes() throws {
        let r = try CLI.run(["mock", "--help"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let help = r.stdout.replacing(/\s+/, with: " ")
        XCTAssertFalse(help.contains("answer 400 with the violations to a request body"), help)
        XCTAssertTrue(help.contains("JSON body or parameters break the operation's schemas with the client-error status the operation documents (else 400)"), help)
        XCTAssertTrue(help.contains("answers a status its operation does not document"), help)
    }
}
