import Foundation
import XCTest

/// `apicli import http` and `apicli import bruno` on real files fetched from public repositories
/// (JetBrains' specification, httpyac's and Kulala's examples and tests, Bruno's own test
/// collections in both formats): import exit 0 → `validate` exit 0 → `check --stub --all` exit 0,
/// one target per request; credentials never written; what is left out said at FILE:LINE.
final class ImportHttpBrunoCLITests: FolderTestCase {
    private static let http = ImportFixtures.folder.appendingPathComponent("http")
    private static let bruno = ImportFixtures.folder.appendingPathComponent("bruno")

    /// Requests per fetched file, counted by reading each file (a `###` section may hold several, httpyac-style).
    static let httpRequests: [(String, Int)] = [
        ("httpyac/basic.http", 2), ("httpyac/environments.http", 1), ("httpyac/graphql.http", 2), ("httpyac/httpbin.http", 10),
        ("httpyac/intellij.http", 6), ("httpyac/multipartFormData.http", 1), ("httpyac/restClient.http", 20),
        ("kulala/2.variables.http", 3), ("kulala/5.script.http", 7), ("kulala/6.body-from-file.http", 1),
        ("kulala-requests/simple.http", 1), ("kulala-requests/advanced_A.http", 2), ("kulala-requests/advanced_E.http", 3),
        ("jetbrains/spec-examples.http", 22),
    ]

    /// Import, then the invariant: validate, check --stub (and --all), show each target, and the number of targets.
    private func assertInvariant(_ kind: String, _ input: String, targets expected: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try folder()
        try importApp(kind, input, into: dir, file: file, line: line)
        XCTAssertFalse(try writtenFiles(dir).isEmpty, "nothing written", file: file, line: line)
        let v = try CLI.run(["validate", "--targets", dir.path], cwd: dir)
        XCTAssertEqual(v.code, 0, "validate \(input): \(v.stderr)", file: file, line: line)
        let env = try dummies(dir)
        for flags in [["--stub"], ["--stub", "--all"]] {
            let c = try CLI.run(["check"] + flags + ["--targets", dir.path], env: env, cwd: dir)
            XCTAssertEqual(c.code, 0, "check \(flags) \(input): \(c.stdout)\(c.stderr)", file: file, line: line)
        }
        let list = try CLI.run(["list", "--json", "--targets", dir.path], env: env, cwd: dir)
        let names = try JSONDecoder().decode([[String: String?]].self, from: list.stdoutData).compactMap { $0["name"] ?? nil }
        XCTAssertEqual(names.count, expected, "targets of \(input)", file: file, line: line)
        for name in names {
            let s = try CLI.run(["show", name, "--targets", dir.path], env: env, cwd: dir)
            XCTAssertEqual(s.code, 0, "show \(name): \(s.stderr)", file: file, line: line)
        }
    }

    /// A value for each `${NAME}` the files need (those without a default): a host after `://`, a
    /// URL where a base URL starts with it, `http` for a scheme, else `x`.
    private func dummies(_ dir: URL) throws -> [String: String] {
        var env: [String: String] = [:]
        for file in try writtenFiles(dir).values {
            // comment lines name variables too (with or without their defaults): only the YAML counts
            let text = file.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.joined(separator: "\n")
            var rest = text[...]
            while let open = rest.firstRange(of: "${") {
                let before = text[..<open.lowerBound].suffix(12)
                let name = String(rest[open.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                let hasDefault = rest[open.upperBound...].dropFirst(name.count).hasPrefix(":-")
                if !name.isEmpty, !hasDefault, !before.hasSuffix("$") {
                    env[name] = before.hasSuffix("://") ? "127.0.0.1" : before.hasSuffix("baseURL: \"") ? "http://127.0.0.1:9"
                        : name.hasSuffix("SCHEME") || name.hasSuffix("SCHEMA") ? "http" : env[name] ?? "x"
                }
                rest = rest[open.upperBound...]
            }
        }
        return env
    }

    func testEveryFetchedHttpFileHoldsTheInvariant() throws {
        let all = try FileManager.default.subpathsOfDirectory(atPath: Self.http.path).filter { $0.hasSuffix(".http") }
        XCTAssertEqual(Set(all), Set(Self.httpRequests.map(\.0)), "every fetched file has its count")
        for (name, count) in Self.httpRequests {
            try assertInvariant("http", Self.http.appendingPathComponent(name).path, targets: count)
        }
    }

    /// Every `.bru` request file (not collection.bru, folder.bru, environments/) and every OpenCollection
    /// request file is one target.
    func testEveryFetchedBrunoCollectionHoldsTheInvariant() throws {
        for (name, requestFile) in [("bru-testbench", ".bru"), ("yml-testbench", ".yml"), ("opencollection-cli", ".yml"), ("bru-examples", ".bru")] {
            let root = Self.bruno.appendingPathComponent(name)
            let requests = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter {
                $0.hasSuffix(requestFile) && !$0.hasPrefix("environments/") && !["folder", "collection", "opencollection"].contains(
                    (($0 as NSString).lastPathComponent as NSString).deletingPathExtension)
            }
            XCTAssertGreaterThanOrEqual(requests.count, 2, name)
            try assertInvariant("bruno", root.path, targets: requests.count)
        }
        XCTAssertGreaterThanOrEqual(try FileManager.default.subpathsOfDirectory(atPath: Self.bruno.appendingPathComponent("bru-testbench").path)
            .filter { $0.hasSuffix(".bru") }.count, 200)
        // one request file alone, each format
        try assertInvariant("bruno", Self.bruno.appendingPathComponent("bru-testbench/auth/basic/via auth/Basic Auth 200.bru").path, targets: 1)
        try assertInvariant("bruno", Self.bruno.appendingPathComponent("opencollection-cli/users/create-user.yml").path, targets: 1)
        // one OpenCollection file holding the whole collection (the format's earlier draft): 14 requests in 4 folders
        try assertInvariant("bruno", Self.bruno.appendingPathComponent("opencollection-draft/oc.yaml").path, targets: 14)
    }

    /// Kulala's test folder: `http-client.env.json` gives defaults (its first environment) and
    /// environments; its private file's names and secret-named values are never written; client
    /// settings (`Security`, `$default_headers`) and scripts are warnings at their line.
    func testEnvironmentFilesAndWarnings() throws {
        let dir = try folder()
        let input = Self.http.appendingPathComponent("kulala-requests/advanced_E.http").path
        let r = try importApp("http", input, into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["advanced-e"])
        assertWritten(text, holds: [
            "# Defaults are the values of environment 'dev' of http-client.env.json; --env NAME picks another's base URL.\n",
            "    path: /advanced_e1\n",
            "      query: { foo: bar, baz: bax }\n",
            "        document_var: \"${DOCUMENT_VAR:-TEST_DOCUMENT_VAR}\"\n",   // an in-file @variable: a default
            "        dev_env.json: \"${POKEMON:-ditto}\"\n",                     // the first environment's value
            "        js_set_request_var: \"${ADVANCED_E_JS_SET_REQUEST_VAR}\"\n", // set by a script: prefixed, no default
            "    # The response handler ./../scripts/advanced_E_post.js was not imported (apicli runs no JavaScript).\n",
        ], never: ["bananas", "client_password", "client_secret"], stderr: r.stderr, warnings: [
            "advanced_E.http:2:1: warning: the pre-request script ./../scripts/advanced_E_pre.js of request 'REQUEST_ONE' is not run",
            "advanced_E.http:3:1: warning: the request tag @prompt has no target-file equivalent; it is not imported",
            "advanced_E.http:23:1: warning: the request tag @env-json-key has no target-file equivalent",
            "http-client.env.json:11:17: warning: $.dev.Security: client settings (Security) have no target-file equivalent; they are not imported",
        ])
        // simple.http: a bearer token from an in-file variable is a secret, never a default
        let simple = try folder()
        let s = try importApp("http", Self.http.appendingPathComponent("kulala-requests/simple.http").path, into: simple)
        assertWritten(try XCTUnwrap(try writtenFiles(simple)["simple"]), holds: [
            "baseURL: \"${SCHEMA_FOO:-https}://${URL_ENDPOINT:-httpbin.org/simple}\"\n",
            "      Authorization: Bearer ${SIMPLE_BASIC_TEST_TOKEN}\n",
        ], never: ["Foo:bar=baz"], stderr: s.stderr, warnings: [])
    }

    /// What each part of the syntax becomes, on the JetBrains specification's own examples and on httpyac's.
    func testSyntaxMappings() throws {
        let dir = try folder()
        let r = try importApp("http", Self.http.appendingPathComponent("jetbrains/spec-examples.http").path, into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["spec-examples"])
        assertWritten(text, holds: [
            "  getApiGet6:\n    path: /api/get\n",                                   // the target continued on indented lines
            "    task: { multipart: [{ name: text, value: Text }, { name: file_to_send, value: \"\" }] }\n",
            "    headers: { From: \"user@example.com\" }\n    task: { query: { id: \"15\" } }\n",
            "    task: { body: message-body }\n",
        ], never: [], stderr: r.stderr, warnings: [
            "spec-examples.http:17:1: warning: the response handler script of the request is not run (apicli runs no JavaScript)",
            "spec-examples.http:18:1: warning: the response reference '<> previous-response.200.json' of the request is not imported",
            "spec-examples.http:65:1: warning: form-data part 'file_to_send' is a file",
            "spec-examples.http:16:1: warning: a file body (input.json) is not imported",
        ])
        // `GET /api/get` + `Host: example.com`: the origin from the Host header
        XCTAssertTrue(text.contains("baseURL: http://example.com\n"), text)
        let yac = try folder()
        let y = try importApp("http", Self.http.appendingPathComponent("httpyac/intellij.http").path, into: yac)
        assertWritten(try XCTUnwrap(try writtenFiles(yac)["intellij"]), holds: [
            "    task: { form: { email: \"user@domain.loc\", password: \"${INTELLIJ_PASSWORD}\" } }\n",
            "    task:\n      query: { test: test }\n",
        ], never: ["password: \"1\"", "password=1"], stderr: y.stderr, warnings: [
            "intellij.http:45:1: warning: the response handler script of the request is not run",
            "intellij.http:49:1: warning: the request tag @injectVariables has no target-file equivalent",
        ])
        let gql = try folder()
        let g = try importApp("http", Self.http.appendingPathComponent("httpyac/graphql.http").path, into: gql)
        let gText = try XCTUnwrap(try writtenFiles(gql)["graphql"])
        XCTAssertTrue(gText.contains("graphql:\n        query: \"query test($name: String!, $owner: String!) {"), gText)
        XCTAssertTrue(gText.contains("variables: { name: vscode-httpyac, owner: AnWeber }"), gText)
        XCTAssertTrue(g.stderr.contains("graphql.http:2:1: warning: text that is not a request line ('fragment IOParts on Repository {')"), g.stderr)
    }

    /// Several files in one import: one target set, each file's stem before its targets' names.
    func testSeveralFilesAndTheRestAlias() throws {
        let dir = try folder()
        let files = ["httpyac/httpbin.http", "httpyac/intellij.http"].map { Self.http.appendingPathComponent($0).path }
        let r = try CLI.run(["import", "rest"] + files + ["--to", dir.path, "--service", "bin"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try XCTUnwrap(try writtenFiles(dir)["bin"])
        XCTAssertTrue(text.contains("  httpbin-getGet:\n") && text.contains("  intellij-postAnything3:\n"), text)
        try assertImportInvariant(dir)
    }

    /// Bruno's test collection: environments (the secret list never a default), collection and
    /// folder headers and auth inherited, asserts as expect:, scripts and tests warned about.
    func testBrunoMappings() throws {
        let dir = try folder()
        let r = try importApp("bruno", Self.bruno.appendingPathComponent("bru-testbench").path, into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["bruno-testbench"])
        assertWritten(text, holds: [
            "baseURL: \"${BRUNO_TESTBENCH_HOST:-http://localhost:8080}\"\nenvironments:\n  local: { baseURL: \"http://localhost:8080\" }\n"
                + "  prod: { baseURL: \"https://testbench-sanity.usebruno.com\" }\n",
            "  auth-basic-viaAuth-basicAuth200:\n    doc: auth / basic / via auth / Basic Auth 200\n    method: POST\n    path: /api/auth/basic/protected\n"
                + "    headers:\n      check: again\n      token: \"${BRUNO_TESTBENCH_COLLECTION_PRE_VAR_TOKEN}\"\n      collection-header: collection-header-value\n"
                + "    auth: { basic: { user: bruno, password: \"${BRUNO_TESTBENCH_BASIC_AUTH_PASSWORD}\" } }\n    check: false\n"
                + "    expect: { status: 200, json: { \"$.message\": Authentication successful } }\n",
            "    auth: { bearer: \"${BRUNO_TESTBENCH_BEARER_AUTH_TOKEN}\" }\n",
        ], never: [":-della", "your_secret_token", "client_secret_1"], stderr: r.stderr, warnings: [
            "collection.bru:45:1: warning: the tests of the collection are not run (apicli runs no JavaScript)",
            "warning: the assert 'res.body.authenticated: isTruthy' has no expect: equivalent",
        ])
        // the OpenCollection testbench: typed variables' data as defaults, a script's tests warned at their line
        let yml = try folder()
        let y = try importApp("bruno", Self.bruno.appendingPathComponent("yml-testbench").path, into: yml)
        let yText = try XCTUnwrap(try writtenFiles(yml)["bruno-yml-testbench"])
        XCTAssertTrue(yText.contains("{ name: mp_num, value: \"${MP_NUM:-42}\" }"), yText)
        XCTAssertTrue(y.stderr.contains("multipart.yml:42:7: warning: the tests of request 'multipart' are not run"), y.stderr)
    }

    func testBadInputIsExit2() throws {
        let dir = try folder([
            "empty/readme.md": "nothing here",
            "none.http": "# only a comment\n###\n",
            "other.yml": "openapi: 3.0.0\n",
            "folder-only.bru": "meta {\n  name: x\n}\n",
        ])
        try assertRefused("http", [("none.http", "none.http: error: no HTTP request to import")], in: dir)
        try assertRefused("bruno", [
            ("empty", "not a Bruno collection: the folder has neither bruno.json, .bru files nor opencollection.yml"),
            ("other.yml", "other.yml:1:1: error: $: not a Bruno collection"),
            ("folder-only.bru", "folder-only.bru: error: the file has no request block (get, post, …)"),
            ("missing", "cannot read missing: no such file"),
        ], in: dir)
        // hostile: an unterminated script, a block never closed, a 1 MB line: clear warnings, no hang
        let hostile = try folder([
            "h.http": "GET http://127.0.0.1:9/a\n\n> {%\n client.log(1)\n",
            "c/bruno.json": #"{"name": "c"}"#,
            "c/r.bru": "get {\n  url: http://127.0.0.1:9/" + String(repeating: "x", count: 1_000_000) + "\n",
        ])
        let h = try CLI.run(["import", "http", "h.http", "--to", "out"], cwd: hostile)
        XCTAssertEqual(h.code, 0, h.stderr)
        XCTAssertTrue(h.stderr.contains("h.http:3:1: warning: the response handler script of the request is not run"), h.stderr)
        let c = try CLI.run(["import", "bruno", "c", "--to", "out2"], cwd: hostile)
        XCTAssertEqual(c.code, 0, c.stderr)
        // symbolic links to folders inside a collection are not followed (links to the parent and to
        // itself would make the walk endless); the collection itself may be named through one
        try FileManager.default.createSymbolicLink(atPath: hostile.appendingPathComponent("c/up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: hostile.appendingPathComponent("c/self").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: hostile.appendingPathComponent("link").path, withDestinationPath: "c")
        let loop = try CLI.run(["import", "bruno", "link", "--to", "out3"], cwd: hostile, timeout: 20)
        XCTAssertEqual(loop.code, 0, loop.stderr)
        XCTAssertTrue(loop.stderr.contains("wrote out3/c.yaml (1 target)"), loop.stderr)
    }
}

extension ImportHttpBrunoCLITests {
    /// httpyac's responses written below the requests and OpenCollection's `examples` become samples,
    /// so `check --stub` judges them (a sample of another status than the asserted one expects failure).
    func testRecordedResponsesAndExamplesBecomeSamples() throws {
        let dir = try folder()
        try importApp("http", ImportFixtures.path("http/httpyac/httpbin.http"), into: dir)
        let text = try XCTUnwrap(try writtenFiles(dir)["httpbin"])
        XCTAssertTrue(text.contains("""
              getGet:
                path: /get
                sample:
                  headers:
                    date: Mon, 21 Jun 2021 19:38:05 GMT
                    content-type: application/json
            """), text)
        let c = try CLI.run(["check", "--stub", "--all", "--targets", dir.path], cwd: dir)
        XCTAssertTrue(c.stdout.contains("10 passed, 0 failed"), c.stdout)
        let input = try folder(["c.yml": """
            opencollection: "1.0.0"
            info: { name: ex }
            items:
              - info: { name: get pet, type: http }
                http: { method: GET, url: "http://127.0.0.1:9/pets/1" }
                runtime:
                  assertions:
                    - { expression: res.status, operator: eq, value: "200" }
                examples:
                  - name: found
                    response:
                      status: 200
                      headers: [{ name: Content-Type, value: application/json }]
                      body: { type: json, data: '{"id": 1, "name": "Rex"}' }
                  - name: missing
                    response: { status: 404, body: { type: text, data: "no such pet" } }
            """])
        let out = try folder()
        try importApp("bruno", input.appendingPathComponent("c.yml").path, into: out)
        let ex = try XCTUnwrap(try writtenFiles(out)["ex"])
        XCTAssertTrue(ex.contains("""
                expect: { status: 200 }
                sample: { headers: { Content-Type: application/json }, json: { id: 1, name: Rex } }
                samples: { missing: { status: 404, body: no such pet, expectFailure: true } }
            """), ex)
        let stub = try CLI.run(["check", "--stub", "--all", "--targets", out.path], cwd: out)
        XCTAssertEqual(stub.code, 0, stub.stdout)
        // a .bru example block with a response → sample; one without a response → a warning
        let bru = try folder()
        let b = try importApp("bruno", Self.bruno.appendingPathComponent("bru-examples").path, into: bru)
        let bText = try XCTUnwrap(try writtenFiles(bru)["bru-examples"])
        XCTAssertTrue(bText.contains("    sample: { headers: { content-type: application/json }, json: { id: 123, name: John Doe } }\n"), bText)
        XCTAssertTrue(b.stderr.contains("multiple-examples.bru:21:1: warning: the response example (no response status code in it) of request 'Test API' is not imported"), b.stderr)
    }
}
