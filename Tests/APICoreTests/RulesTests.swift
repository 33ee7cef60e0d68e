import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APIImport

/// `rules:`, the project file (apicli.yaml), environments and `.env` files: decoding and precedence.
final class RulesTests: XCTestCase {
    private let projectYAML = """
        headers: { APP_NAME: demo, X-Level: project }
        timeout: 5
        rules:
          - match: "*"
            except: [demo.authenticate]
            headers: { AUTHENTICATION_TOKEN: "${AUTH_TOKEN}", X-Level: project-rule }
        environments:
          staging: { baseURL: "https://staging.test", headers: { X-Env: project } }
        """
    private let serviceYAML = """
        baseURL: https://api.test
        headers: { X-Level: service }
        rules:
          - match: "upload*"
            timeout: 120
            cookies: false
          - match: "legacy*"
            task: { encoding: form, arrays: noBrackets }
          - match: "upload?"
            headers: { X-Level: rule }
        environments:
          prod: { baseURL: "https://prod.test" }
        targets:
          authenticate: { method: POST }
          uploadA: { method: POST, headers: { X-Level: target } }
          uploadB: { method: POST }
          legacyPut: { method: PUT, task: { parameters: { a: [1, 2] } } }
          legacyJSON: { method: PUT, task: { parameters: { a: 1 }, encoding: json } }
        """

    private func resolve(_ name: String, env: String? = nil, overrides: EndpointResolver.Overrides = .init()) throws -> Endpoint {
        let project = try Project.decode(Array(projectYAML.utf8), file: "targets/apicli.yaml")
        let service = try decodeService(serviceYAML)
        return try EndpointResolver(environment: ["AUTH_TOKEN": "t0k"], overrides: overrides, project: project,
                                    environmentName: env).endpoint(for: try service.requireTarget(name), in: service)
    }

    func testGlobs() {
        XCTAssertTrue(Glob.matches("*", "anything"))
        XCTAssertTrue(Glob.matches("upload*", "upload"))
        XCTAssertTrue(Glob.matches("a?c", "abc"))
        XCTAssertTrue(Glob.matches("*.zen", "github.zen"))
        XCTAssertFalse(Glob.matches("upload*", "reupload"))
        XCTAssertFalse(Glob.matches("a?c", "ac"))
    }

    func testHeadersFollowProjectServiceRuleTargetCommandLine() throws {
        // GIVEN X-Level set by the project, its rule, the service, a service rule and a target
        // THEN the highest layer that sets it wins, and the project rule adds the token except where excepted
        XCTAssertEqual(try resolve("uploadA").headers, [HeaderField("APP_NAME", "demo"), HeaderField("X-Level", "target"),
                                                        HeaderField("AUTHENTICATION_TOKEN", "t0k")])
        XCTAssertEqual(try resolve("uploadB").headers.value(of: "X-Level"), "rule")
        XCTAssertEqual(try resolve("legacyPut").headers.value(of: "X-Level"), "project-rule")
        XCTAssertEqual(try resolve("authenticate").headers, [HeaderField("APP_NAME", "demo"), HeaderField("X-Level", "service")])
        let cli = try resolve("uploadA", overrides: .init(headers: [HeaderField("x-level", "cli")]))
        XCTAssertEqual(cli.headers.value(of: "X-Level"), "cli")
    }

    func testTimeoutCookiesAndTaskFromRules() throws {
        // GIVEN upload* rules (timeout, cookies) and a legacy* rule (encodings)
        let upload = try resolve("uploadB")
        let legacy = try resolve("legacyPut")
        let declared = try resolve("legacyJSON")
        // THEN uploads get 120 s without cookies, others keep the project's 5 s with cookies
        XCTAssertEqual(upload.timeout, 120)
        XCTAssertFalse(upload.cookies)
        XCTAssertEqual(legacy.timeout, 5)
        XCTAssertTrue(legacy.cookies)
        // AND the rule's encoding applies unless the target declares its own
        XCTAssertEqual(try RequestBuilder.build(legacy).body, .data(Data("a=1&a=2".utf8)))
        XCTAssertEqual(declared.task.encoding, .json)
        XCTAssertEqual(try RequestBuilder.build(upload).cookies, false)
    }

    func testNotesSayWhichRuleSetWhat() throws {
        XCTAssertEqual(try resolve("uploadB", env: "staging").origins.map(\.description), [
            "baseURL  from environment 'staging' of apicli.yaml",
            "header APP_NAME  from apicli.yaml",
            "header X-Level  from rule \"upload?\" (targets/demo.yaml:9)",
            "header X-Env  from environment 'staging' of apicli.yaml",
            "header AUTHENTICATION_TOKEN  from rule \"*\" (targets/apicli.yaml:4)",
            "timeout  from rule \"upload*\" (targets/demo.yaml:4)",
            "cookies off  from rule \"upload*\" (targets/demo.yaml:4)",
        ])
        XCTAssertEqual(try resolve("legacyPut").origins.map(\.description).suffix(3), [
            "task encoding form  from rule \"legacy*\" (targets/demo.yaml:7)",
            "task arrays noBrackets  from rule \"legacy*\" (targets/demo.yaml:7)",
            "timeout  from apicli.yaml",
        ])
    }

    func testEnvironmentsChooseTheBaseURL() throws {
        // GIVEN a project environment and a service environment
        // THEN each replaces the base URL; an unknown name is an error with the known names
        XCTAssertEqual(try resolve("authenticate", env: "staging").url, "https://staging.test")
        XCTAssertEqual(try resolve("authenticate", env: "prod").url, "https://prod.test")
        XCTAssertEqual(try resolve("authenticate").url, "https://api.test")
        XCTAssertEqual(try resolve("authenticate", overrides: .init(baseURL: "http://cli.test")).url, "http://cli.test")
        do {
            _ = try resolve("authenticate", env: "stagin")
            XCTFail("expected an error")
        } catch let error as APIError {
            XCTAssertEqual(diagnostics(of: error), [Diagnostic(file: nil, mark: nil,
                message: "unknown environment 'stagin' for demo.authenticate", hint: "did you mean 'staging'?")])
        }
    }

    func testAnUnsetVariableInTheProjectFileIsReportedThere() throws {
        // GIVEN the project rule's ${AUTH_TOKEN} unset
        let project = try Project.decode(Array(projectYAML.utf8), file: "targets/apicli.yaml")
        let service = try decodeService(serviceYAML)
        let resolver = EndpointResolver(environment: [:], project: project)
        // WHEN a target it applies to resolves
        let target = try service.requireTarget("uploadA")
        let error = expectAPIError({ () throws(APIError) in try resolver.endpoint(for: target, in: service) })
        // THEN the diagnostic points into apicli.yaml, not the service file
        let d = try XCTUnwrap(error.map { diagnostics(of: $0) }?.first)
        XCTAssertEqual(d.file, "targets/apicli.yaml")
        XCTAssertEqual(d.mark, at(6, 38))
        XCTAssertEqual(d.message, "environment variable AUTH_TOKEN is not set (used in header 'AUTHENTICATION_TOKEN' of demo.uploadA)")
    }

    func testAuthFromTheProjectUnlessTheServiceOrARuleSaysOtherwise() throws {
        // GIVEN project-wide bearer auth, and a service whose upload* rule turns auth off
        let project = try Project.decode(Array("auth: { bearer: \"${API_TOKEN}\" }\n".utf8), file: "targets/apicli.yaml")
        let service = try decodeService("""
            baseURL: https://api.test
            rules: [ { match: "upload*", auth: none } ]
            targets: { a: {}, uploadB: {} }
            """)
        let resolver = EndpointResolver(environment: ["API_TOKEN": "t"], project: project)
        // THEN the project's applies where nothing nearer speaks, and the rule's none wins over it
        let a = try resolver.endpoint(for: try service.requireTarget("a"), in: service)
        XCTAssertEqual(a.credential, .bearer("t"))
        XCTAssertEqual(a.origins.map(\.description), ["auth  from apicli.yaml"])
        XCTAssertNil(try resolver.endpoint(for: try service.requireTarget("uploadB"), in: service).credential)
    }

    func testRuleProblemsAreDiagnosed() {
        let d = decodeDiagnostics("""
            baseURL: https://api.test
            rules:
              - headers: { A: b }
              - match: "*"
                cookie: false
              - match: "*"
                cookies: maybe
                task: { json: {} }
            targets: { a: {} }
            """)
        XCTAssertEqual(d.map(\.message), ["a rule needs match:", "unknown key 'cookie' in a rule",
                                          "cookies must be true or false, not 'maybe'", "unknown key 'json' in the task of a rule"])
        XCTAssertEqual(d.map(\.mark), [at(3, 5), at(5, 5), at(7, 14), at(8, 13)])
        XCTAssertEqual(d[1].hint, "did you mean 'cookies'?")
    }

    func testTheProjectFileIsNotAService() throws {
        // GIVEN a folder with apicli.yaml and one service
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(projectYAML.utf8).write(to: dir.appendingPathComponent("apicli.yaml"))
        try Data(serviceYAML.utf8).write(to: dir.appendingPathComponent("demo.yaml"))
        // THEN the catalog holds only the service, and the project loads on its own
        XCTAssertEqual(try Catalog.load(directory: dir.path).services.map(\.name), ["demo"])
        XCTAssertEqual(try Project.load(directory: dir.path).rules.count, 1)
        XCTAssertEqual(try Project.load(directory: FileManager.default.temporaryDirectory.path).rules.count, 0)
    }

    func testProjectFileUnknownKey() {
        do {
            _ = try Project.decode(Array("targets: {}\n".utf8), file: "targets/apicli.yaml")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(diagnostics(of: error).map(\.message), ["unknown key 'targets' in apicli.yaml"])
        }
    }

    func testEnvFileLinesAndPrecedence() throws {
        // GIVEN an env file with comments, export, quotes and a bad line
        let values = try EnvFile.parse("# c\n\nexport A=1\nB = \"two words\"\nC='x=y'\n", file: ".env")
        XCTAssertEqual(values, ["A": "1", "B": "two words", "C": "x=y"])
        do {
            _ = try EnvFile.parse("A=1\nnot a line\n", file: ".env")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(diagnostics(of: error), [Diagnostic(file: ".env", mark: at(2, 1), message: "expected NAME=value",
                                                               hint: "names are letters, digits and '_'")])
        }
    }
}
