import Foundation
import XCTest

/// `apicli import curl`: the inverse of `apicli call --curl`. Round trips compare the curl command
/// of the original target with the one of the imported target (method, URL, every header, body).
final class ImportCurlCLITests: FolderTestCase {

    /// `call T --curl --dry-run --show-secrets | import curl`, written as `rt.yaml` in a fresh folder;
    /// then the imported target's curl command must equal the original's.
    /// `env`: the values of the variables the import writes in place of credentials.
    private func assertRoundTrip(_ target: String, targets: URL, env: [String: String] = [:],
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let out = try folder()
        let name = String(target.split(separator: ".")[1])
        let r = try shell("\"$APICLI\" call \(target) --curl --dry-run --show-secrets --targets '\(targets.path)' "
                          + "| \"$APICLI\" import curl --service rt --name \(name) > rt.yaml", cwd: out)
        XCTAssertEqual(r.code, 0, "\(target): \(r.stderr)", file: file, line: line)
        let original = try CLI.run(["call", target, "--curl", "--dry-run", "--show-secrets", "--targets", targets.path])
        let imported = try CLI.run(["call", "rt.\(name)", "--curl", "--dry-run", "--show-secrets", "--targets", out.path], env: env)
        XCTAssertEqual(original.code, 0, original.stderr, file: file, line: line)
        let written = (try? String(contentsOf: out.appendingPathComponent("rt.yaml"), encoding: .utf8)) ?? ""
        XCTAssertEqual(imported.stdout, original.stdout, "\(target) imported as:\n\(written)\(imported.stderr)",
                       file: file, line: line)
        let v = try CLI.run(["validate", "rt.yaml"], cwd: out)
        XCTAssertEqual(v.code, 0, v.stderr, file: file, line: line)
    }

    func testEveryShippedTargetRoundTrips() throws {
        let targets = CLI.root.appendingPathComponent("targets")
        let list = try CLI.run(["list", "--json", "--targets", targets.path])
        let names = try JSONDecoder().decode([[String: String?]].self, from: list.stdoutData).compactMap { $0["name"] ?? nil }
        XCTAssertGreaterThan(names.count, 10)
        for name in names { try assertRoundTrip(name, targets: targets) }
    }

    func testUploadsAuthAndBodiesRoundTrip() throws {
        // GIVEN targets with every kind of body, basic auth, a query with lists and odd characters
        let dir = try folder([
            "files/photo.gif": "GIF89a",
            "files/data.bin": "bytes",
            "svc.yaml": """
                baseURL: http://127.0.0.1:9/api
                headers: { X-Quote: "it's \\"quoted\\"" }
                auth: { basic: { user: ann, password: "p@ss:word" } }
                targets:
                  multipart:
                    method: POST
                    path: /upload/{id}
                    params: { id: a b }
                    task:
                      multipart:
                        - { name: photo, file: files/photo.gif, filename: "my;photo.gif", type: image/gif }
                        - { name: comment, value: "hello; world" }
                      query: { v: 2, tags: [x, y], q: "a&b=c ü" }
                  upload:
                    method: PUT
                    path: /put
                    task: { upload: files/data.bin }
                  bodyFile:
                    method: POST
                    path: /raw
                    task: { body: { file: files/data.bin } }
                  text:
                    method: POST
                    path: /text
                    task: { body: "line one\\nline 'two' $${HOME}" }
                  json:
                    method: PATCH
                    path: /json
                    timeout: 2.5
                    task: { json: { name: "$${NOT_A_VAR}", list: [1, 2.50, true, null], nested: { "a b": "x" } } }
                  form:
                    method: POST
                    path: /form
                    task: { form: { a: "1 + 1 = 2", b: "é&" }, query: { page: 3 } }
                  noBrackets:
                    path: /list
                    task: { query: { id: [1, 2] }, arrays: noBrackets }
                    auth: none

                """,
        ])
        for t in ["multipart", "upload", "bodyFile", "text", "json", "form", "noBrackets"] {
            try assertRoundTrip("svc.\(t)", targets: dir, env: ["RT_PASSWORD": "p@ss:word"])
        }
    }

    func testBrowserCopyAsCurl() throws {
        // GIVEN a command as a browser's "Copy as cURL" writes it (line continuations, $'…', cookies)
        let command = """
            curl 'https://api.example.com/v1/orders?status=open&page=2' \\
              -H 'accept: application/json' \\
              -H 'authorization: Bearer abc.def' \\
              -b 'session=xyz' \\
              -H 'content-type: application/json' \\
              --data-raw $'{"note":"it\\'s","items":[{"sku":"A-1","qty":2}]}' \\
              --compressed -sSL -k --max-time 15
            """
        let dir = try folder()
        let r = try CLI.run(["import", "curl", command], cwd: dir)
        // THEN a service file with one target, its credentials as variables (issue 33: one secret
        // policy; they were written as given), and a warning for each
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, """
            curl: warning: the Cookie header of postV1Orders is written as ${EXAMPLE_COOKIE_SECRET} in example.yaml, not as given: set EXAMPLE_COOKIE_SECRET to call it
            curl: warning: the bearer token of postV1Orders is written as ${EXAMPLE_TOKEN} in example.yaml, not as given: set EXAMPLE_TOKEN to call it

            """)
        XCTAssertEqual(r.stdout, """
            # yaml-language-server: $schema=.apicli-targets.schema.json
            # Imported by apicli import curl.
            service: example
            baseURL: https://api.example.com
            tls: { verify: false }
            targets:
              postV1Orders:
                # The input's credentials are not written: set ${EXAMPLE_COOKIE_SECRET}, ${EXAMPLE_TOKEN}.
                method: POST
                path: /v1/orders
                headers: { accept: application/json, Cookie: "${EXAMPLE_COOKIE_SECRET}" }
                task: { query: "status=open&page=2", json: { note: "it's", items: [{ sku: A-1, qty: 2 }] } }
                auth: { bearer: "${EXAMPLE_TOKEN}" }
                timeout: 15

            """)
        try Data(r.stdoutData).write(to: dir.appendingPathComponent("example.yaml"))
        let v = try CLI.run(["validate", "example.yaml"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stderr)
    }

    func testUnmappedOptionsAreWarnings() throws {
        let r = try CLI.run(["import", "curl", "curl --retry 3 -o out.txt --digest -u me:pw http://localhost:8080/x"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, """
            curl: warning: curl option --retry 3 is not imported
            curl: warning: the password of the digest auth of getX is written as ${LOCAL_PASSWORD} in local.yaml, not as given: set LOCAL_PASSWORD to call it

            """)
        XCTAssertTrue(r.stdout.contains("service: local\nbaseURL: http://localhost:8080\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("    auth: { digest: { username: me, password: \"${LOCAL_PASSWORD}\" } }\n"), r.stdout)
    }

    func testAppendsToAServiceFile() throws {
        // GIVEN a service file with a target and a key after targets:
        let dir = try folder(["api.yaml": """
            baseURL: http://127.0.0.1:9/v1
            targets:
              one:
                path: /one
            rules:
              - match: "*"
                timeout: 5

            """])
        // WHEN a curl command under its baseURL is added
        let r = try CLI.run(["import", "curl", "--to", "api.yaml", "--name", "two", "curl -X DELETE http://127.0.0.1:9/v1/things/3"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "apicli: added two to api.yaml\n")
        // THEN the target is below the others, its path relative to the baseURL, everything else kept
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("api.yaml"), encoding: .utf8), """
            baseURL: http://127.0.0.1:9/v1
            targets:
              one:
                path: /one
              two:
                method: DELETE
                path: /things/3
            rules:
              - match: "*"
                timeout: 5

            """)
        XCTAssertEqual(try CLI.run(["validate", "api.yaml"], cwd: dir).code, 0)
        // A name that is taken, or a URL outside the baseURL: exit 2, the file untouched
        let taken = try CLI.run(["import", "curl", "--to", "api.yaml", "--name", "one", "curl http://127.0.0.1:9/v1/x"], cwd: dir)
        XCTAssertEqual(taken.code, 2)
        XCTAssertTrue(taken.stderr.hasPrefix("api.yaml:3:3: error: api.yaml already has a target 'one'\n"), taken.stderr)
        let outside = try CLI.run(["import", "curl", "--to", "api.yaml", "curl http://other.example.com/x"], cwd: dir)
        XCTAssertEqual(outside.code, 2)
        XCTAssertTrue(outside.stderr.hasPrefix("api.yaml:1:10: error: the URL http://other.example.com/x is not under this file's baseURL http://127.0.0.1:9/v1\n"),
                      outside.stderr)
    }

    /// The one target-file editor keeps a CRLF file's line endings when a target is added (the
    /// old line insertion wrote bare LF lines into it), and its comments and trailing keys.
    func testAddingToACRLFFileKeepsItsLineEndings() throws {
        let dir = try CLI.folder(["api.yaml": "baseURL: http://127.0.0.1:9/v1\r\ntargets:\r\n  one:   # first\r\n    path: /one\r\n\r\nrules: []\r\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["import", "curl", "--to", "api.yaml", "--name", "two", "curl http://127.0.0.1:9/v1/two"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("api.yaml"), encoding: .utf8),
                       "baseURL: http://127.0.0.1:9/v1\r\ntargets:\r\n  one:   # first\r\n    path: /one\r\n  two:\r\n    path: /two\r\n\r\nrules: []\r\n")
        XCTAssertEqual(try CLI.run(["validate", "api.yaml"], cwd: dir).code, 0)
    }

    /// Issue 34 item 22: a header value with a control character was written to stdout (validate
    /// passed, show and call exit 2), one with a line break too (validate refused it) while
    /// `--to` refused it. One rule for every destination: the header is left out, with a warning.
    func testHeadersATargetCannotSendAreLeftOutWhereverTheImportGoes() throws {
        let dir = try folder(["api.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n  one:\n    path: /one\n"])
        for (header, shown) in [("X-Ctl: a\u{1}b", "X-Ctl"), ("X-Break: a\nInjected: yes", "X-Break")] {
            let words = ["curl", "http://127.0.0.1:9/x", "-H", header, "-H", "X-Ok: fine"]
            let command = words.map { "'" + $0 + "'" }.joined(separator: " ")
            let printed = try CLI.run(["import", "curl", "--service", "p", command], cwd: dir)
            XCTAssertEqual(printed.code, 0, printed.stderr)
            XCTAssertTrue(printed.stderr.contains("the value of header '\(shown)' holds a line break or a control character; it is not imported"),
                          printed.stderr)
            XCTAssertFalse(printed.stdout.contains(shown), printed.stdout)
            XCTAssertTrue(printed.stdout.contains("X-Ok: fine"), printed.stdout)
            try Data(printed.stdoutData).write(to: dir.appendingPathComponent("p.yaml"))
            XCTAssertEqual(try CLI.run(["validate", "p.yaml"], cwd: dir).code, 0)
            XCTAssertEqual(try CLI.run(["show", "p.getX", "--targets", "."], cwd: dir).code, 0)
            let added = try CLI.run(["import", "curl", "--to", "api.yaml", "--name", "t\(shown.count)", command], cwd: dir)
            XCTAssertEqual(added.code, 0, added.stderr)
            XCTAssertTrue(added.stderr.contains("it is not imported"), added.stderr)
            XCTAssertEqual(try CLI.run(["validate", "api.yaml"], cwd: dir).code, 0)
        }
    }

    /// Issue 34 item 24: `call URL --save` wrote `Cookie:` and `X-Api-Key:` as given while
    /// `Authorization` became a variable. The one credential list, for every writer.
    func testSaveWritesEveryCredentialAsAVariable() throws {
        let dir = try folder()
        let r = try CLI.run(["call", "http://127.0.0.1:9/things?api_key=QUERYKEY1", "-H", "Cookie: sid=COOKIE123", "-H", "X-Api-Key: APIKEY123",
                             "-H", "Authorization: Bearer TOKEN123", "-H", "Accept: text/plain", "--save", "svc.things", "--dry-run"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/svc.yaml"), encoding: .utf8)
        for secret in ["COOKIE123", "APIKEY123", "TOKEN123", "QUERYKEY1"] { XCTAssertFalse(text.contains(secret), text) }
        for variable in ["Cookie: \"${SVC_COOKIE_SECRET}\"", "X-Api-Key: \"${SVC_X_API_KEY}\"", "bearer: \"${SVC_TOKEN}\"",
                         "api_key: \"${SVC_API_KEY}\"", "Accept: text/plain"] {
            XCTAssertTrue(text.contains(variable), "no \(variable) in\n\(text)")
        }
        XCTAssertTrue(r.stderr.contains("set SVC_COOKIE_SECRET to call it"), r.stderr)
        XCTAssertEqual(try CLI.run(["validate"], cwd: dir).code, 0)
    }

    func testBadCommandsAreExit2() throws {
        for (command, message) in [
            ("wget http://x", "error: not a curl command: it does not start with 'curl'\n"),
            ("curl 'http://x", "error: the curl command has an unterminated ' quote\n"),
            ("curl -s", "error: the curl command has no URL\n"),
            ("curl ftp://x/y", "error: 'ftp://x/y' is not an http or https URL\n"),
            ("curl -H", "error: curl option -H needs a value\n"),
        ] {
            let r = try CLI.run(["import", "curl", command])
            XCTAssertEqual(r.code, 2, command)
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(command): \(r.stderr)")
        }
    }
}
