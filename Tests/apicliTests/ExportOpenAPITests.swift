import Foundation
import XCTest

/// `apicli export openapi` (issue 39): the description of the repository's own target files and of
/// imported real descriptions (Fixtures/specs) passes openapi-spec-validator (PyPI, `make venv`),
/// and `import openapi` of it gives targets that build the same requests as the ones exported
/// (`apicli show`: method, URL, headers, body; `Accept` aside, which OpenAPI describes only by the
/// responses' media types).
final class ExportOpenAPITests: FolderTestCase {
    static var validator: String { CLI.root.appendingPathComponent(".venv/bin/openapi-spec-validator").path }

    /// openapi-spec-validator's verdict on `file`: nil when valid, else what it said.
    func validationProblem(_ file: URL) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: Self.validator) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no \(Self.validator): run make venv") }
            throw XCTSkip("no .venv with openapi-spec-validator: run make venv")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.validator)
        process.arguments = [file.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : text
    }

    /// The request `show` prints: from the method line up to the `timeout` line, `Accept:` left out,
    /// a multipart boundary and JSON members with a credential's name masked.
    static func request(_ show: String) -> String {
        let lines = show.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.wholeMatch(of: /[A-Z]+ \S+/) != nil }) else { return "" }
        let end = lines[start...].firstIndex { $0.hasPrefix("timeout ") } ?? lines.endIndex
        return lines[start..<end].filter { !$0.lowercased().hasPrefix("accept:") }.joined(separator: "\n")
            .replacing(/boundary=[A-Za-z0-9-]+/, with: "boundary=…")  // a fresh one for each request
            // JSON members with a credential's name: the export writes them as •••• (DigitalOcean's `public_key`)
            .replacing(/"([A-Za-z_]*(?:key|token|secret|password)[A-Za-z_]*)":"[^"]*"/) { "\"\($0.output.1)\":\"••••\"" }
    }

    /// The targets of `service` in the folder `dir`, as `apicli list --json` names them.
    func targetNames(_ service: String, in dir: URL, env: [String: String]) throws -> [String] {
        let r = try CLI.run(["list", service, "--json"], env: env, cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let list = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        return list.compactMap { ($0["name"] as? String)?.dropFirst(service.count + 1) }.map(String.init)
    }

    /// Exports `service` of `dir`'s targets, validates the description, imports it into a fresh
    /// folder and compares `show` of every target; returns the description and the export's stderr.
    @discardableResult
    func roundTrip(_ dir: URL, service: String, label: String, env extra: [String: String] = [:]) throws -> (description: String, stderr: String) {
        let description = dir.appendingPathComponent("\(service)-exported.yaml")
        let e = try CLI.run(["export", "openapi", "--service", service, "-o", description.path], env: extra, cwd: dir)
        XCTAssertEqual(e.code, 0, "\(label) export: \(e.stderr)")
        if let problem = try validationProblem(description) { XCTFail("\(label): openapi-spec-validator: \(problem)") }
        let back = try folder()
        let i = try CLI.run(["import", "openapi", description.path, "--service", service], cwd: back)
        XCTAssertEqual(i.code, 0, "\(label) re-import: \(i.stderr)")
        let original = try String(contentsOf: dir.appendingPathComponent("targets/\(service).yaml"), encoding: .utf8)
        let reimported = try String(contentsOf: back.appendingPathComponent("targets/\(service).yaml"), encoding: .utf8)
        var env = ImportContractTests.dummies(original + reimported)
        env.merge(extra) { _, b in b }
        let names = try targetNames(service, in: dir, env: env)
        XCTAssertFalse(names.isEmpty, label)
        XCTAssertEqual(Set(try targetNames(service, in: back, env: env)), Set(names), "\(label): the re-imported targets")
        for name in names {
            let a = try CLI.run(["show", "\(service).\(name)"], env: env, cwd: dir)
            let b = try CLI.run(["show", "\(service).\(name)"], env: env, cwd: back)
            XCTAssertEqual(a.code, 0, "\(label) show \(name): \(a.stderr)")
            XCTAssertEqual(b.code, 0, "\(label) show \(name) re-imported: \(b.stderr)")
            XCTAssertFalse(Self.request(a.stdout).isEmpty, "\(label) \(name): \(a.stdout)")
            XCTAssertEqual(Self.request(a.stdout), Self.request(b.stdout), "\(label) \(name): the re-imported target sends another request")
        }
        return (try String(contentsOf: description, encoding: .utf8), e.stderr)
    }

    func testTheRepositorysTargetsExportValidAndReimportToTheSameRequests() throws {
        // GIVEN the repository's own targets/ folder (httpbin, github)
        let dir = try folder()
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("targets"), to: dir.appendingPathComponent("targets"))
        for service in ["httpbin", "github"] {
            let (description, stderr) = try roundTrip(dir, service: service, label: service)
            XCTAssertFalse(stderr.contains(": warning:"), stderr)
            XCTAssertTrue(description.contains("openapi: \"3.1.0\""), description)
        }
        // and the whole folder in one description, as JSON
        let all = try CLI.run(["export", "openapi", "--format", "json"], cwd: dir)
        XCTAssertEqual(all.code, 0, all.stderr)
        let json = dir.appendingPathComponent("all.json")
        try all.stdout.write(to: json, atomically: true, encoding: .utf8)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)))
        if let problem = try validationProblem(json) { XCTFail("all.json: \(problem)") }
    }

    func testImportedRealDescriptionsExportValidAndReimportToTheSameRequests() throws {
        for spec in ["tictactoe.yaml", "petstore-expanded.yaml", "uspto.yaml", "api-with-examples.yaml", "link-example.yaml",
                     "museum.yaml", "openai/containers.yaml", "fastapi/openapi.json", "redocly-starter/openapi.yaml", "non-oauth-scopes.yaml",
                     "digitalocean/openapi.yaml"] {
            let dir = try folder()
            let r = try CLI.run(["import", "openapi", ImportOpenAPIRealSpecTests.specs.appendingPathComponent(spec).path, "--service", "svc"], cwd: dir)
            XCTAssertEqual(r.code, 0, "\(spec): \(r.stderr)")
            let (description, stderr) = try roundTrip(dir, service: "svc", label: spec)
            XCTAssertFalse(stderr.contains(": warning:"), "\(spec): \(stderr)")
            if spec == "petstore-expanded.yaml" {
                // the imported targets' expect: schema: { openapi:, operation: } → the operation's response
                // schemas, with the components they name (OpenAPI 3.0 → 3.1)
                XCTAssertTrue(description.contains("schema: { type: array, items: { \"$ref\": \"#/components/schemas/Pet\" } }"), description)
                XCTAssertTrue(description.contains("components:\n  schemas:\n    Pet:\n"), description)
                // `default`, documented and shown by no sample
                XCTAssertTrue(description.contains("default:\n          description: As the description the target refers to says\n"
                    + "          content: { application/json: { schema: { \"$ref\": \"#/components/schemas/Error\" } } }"), description)
            }
        }
    }

    func testLargeAndSwaggerDescriptionsImportedExportValid() throws {
        // Docker's and Harbor's Swagger 2.0 descriptions (108 and 203 operations, schemas through the
        // converted copy the import keeps), and the 3.2 one whose stream, QUERY and LINK have no place in 3.1
        for (spec, operations, leftOut) in [("swagger2/docker/swagger.yaml", 108, 0), ("swagger2/harbor/swagger.yaml", 203, 0),
                                            ("apicli-3.2/streams.yaml", 1, 3)] {
            let dir = try folder()
            let i = try CLI.run(["import", "openapi", ImportOpenAPIRealSpecTests.specs.appendingPathComponent(spec).path, "--service", "svc"],
                                cwd: dir, timeout: 120)
            XCTAssertEqual(i.code, 0, "\(spec): \(i.stderr)")
            let e = try CLI.run(["export", "openapi", "--service", "svc", "-o", "svc.yaml"], cwd: dir, timeout: 120)
            XCTAssertEqual(e.code, 0, "\(spec): \(e.stderr)")
            XCTAssertTrue(e.stderr.contains("(\(operations) operation"), "\(spec): \(e.stderr)")
            XCTAssertEqual(e.stderr.components(separatedBy: "is left out").count - 1, leftOut, "\(spec): \(e.stderr)")
            if let problem = try validationProblem(dir.appendingPathComponent("svc.yaml")) { XCTFail("\(spec): \(problem)") }
        }
    }

    func testWhatADescriptionCannotSayIsLeftOutWithAWarningAndNoSecretIsWritten() throws {
        // GIVEN a WebSocket target, a method OpenAPI has no field for, two targets of one operation,
        // and credentials: a bearer token from the environment, a literal API key header and query value
        let dir = try folder(["targets/s.yaml": """
            service: s
            baseURL: "${S_BASE:-http://127.0.0.1:9}/v1"
            auth: { bearer: "${S_TOKEN}" }
            targets:
              chat: { path: /chat, task: { websocket: { send: [hi] } } }
              copy: { path: "/files/{id}", method: COPY, params: { id: 1 } }
              one: { path: "/items/{id}", params: { id: 7 }, headers: { X-Api-Key: hunter2-literal }, task: { query: { access_token: sekrit-query, n: 2 } } }
              two: { path: "/items/{key}", params: { key: 8 } }
              open: { path: /open, method: POST, auth: none, task: { json: { a: 1, password: hunter3-body } } }
            """])
        let r = try CLI.run(["export", "openapi"], env: ["S_TOKEN": "tok-secret-value"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        for (target, why) in [("s.chat", "WebSocket"), ("s.copy", "method COPY"), ("s.two", "other parameter names")] {
            XCTAssertTrue(r.stderr.contains("warning: target \(target) is left out") && r.stderr.contains(why), "\(target): \(r.stderr)")
        }
        for secret in ["tok-secret-value", "hunter2-literal", "sekrit-query", "hunter3-body"] {
            XCTAssertFalse(r.stdout.contains(secret), "\(secret) in \(r.stdout)")
        }
        XCTAssertTrue(r.stdout.contains("url: \"{S_BASE}/v1\""), r.stdout)
        XCTAssertTrue(r.stdout.contains("S_BASE: { default: \"http://127.0.0.1:9\" }"), r.stdout)
        XCTAssertTrue(r.stdout.contains("bearerAuth: { type: http, scheme: bearer }"), r.stdout)
        XCTAssertTrue(r.stdout.contains("security: []"), r.stdout)  // `auth: none` of s.open
        XCTAssertFalse(r.stdout.contains("/chat") || r.stdout.contains("copy:"), r.stdout)
        // a second service with a target of the same name: operationIds stay unique
        try """
            service: t
            baseURL: http://127.0.0.1:9/t
            targets:
              one: { path: /t/one }
            """.write(to: dir.appendingPathComponent("targets/t.yaml"), atomically: true, encoding: .utf8)
        let two = try CLI.run(["export", "openapi"], cwd: dir)
        XCTAssertEqual(two.code, 0, two.stderr)
        XCTAssertTrue(two.stdout.contains("operationId: one\n") && two.stdout.contains("operationId: t_one\n"), two.stdout)
        XCTAssertTrue(two.stdout.contains("servers: [{ url: \"http://127.0.0.1:9/t\" }]"), two.stdout)  // the second service's base URL
        let both = dir.appendingPathComponent("both.yaml")
        try two.stdout.write(to: both, atomically: true, encoding: .utf8)
        if let problem = try validationProblem(both) { XCTFail(problem) }

        let file = dir.appendingPathComponent("s.yaml")
        try r.stdout.write(to: file, atomically: true, encoding: .utf8)
        if let problem = try validationProblem(file) { XCTFail(problem) }
    }

    func testTheProjectFilesHeadersAndAuthAreTheServicesDefaults() throws {
        // GIVEN apicli.yaml with a header and auth for every service, and a service that sets its own
        // value of one header; a rule, which has no place in a description
        let dir = try folder([
            "targets/apicli.yaml": """
                headers: { X-Team: core, X-Env: prod }
                auth: { basic: { user: me, password: "${P_PASSWORD}" } }
                rules: [{ match: "p.*", headers: { X-Rule: yes } }]
                """,
            "targets/p.yaml": """
                service: p
                baseURL: http://127.0.0.1:9
                headers: { X-Env: test }
                targets:
                  a: { path: /a, sample: { status: 200, json: { ok: true } } }
                  b: { path: "/b/{id}", params: { id: 3 }, auth: none }
                """,
        ])
        let r = try CLI.run(["export", "openapi"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: rules: of the project file are not exported"), r.stderr)
        XCTAssertTrue(r.stdout.contains("security: [{ basicAuth: [] }]"), r.stdout)
        XCTAssertFalse(r.stdout.contains(": me") || r.stdout.contains("P_PASSWORD"), r.stdout)
        XCTAssertFalse(r.stdout.contains("X-Rule"), r.stdout)
        // THEN import of the description builds the same requests (the rule's header aside: no rule applies there)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("targets/apicli.yaml"))
        try """
            headers: { X-Team: core, X-Env: prod }
            auth: { basic: { user: me, password: "${P_PASSWORD}" } }
            """.write(to: dir.appendingPathComponent("targets/apicli.yaml"), atomically: true, encoding: .utf8)
        try roundTrip(dir, service: "p", label: "project defaults", env: ["P_PASSWORD": "pw", "P_USER": "me"])
    }

    func testAnUnknownServiceAndAnExistingOutputFileAreRefused() throws {
        let dir = try folder()
        try FileManager.default.copyItem(at: CLI.root.appendingPathComponent("targets"), to: dir.appendingPathComponent("targets"))
        let r = try CLI.run(["export", "openapi", "--service", "httpbn"], cwd: dir)
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("no service 'httpbn'") && r.stderr.contains("httpbin"), r.stderr)
        try "x".write(to: dir.appendingPathComponent("out.yaml"), atomically: true, encoding: .utf8)
        let o = try CLI.run(["export", "openapi", "-o", "out.yaml"], cwd: dir)
        XCTAssertEqual(o.code, 5, o.stderr)
        XCTAssertTrue(o.stderr.contains("--force"), o.stderr)
        let f = try CLI.run(["export", "openapi", "--format", "xml"], cwd: dir)
        XCTAssertEqual(f.code, 64, f.stderr)  // usage
        XCTAssertTrue(f.stderr.contains("--format xml: use yaml or json"), f.stderr)
    }
}
