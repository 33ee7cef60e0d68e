import Foundation
import XCTest

/// Bad input: the exact message, the place, the hint and the documented exit code.
final class ErrorTests: XCTestCase {
    var dir: URL!

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func run(_ files: [String: String], _ args: [String]) throws -> CLI.Result {
        dir = try CLI.folder(files)
        return try CLI.run(args + ["--targets", dir.path])
    }

    func testUnknownTargetSuggestsTheClosestNames() throws {
        let r = try CLI.run(["call", "github.userProfil", "--stub"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "error: unknown target 'github.userProfil'\n    hint: did you mean 'github.userProfile'?\n")
        let s = try CLI.run(["call", "gihtub.zen", "--stub"])
        XCTAssertEqual(s.stderr, "error: unknown target 'gihtub.zen'\n    hint: did you mean 'github.zen'?\n")
    }

    func testEveryProblemOfAFileIsReportedWithFileLineColumnAndCaret() throws {
        let r = try run(["api.yaml": """
            baseURL: https://api.example.com
            targets:
              one:
                pth: /one
                method: "GET POST"
              two:
                path: /two
                validate: sucess
            """], ["validate"])
        XCTAssertEqual(r.code, 2)
        let file = dir.appendingPathComponent("api.yaml").path
        XCTAssertEqual(r.stderr, """
            \(file):4:5: error: unknown key 'pth' in target 'one'
              4 |     pth: /one
                |     ^
                hint: did you mean 'path'?
            \(file):5:13: error: method 'GET POST' is not an HTTP method token
              5 |     method: "GET POST"
                |             ^
                hint: use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another RFC 9110 token
            \(file):8:15: error: unknown validate 'sucess'
              8 |     validate: sucess
                |               ^
                hint: did you mean 'success'?
            3 errors

            """)
        // AND `call` of one target reports that target's problems only (it decodes no other)
        let one = try CLI.run(["call", "api.one", "--stub", "--targets", dir.path])
        XCTAssertEqual(one.code, 2)
        XCTAssertTrue(one.stderr.hasSuffix("\n2 errors\n"), one.stderr)
        XCTAssertFalse(one.stderr.contains("sucess"), one.stderr)
    }

    func testYAMLSyntaxErrorCarriesLibyamlsText() throws {
        let r = try run(["api.yaml": "baseURL: https://x.test\ntargets:\n  a: { path: /a\n  b: 1\n"], ["list"])
        XCTAssertEqual(r.code, 2)
        let file = dir.appendingPathComponent("api.yaml").path
        XCTAssertTrue(r.stderr.hasPrefix("\(file):4:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("error: did not find expected ',' or '}'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("note: while parsing a flow mapping"), r.stderr)
    }

    func testDuplicateKeyNamesBothPlaces() throws {
        let r = try run(["api.yaml": "baseURL: https://x.test\ntargets:\n  a: { path: /a }\n  a: { path: /b }\n"], ["list"])
        XCTAssertEqual(r.code, 2)
        let file = dir.appendingPathComponent("api.yaml").path
        XCTAssertEqual(r.stderr, """
            \(file):4:3: error: duplicate key 'a'
              4 |   a: { path: /b }
                |   ^
            \(file):3:3: note: first defined here
              3 |   a: { path: /a }
                |   ^

            """)
    }

    func testMissingPlaceholderAndMissingVariable() throws {
        let files = ["api.yaml": """
            baseURL: https://x.test
            targets:
              user: { path: "/users/{id}", sample: { body: ok } }
              token: { path: /t, headers: { Authorization: "Bearer ${APICLI_T_MISSING}" }, sample: { body: ok } }
            """]
        let r = try run(files, ["call", "api.user", "--stub"])
        XCTAssertEqual(r.code, 2)
        let file = dir.appendingPathComponent("api.yaml").path
        XCTAssertEqual(r.stderr, """
            \(file):3:17: error: no value for placeholder {id} in the path of api.user
              3 |   user: { path: "/users/{id}", sample: { body: ok } }
                |                 ^
                hint: add 'id' to the target's params: or pass -p id=VALUE

            """)
        XCTAssertEqual(try CLI.run(["call", "api.user", "--stub", "-p", "id=7", "--targets", dir.path]).code, 0)
        // a request that is sent needs the variable (nothing is sent: it fails while building)…
        let t = try CLI.run(["call", "api.token", "--targets", dir.path])
        XCTAssertEqual(t.code, 2)
        XCTAssertTrue(t.stderr.contains("error: environment variable APICLI_T_MISSING is not set (used in header 'Authorization' of api.token)"), t.stderr)
        XCTAssertTrue(t.stderr.contains("hint: export APICLI_T_MISSING=…, or give a default: ${APICLI_T_MISSING:-value}"), t.stderr)
        // …a stub does not (OfflineStubTests)
        XCTAssertEqual(try CLI.run(["call", "api.token", "--stub", "--targets", dir.path]).code, 0)
    }

    func testMissingTargetsFolder() throws {
        let r = try CLI.run(["list", "--targets", "/nonexistent/apicli"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stderr, "error: no targets folder at '/nonexistent/apicli'\n    hint: run from the folder that holds targets/, or pass --targets DIR (or set APICLI_TARGETS)\n")
    }

    func testStubWithoutSampleAndUnknownSampleName() throws {
        let r = try run(["api.yaml": "baseURL: https://x.test\ntargets:\n  a: { path: /a, samples: { gone: { status: 410 } } }\n"],
                        ["call", "api.a", "--stub"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("error: api.a has no sample: to answer --stub with"), r.stderr)
        let s = try CLI.run(["call", "api.a", "--stub", "--sample", "gon", "--targets", dir.path])
        XCTAssertEqual(s.code, 2)
        XCTAssertTrue(s.stderr.contains("error: api.a has no sample named 'gon'\n"), s.stderr)
        XCTAssertTrue(s.stderr.contains("hint: did you mean 'gone'?"), s.stderr)
    }

    func testUsageErrorsKeepArgumentParsersCode() throws {
        let r = try CLI.run(["call", "github.zen", "-p", "novalue"])
        XCTAssertEqual(r.code, 64)
        XCTAssertTrue(r.stderr.contains("-p takes name=value, got 'novalue'"), r.stderr)
        XCTAssertEqual(try CLI.run(["call", "github.zen", "--sample", "x"]).code, 64)
    }

    func testBinaryGarbageAndEmptyFilesEndInExitTwo() throws {
        let r = try run(["a.yaml": "", "b.yaml": "\u{1}\u{2}\u{3}: [\u{7f}"], ["list"])
        XCTAssertEqual(r.code, 2)
        XCTAssertTrue(r.stderr.contains("a.yaml:1:1: error: the target file is empty"), r.stderr)
        XCTAssertTrue(r.stderr.contains("b.yaml:1:1: error: "), r.stderr)
    }
}
