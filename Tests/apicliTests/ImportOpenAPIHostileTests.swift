import Foundation
import XCTest

/// `import openapi` on a hostile description (issue 26 items 1, 2, 16): nothing the spec holds is
/// expanded when the imported targets run, `$ref`s do not leave the spec's folder, and headers that
/// could not be sent are left out with a warning — and the file written always validates.
final class ImportOpenAPIHostileTests: FolderTestCase {
    private static let secret = "topsecretvalue123"
    private static let plain = "plainleakvalue"
    /// `HOSTILE_X_TOKEN`: the `X-Token` header parameter, a credential by its name, is imported as a variable.
    private static let env = ["AWS_SECRET_ACCESS_KEY": secret, "PLAIN_LEAK": plain, "HOSTILE_X_TOKEN": "token-set-by-the-user"]

    private func imported(_ fixture: String, _ extra: [String] = []) throws -> (dir: URL, result: CLI.Result) {
        let dir = try folder()
        let r = try CLI.run(["import", "openapi", ImportFixtures.path(fixture)] + extra, cwd: dir)
        return (dir, r)
    }

    /// The imported file's text.
    private func written(_ dir: URL, _ service: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent("targets/\(service).yaml"), encoding: .utf8)
    }

    /// Every one of `lines` is in stderr.
    private func assertWarned(_ r: CLI.Result, _ lines: [String], line: UInt = #line) {
        for l in lines { XCTAssertTrue(r.stderr.contains(l), "\(l)\n---\n\(r.stderr)", line: line) }
    }

    func testEveryPositionIsWrittenLiteral() throws {
        // GIVEN a description whose server, path, path/query/header parameters, JSON, text, form and
        // multipart bodies and JSON and text response examples hold ${VAR}s and {name}s
        let (dir, r) = try imported("hostile/literal.yaml")
        XCTAssertEqual(r.code, 0, r.stderr)
        let targets = dir.appendingPathComponent("targets")
        // THEN validate and check --stub accept the file with the variables set
        let v = try CLI.run(["validate"], env: Self.env, cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
        let c = try CLI.run(["check", "--stub"], env: Self.env, cwd: dir)
        XCTAssertEqual(c.code, 0, c.stdout + c.stderr)
        // AND no request or sample holds a variable's value, even with --show-secrets
        for t in ["createItem", "putText", "postForm", "postMulti", "crlf"] {
            for args in [["show", "hostile.\(t)", "--show-secrets"],
                         ["call", "hostile.\(t)", "--dry-run", "--show-secrets"],
                         ["call", "hostile.\(t)", "--dry-run", "--curl", "--show-secrets"],
                         ["call", "hostile.\(t)", "--stub", "--show-secrets"]] {
                let out = try CLI.run(args, env: Self.env, cwd: dir)
                XCTAssertEqual(out.code, 0, "\(args): \(out.stderr)")
                XCTAssertFalse(out.stdout.contains(Self.secret) || out.stderr.contains(Self.secret), "\(args): \(out.stdout)")
                XCTAssertFalse(out.stdout.contains(Self.plain) || out.stderr.contains(Self.plain), "\(args): \(out.stdout)")
            }
        }
        // AND the spec's text arrives as written: the body, the header, the stubbed samples
        let show = try CLI.run(["show", "hostile.createItem", "--show-secrets"], env: Self.env, cwd: dir)
        XCTAssertTrue(show.stdout.contains(#"{"a":"${AWS_SECRET_ACCESS_KEY}","b":"{{id}}","c":"{code}"}"#), show.stdout)
        XCTAssertTrue(show.stdout.contains("X-Note: ${AWS_SECRET_ACCESS_KEY} {id}"), show.stdout)
        // AND a credential header's example is not written: the header reads its variable
        XCTAssertTrue(try written(dir, "hostile").contains(#"X-Token: "${HOSTILE_X_TOKEN}""#))
        XCTAssertTrue(show.stdout.contains("X-Token: token-set-by-the-user"), show.stdout)
        let stub = try CLI.run(["call", "hostile.createItem", "--stub"], env: Self.env, cwd: dir)
        XCTAssertEqual(stub.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       #"{"leak":"${AWS_SECRET_ACCESS_KEY}","tpl":"{{name}}","code":"{code}"}"#)
        let bad = try CLI.run(["call", "hostile.createItem", "--stub", "--sample", "400"], env: Self.env, cwd: dir)
        XCTAssertEqual(bad.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "error ${PLAIN_LEAK} {code}")
        let text = try CLI.run(["show", "hostile.putText"], env: Self.env, cwd: dir)
        XCTAssertTrue(text.stdout.contains("hello ${AWS_SECRET_ACCESS_KEY} {name} $${PLAIN_LEAK}"), text.stdout)
        // AND an object part of a multipart body travels as JSON (issue 20), literal too
        let multi = try CLI.run(["show", "hostile.postMulti"], env: Self.env, cwd: dir)
        XCTAssertTrue(multi.stdout.contains(#"  o: {"k":"${PLAIN_LEAK}"}"#), multi.stdout)
        _ = targets
    }

    func testTheMockServesTheExamplesLiteral() throws {
        // GIVEN the hostile description imported, served by apicli mock with the variables set
        let (dir, r) = try imported("hostile/literal.yaml")
        XCTAssertEqual(r.code, 0, r.stderr)
        let mock = try MockProcess([], cwd: dir, env: Self.env)
        defer { _ = mock.stop() }
        // THEN the response examples arrive as the spec wrote them, no variable's value in them
        let base = mock.url + "/$%7BAWS_SECRET_ACCESS_KEY%7D/v1"
        let json = try Curl.run(["-X", "POST", base + "/items/1/$%7BPLAIN_LEAK%7D?q=x", "-H", "Content-Type: application/json", "-d", "{}"])
        XCTAssertEqual(json.status, 200, json.raw)
        XCTAssertEqual(json.body, #"{"leak":"${AWS_SECRET_ACCESS_KEY}","tpl":"{{name}}","code":"{code}"}"#)
        let text = try Curl.run(["-X", "PUT", base + "/text", "-d", "x"])
        XCTAssertEqual(text.body, "${PLAIN_LEAK} {id}", text.raw)
    }

    func testHeadersWithLineBreaksOrBadNamesAreLeftOutWithAWarning() throws {
        // GIVEN header parameters whose value holds CR/LF and whose name is not a token
        let (dir, r) = try imported("hostile/literal.yaml")
        // THEN each is a warning at the parameter, and the file holds only the good header
        assertWarned(r, ["literal.yaml:62:11: warning: the value of header 'X-Bad' holds a line break or a control character; the header is left out",
                         "literal.yaml:63:11: warning: header name 'Bad Name' is not a valid header name; the header is left out"])
        let file = try written(dir, "hostile")
        XCTAssertTrue(file.contains("headers: { X-Ok: fine }"), file)
        XCTAssertFalse(file.contains("Injected"), file)
    }

    func testSecuritySchemesAreWrittenLiteralAndBadHeaderNamesLeftOut() throws {
        // GIVEN an API key header name with CR/LF and an OAuth2 token URL and scope holding ${…} and {…}
        let (dir, r) = try imported("hostile/security.yaml")
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN the header scheme is a warning, not an auth: validate rejects; the token URL stays literal
        assertWarned(r, ["security.yaml:6:8: warning: security scheme 'k': header name 'X-Key\\r\\nEvil: 1' is not a valid header name; it is not imported"])
        let file = try written(dir, "sec")
        XCTAssertTrue(file.contains("tokenURL: https://auth.example.com/$${AWS_SECRET_ACCESS_KEY}/${{}tenant}\n"), file)
        XCTAssertTrue(file.contains("scope: a${{}b}\n"), file)
        XCTAssertFalse(file.contains("Evil"), file)
        let v = try CLI.run(["validate"], env: Self.env, cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }

    func testTextInCommentsCannotEndTheComment() throws {
        // GIVEN spec text that lands in comments holding CR, NEL, LS and BEL (an OpenID Connect URL
        // with "\rbaseURL: https://evil.example.com", a parameter description)
        let (dir, r) = try imported("hostile/comments.yaml")
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN each line break starts another comment line, controls are escapes: no key is injected
        let file = try written(dir, "c")
        XCTAssertTrue(file.contains("# OpenID Connect discovery: https://x.example.com/\n# baseURL: https://evil.example.com\n# x: 1\n"), file)
        XCTAssertTrue(file.contains("# q: 1   # optional: line doc: injected more\\u0007bell\n"), file)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
        let show = try CLI.run(["show", "c.a"], env: ["C_TOKEN": "dummy-token-value"], cwd: dir)
        XCTAssertTrue(show.stdout.contains("GET https://api.example.com/a"), show.stdout)
    }

    func testRefsOutsideTheSpecFolderAreRefusedUnlessARootAllowsThem() throws {
        // GIVEN a spec whose example $refs a file in ../outside, and one in its own subfolder
        let (dir, r) = try imported("hostile/spec/refs.yaml")
        // THEN the outside one is a warning at the $ref and is not read; the inside one is
        XCTAssertEqual(r.code, 0, r.stderr)
        assertWarned(r, ["refs.yaml:12:21: warning: $ref '../outside/secret.yaml#/Ex' names a file outside the description's folder; it is not followed"])
        let file = try written(dir, "refs")
        XCTAssertFalse(file.contains("hunter2"), file)
        XCTAssertTrue(file.contains("json: { name: fine }"), file)
        // WHEN --allow-ref-root names the folder holding it, it is followed
        let allowed = try CLI.run(["import", "openapi", ImportFixtures.path("hostile/spec/refs.yaml"), "-o", "-",
                                   "--allow-ref-root", ImportFixtures.path("hostile/outside")], cwd: dir)
        XCTAssertEqual(allowed.code, 0, allowed.stderr)
        XCTAssertTrue(allowed.stdout.contains("hunter2"), allowed.stdout)
        XCTAssertFalse(allowed.stderr.contains("outside the description's folder"), allowed.stderr)
        // AND a root that is no folder is a usage error
        let missing = try CLI.run(["import", "openapi", ImportFixtures.path("hostile/spec/refs.yaml"), "-o", "-",
                                   "--allow-ref-root", dir.appendingPathComponent("nope").path], cwd: dir)
        XCTAssertEqual(missing.code, 64, missing.stderr)
    }

    func testAbsoluteRefsAndSymlinksOutOfTheFolderAreRefused() throws {
        // GIVEN a spec in a folder naming a file elsewhere by absolute path, and through a symlink
        let secret = ImportFixtures.path("hostile/outside/secret.yaml")
        let dir = try folder(["api/spec.yaml": """
            openapi: 3.0.3
            info: { title: Abs, version: "1" }
            servers: [{ url: "https://api.example.com" }]
            paths:
              /a:
                post:
                  operationId: a
                  requestBody:
                    content:
                      application/json:
                        examples:
                          abs: { $ref: "\(secret)#/Ex" }
                  responses: { '204': { description: none } }
              /b:
                post:
                  operationId: b
                  requestBody:
                    content:
                      application/json:
                        examples:
                          link: { $ref: "link.yaml#/Ex" }
                  responses: { '204': { description: none } }

            """])
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("api/link.yaml").path, withDestinationPath: secret)
        let r = try CLI.run(["import", "openapi", "api/spec.yaml", "-o", "-"], cwd: dir)
        // THEN both are refused at their $ref, and the secret's content is nowhere
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("api/spec.yaml:12:20: warning: $ref '\(secret)#/Ex' names a file outside"), r.stderr)
        XCTAssertTrue(r.stderr.contains("api/spec.yaml:21:21: warning: $ref 'link.yaml#/Ex' names a file outside"), r.stderr)
        XCTAssertFalse(r.stdout.contains("hunter2"), r.stdout)
    }
}
