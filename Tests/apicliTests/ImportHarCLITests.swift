import Foundation
import XCTest

/// `apicli import har`: recordings → service files. For every HAR (hand-made, public ones from
/// other projects, and one Chromium records here of a page served on loopback) the import
/// invariant holds: exit 0, `validate` exit 0, `check --stub` passes with dummy values for the
/// `${VAR}`s, and no credential of the recording appears in any written file.
final class ImportHarCLITests: FolderTestCase {
    static let fixtures = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/har")

    struct Imported {
        var files: [String: String]
        var stderr: String
    }

    /// Imports `har` into a fresh folder and holds the invariant; returns the files written.
    @discardableResult
    private func importHolds(_ har: URL, _ flags: [String] = [], secrets: [String],
                             file: StaticString = #filePath, line: UInt = #line) throws -> Imported {
        let dir = try folder()
        let r = try CLI.run(["import", "har", har.path, "--to", "out"] + flags, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr, file: file, line: line)
        let out = dir.appendingPathComponent("out")
        let all = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        let names = all.filter { !$0.hasPrefix(".") }
        XCTAssertFalse(names.isEmpty, "nothing written: \(r.stderr)", file: file, line: line)
        XCTAssertTrue(all.contains(".apicli-targets.schema.json"), "the schema the files name: \(all)", file: file, line: line)
        var files: [String: String] = [:]
        var variables: [String: String] = [:]
        let pattern = try NSRegularExpression(pattern: #"(?<!\$)\$\{([A-Z0-9_]+)\}"#)
        for name in names.sorted() {
            let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            files[name] = text
            let v = try CLI.run(["validate", "out/\(name)"], cwd: dir)
            XCTAssertEqual(v.code, 0, "\(name): \(v.stderr)\n\(text)", file: file, line: line)
            for m in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                variables[String(text[Range(m.range(at: 1), in: text)!])] = "dummy-value"
            }
            for secret in secrets where secret.count >= 6 {
                XCTAssertFalse(text.contains(secret), "\(name) holds the recorded secret \(secret)", file: file, line: line)
            }
        }
        let check = try CLI.run(["check", "--stub", "--targets", "out"], env: variables, cwd: dir)
        XCTAssertEqual(check.code, 0, "check --stub: \(check.stdout)\(check.stderr)", file: file, line: line)
        return Imported(files: files, stderr: r.stderr)
    }

    /// The credentials a HAR holds, read here independently of the importer: Authorization and
    /// Cookie request headers, cookies, Set-Cookie values, and query values named like a key or token.
    private func credentials(in har: URL) throws -> [String] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any]
        let entries = (root?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        var out: Set<String> = []
        for e in entries {
            for side in ["request", "response"] {
                let message = e[side] as? [String: Any] ?? [:]
                for h in message["headers"] as? [[String: Any]] ?? [] {
                    let name = (h["name"] as? String ?? "").lowercased(), value = h["value"] as? String ?? ""
                    if name == "authorization" { out.insert(String(value.split(separator: " ").last ?? "")) }
                    if name == "cookie" || name == "set-cookie" {
                        for c in value.split(separator: ";").prefix(name == "cookie" ? 100 : 1) {
                            if let eq = c.firstIndex(of: "=") { out.insert(String(c[c.index(after: eq)...])) }
                        }
                    }
                }
                for c in message["cookies"] as? [[String: Any]] ?? [] { out.insert(c["value"] as? String ?? "") }
            }
            if let url = (e["request"] as? [String: Any])?["url"] as? String, let items = URLComponents(string: url)?.queryItems {
                for q in items where ["token", "key", "secret", "password", "sig", "session"].contains(where: { q.name.lowercased().contains($0) }) {
                    out.insert(q.value ?? "")
                }
            }
        }
        return out.filter { $0.count >= 6 && $0 != "deleted" }.sorted()
    }

    func testHandMadeRecording() throws {
        let dir = try folder(["a.har": Self.handMade])
        let secrets = ["SECRETQ123", "SECRETTOKEN9", "SECRETCOOKIE", "SECRETSET", "SECRETPW", "SECRETRESP", "dXNlcjpTRUNSRVRCQVNJQw"]
        let r = try importHolds(dir.appendingPathComponent("a.har"), secrets: secrets)
        XCTAssertEqual(r.files.keys.sorted(), ["local.yaml"])
        XCTAssertEqual(r.files["local.yaml"], """
            # yaml-language-server: $schema=.apicli-targets.schema.json
            # Imported by apicli import har.
            service: local
            baseURL: http://127.0.0.1:8080
            targets:
              getApiUsersById:
                path: /api/users/{id}
                params: { id: "42" }
                headers: { Cookie: "${LOCAL_COOKIE_SECRET}", X-Trace: "${{}id}" }
                task: { query: "b=2&a=1&access_token=${LOCAL_ACCESS_TOKEN}&flag" }
                auth: { bearer: "${LOCAL_TOKEN}" }
                expect: { status: 200 }
                sample: { json: { id: 42, name: "${{}name}", token: redacted } }
                samples:
                  status404:
                    status: 404
                    headers: { Content-Type: text/plain }
                    body: no such user
                    expectFailure: true

              postLogin:
                method: POST
                path: /login
                headers: { Content-Type: application/x-www-form-urlencoded }
                task: { body: "user=ann&password=${LOCAL_PASSWORD}" }
                auth: { basic: { user: "${LOCAL_USER}", password: "${LOCAL_PASSWORD}" } }
                check: false
                expect: { status: 200 }
                sample: { json: { ok: true } }

            """)
        for warning in ["a.har: warning: 1 entry skipped: image (static; --all imports them)",
                        "a.har: warning: 1 entry skipped: style sheet (static; --all imports them)",
                        "a.har: warning: the bearer token of the Authorization header is written as ${LOCAL_TOKEN} in local.yaml, not as recorded: set LOCAL_TOKEN to call it",
                        "a.har: warning: the Cookie header is written as ${LOCAL_COOKIE_SECRET}",
                        "a.har: warning: the query parameter access_token is written as ${LOCAL_ACCESS_TOKEN}",
                        "a.har: warning: Set-Cookie headers of 1 response(s) are not written",
                        "apicli: wrote out/local.yaml (2 targets)"] {
            XCTAssertTrue(r.stderr.contains(warning), "missing '\(warning)' in:\n\(r.stderr)")
        }
        // --all imports the style sheet and the image too (the image, of another origin, in a service of its own)
        let all = try importHolds(dir.appendingPathComponent("a.har"), ["--all", "--service", "shop"], secrets: secrets)
        XCTAssertEqual(all.files.keys.sorted(), ["shop-cdn.yaml", "shop-local.yaml"])
        XCTAssertTrue(all.files["shop-local.yaml"]?.contains("  getAppCss:\n    path: /app.css\n") == true, all.files["shop-local.yaml"] ?? "")
        XCTAssertTrue(all.files["shop-cdn.yaml"]?.contains("# the recorded 200 response body (8 bytes of image/png) is not text: not imported") == true,
                      all.files["shop-cdn.yaml"] ?? "")
    }

    func testPublicRecordings() throws {
        for name in ["chrome-har-yahoo.har", "insomnia-deep-input.har"] {
            let har = Self.fixtures.appendingPathComponent(name)
            let secrets = try credentials(in: har)
            XCTAssertFalse(secrets.isEmpty, name)
            let r = try importHolds(har, secrets: secrets)
            XCTAssertTrue(r.stderr.contains("warning: "), r.stderr)
            try importHolds(har, ["--all"], secrets: secrets)
        }
    }

    func testChromiumRecordingOfALoopbackPage() throws {
        let python = CLI.root.appendingPathComponent(".venv/har/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
                XCTFail("no .venv/har (make venv) or no /usr/bin/chromium (make deps)")
            }
            throw XCTSkip("no .venv/har with playwright (make venv) or no chromium (make deps)")
        }
        // GIVEN a HAR Chromium records of a page whose script calls a JSON API on loopback
        let dir = try folder()
        let har = dir.appendingPathComponent("shop.har")
        let p = Process()
        p.executableURL = python
        p.arguments = [CLI.root.appendingPathComponent("Tests/Servers/record-har.py").path, har.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let said = out.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, complaint)
        let planted = (try JSONSerialization.jsonObject(with: said) as? [String: Any])?["secrets"] as? [String] ?? []
        XCTAssertEqual(planted.count, 4)
        let recorded = try String(contentsOf: har, encoding: .utf8)
        for s in planted { XCTAssertTrue(recorded.contains(s), "the recording should hold \(s)") }
        // WHEN it is imported THEN the invariant holds and no planted secret is written
        let r = try importHolds(har, secrets: planted + credentials(in: har))
        XCTAssertEqual(r.files.keys.sorted(), ["local.yaml"], r.stderr)
        let text = r.files["local.yaml"] ?? ""
        for expected in ["  getApiUsersById:\n    path: /api/users/{id}\n    params: { id: \"1\" }\n",
                         "      status404: { status: 404, json: { error: no such user, id: 999 }, expectFailure: true }\n",
                         "  getApiOrdersByIdItems:\n    path: /api/orders/{id}/items\n    params: { id: \"5f1d7c2ab3e4f5a6b7c8d9e0\" }\n",
                         "task: { query: \"page=2&sort=-date&api_key=${LOCAL_API_KEY}\" }",
                         "auth: { bearer: \"${LOCAL_TOKEN}\" }",
                         "json: { user: ann, password: \"${LOCAL_PASSWORD}\", note: \"${{}literal} $${HOME}\" }",
                         "task: { body: \"q=caf%C3%A9+au+lait&tags%5B%5D=a&tags%5B%5D=b\" }",
                         "sample: { status: 201, json: { access_token: redacted, expires_in: 3600 } }",
                         "Cookie: \"${LOCAL_COOKIE_SECRET}\""] {
            XCTAssertTrue(text.contains(expected), "missing \(expected) in\n\(text)")
        }
        for asset in ["app.css", "app.js", "logo.png"] { XCTAssertFalse(text.contains(asset), text) }
        XCTAssertTrue(r.stderr.contains("skipped: HTML page (static; --all imports them)"), r.stderr)
    }

    func testBadInputIsExit2AndFilesAreNotReplaced() throws {
        let dir = try folder(["a.har": Self.handMade, "not.json": "{ log: ", "empty.har": #"{"log":{"entries":[]}}"#])
        for (file, message) in [
            (Self.fixtures.appendingPathComponent("insomnia-shallow-input-not-a-har.json").path, "error: not a HAR file: it has no log.entries list"),
            ("not.json", "error: not JSON, so not a HAR file"),
            ("empty.har", "empty.har: error: nothing to import: the recording has 0 entries and none is an API request"),
            ("missing.har", "error: cannot read missing.har: no such file"),
        ] {
            let r = try CLI.run(["import", "har", file, "--to", "out"], cwd: dir)
            XCTAssertEqual(r.code, 2, "\(file): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(file): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        }
        let bad = try CLI.run(["import", "har", "a.har", "--service", "a b"], cwd: dir)
        XCTAssertEqual(bad.code, 64, bad.stderr)
        XCTAssertEqual(try CLI.run(["import", "har", "a.har", "--to", "out"], cwd: dir).code, 0)
        let again = try CLI.run(["import", "har", "a.har", "--to", "out"], cwd: dir)
        XCTAssertEqual(again.code, 5, again.stderr)
        XCTAssertTrue(again.stderr.contains("out/local.yaml already exists; pass --force to replace it"), again.stderr)
        XCTAssertEqual(try CLI.run(["import", "har", "a.har", "--to", "out", "--force"], cwd: dir).code, 0)
    }

    /// Two origins, ids, credentials of every kind, a base64 JSON body, a 404, static assets.
    static let handMade = #"""
        {"log":{"version":"1.2","creator":{"name":"hand","version":"1"},"entries":[
        {"request":{"method":"GET","url":"http://127.0.0.1:8080/api/users/42?b=2&a=1&access_token=SECRETQ123&flag","headers":[{"name":"Host","value":"x"},{"name":"Authorization","value":"Bearer SECRETTOKEN9"},{"name":"Cookie","value":"sid=SECRETCOOKIE"},{"name":"X-Trace","value":"{id}"},{"name":"sec-ch-ua","value":"x"},{"name":":path","value":"/"}]},
         "response":{"status":200,"headers":[{"name":"Content-Type","value":"application/json"},{"name":"Set-Cookie","value":"sid=SECRETSET; Path=/"}],"content":{"mimeType":"application/json","text":"eyJpZCI6NDIsIm5hbWUiOiJ7bmFtZX0iLCJ0b2tlbiI6IlNFQ1JFVFJFU1AifQ==","encoding":"base64"}}},
        {"request":{"method":"GET","url":"http://127.0.0.1:8080/api/users/43","headers":[]},"response":{"status":404,"headers":[],"content":{"mimeType":"text/plain","text":"no such user"}}},
        {"request":{"method":"POST","url":"http://127.0.0.1:8080/login","headers":[{"name":"Content-Type","value":"application/x-www-form-urlencoded"},{"name":"authorization","value":"Basic dXNlcjpTRUNSRVRCQVNJQw=="}],"postData":{"mimeType":"application/x-www-form-urlencoded","text":"user=ann&password=SECRETPW"}},"response":{"status":200,"headers":[],"content":{"mimeType":"application/json","text":"{\"ok\":true}"}}},
        {"request":{"method":"GET","url":"http://127.0.0.1:8080/app.css","headers":[]},"response":{"status":200,"headers":[],"content":{"mimeType":"text/css","text":"body{}"}}},
        {"request":{"method":"GET","url":"https://cdn.example.com/logo.png","headers":[]},"response":{"status":200,"headers":[],"content":{"mimeType":"image/png","text":"iVBORw0KGgo=","encoding":"base64"}}}
        ]}}
        """#
}
