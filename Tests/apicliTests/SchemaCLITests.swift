import XCTest

/// `expect: { schema: }` end to end: a live `check` against a local server (`apicli mock`) whose
/// response breaks the schema fails with instance path, keyword and schema path in the text,
/// JSON and JUnit reports; the same stale sample fails `validate` and `check --stub` offline;
/// `mock --validate` refuses to start with it.
final class SchemaCLITests: XCTestCase {
    private let schema = #"{"type":"object","required":["id"],"properties":{"id":{"type":"integer","minimum":1}}}"#
    private var mock: MockProcess?

    override func tearDown() { mock?.stop() }

    private func client(baseURL: String, sampleID: Int) throws -> URL {
        try CLI.folder([
            "targets/schemas/user.json": schema,
            "targets/users.yaml": """
                baseURL: \(baseURL)
                targets:
                  user:
                    path: /users/1
                    expect:
                      status: 200
                      schema: { file: schemas/user.json }
                    sample: { status: 200, headers: { Content-Type: application/json }, json: { id: \(sampleID) } }
                """,
        ])
    }

    func testLiveCheckNamesTheViolationInEveryReport() throws {
        let server = try CLI.folder(["targets/api.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              user:
                path: /users/1
                sample: { status: 200, headers: { Content-Type: application/json }, json: { id: 0 } }
            """])
        let m = try MockProcess(["--targets", server.appendingPathComponent("targets").path])
        mock = m
        let dir = try client(baseURL: m.url, sampleID: 5)
        let r = try CLI.run(["check", "--json", "out.json", "--junit", "out.xml"], cwd: dir)
        XCTAssertEqual(r.code, 1, r.stderr)
        let line = "$.id: 0 is below minimum 1 (#/properties/id) [minimum]"
        XCTAssertTrue(r.stdout.contains(line), r.stdout)
        let json = try String(contentsOf: dir.appendingPathComponent("out.json"), encoding: .utf8)
        XCTAssertTrue(json.contains("$.id: 0 is below minimum 1"), json)
        let junit = try String(contentsOf: dir.appendingPathComponent("out.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("$.id: 0 is below minimum 1 (#/properties/id) [minimum]"), junit)

        // the valid sample passes offline; the live response breaking the schema is drift
        XCTAssertEqual(try CLI.run(["check", "--stub"], cwd: dir).code, 0)
        let drift = try CLI.run(["check", "--drift"], cwd: dir)
        XCTAssertNotEqual(drift.code, 0)
        XCTAssertTrue(drift.stdout.contains("$.id: 0 is below minimum 1"), drift.stdout)
    }

    func testStaleSampleFailsValidateStubAndMockValidate() throws {
        let dir = try client(baseURL: "http://127.0.0.1:9", sampleID: 0)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 2)
        XCTAssertTrue(v.stderr.contains("targets/users.yaml:8:13: error:") && v.stderr.contains("$.id: 0 is below minimum 1"), v.stderr)
        let stub = try CLI.run(["check", "--stub"], cwd: dir)
        XCTAssertEqual(stub.code, 1)
        XCTAssertTrue(stub.stdout.contains("$.id: 0 is below minimum 1 (#/properties/id) [minimum]"), stub.stdout)
        let m = try CLI.run(["mock", "--validate", "--port", "0"], cwd: dir, timeout: 10)
        XCTAssertEqual(m.code, 2)
        XCTAssertTrue(m.stderr.contains("targets/users.yaml:8:13: error: the sample of users.user breaks its schema: $.id: 0"), m.stderr)
    }

    func testBadSchemaFileIsAnErrorAtItsLine() throws {
        let dir = try CLI.folder([
            "targets/users.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  user:
                    path: /users/1
                    expect:
                      schema:
                        type: object
                        properties: { id: { $ref: "#/$defs/missing" } }
                """,
        ])
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 2)
        XCTAssertTrue(v.stderr.contains("targets/users.yaml:8:"), v.stderr)
        XCTAssertTrue(v.stderr.contains("does not resolve"), v.stderr)
    }

    /// A folder with `schemas` (name → text) in targets/schemas/ and targets/users.yaml holding
    /// `targets` (indented by two) under a base URL nothing listens on.
    private func offline(_ schemas: [String: String], targets: String) throws -> URL {
        var files = ["targets/users.yaml": "baseURL: http://127.0.0.1:9\ntargets:\n" + targets]
        for (name, text) in schemas { files["targets/schemas/" + name] = text }
        return try CLI.folder(files)
    }

    /// Issue 34 item 16: a 5,000-long `$ref` chain overflowed the stack of every command that
    /// compiles schemas; now it is a bad schema file, exit 2, named.
    func testALongRefChainIsABadSchemaNotACrash() throws {
        let defs = (0..<5000).map { "\"d\($0)\":{\"$ref\":\"#/$defs/d\($0 + 1)\"}" }.joined(separator: ",")
        let chain = "{\"$ref\":\"#/$defs/d0\",\"$defs\":{" + defs + ",\"d5000\":{\"type\":\"integer\"}}}"
        let dir = try offline(["chain.json": chain], targets: """
              user:
                path: /users/1
                expect: { schema: { file: schemas/chain.json } }
                sample: { status: 200, headers: { Content-Type: application/json }, json: 1 }
            """)
        for args in [["validate"], ["list"], ["check", "--stub"], ["mock", "--validate", "--port", "0"]] {
            let r = try CLI.run(args, cwd: dir, timeout: 20)
            XCTAssertEqual(r.code, 2, args.joined(separator: " ") + ": " + r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains("schemas/chain.json"), args[0] + ": " + r.stderr)
            XCTAssertTrue(r.stderr.contains("deeper than 256 levels"), args[0] + ": " + r.stderr)
        }
    }

    /// Issue 34 item 17: a symbolic link inside the targets folder to a file outside it is outside:
    /// neither a `$ref` nor `schema: { file: }` reads it (its start was printed in the error).
    func testASymlinkOutOfTheFolderIsNotRead() throws {
        let outside = try CLI.folder(["secret.json": #"{"type":"string","title":"OUTSIDE-SECRET-7f3a"}"#])
        defer { try? FileManager.default.removeItem(at: outside) }
        let dir = try offline(["user.json": #"{"type":"object","properties":{"id":{"$ref":"link.json"}}}"#], targets: """
              viaRef:
                path: /users/1
                expect: { schema: { file: schemas/user.json } }
              direct:
                path: /users/2
                expect: { schema: { file: schemas/link.json } }
            """)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("targets/schemas/link.json").path,
                                                   withDestinationPath: outside.appendingPathComponent("secret.json").path)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 2, v.stdout + v.stderr)
        XCTAssertFalse((v.stdout + v.stderr).contains("OUTSIDE-SECRET"), v.stderr)
        XCTAssertTrue(v.stderr.contains(#"$ref "link.json" does not resolve"#), v.stderr)
        XCTAssertTrue(v.stderr.contains("schema file 'schemas/link.json' is outside the folder of the target file"), v.stderr)
    }

    func testMockValidateAnswersABadRequestBodyWith400AndTheViolations() throws {
        let dir = try CLI.folder([
            "targets/contracts/openapi.yaml": """
                openapi: 3.0.3
                info: { title: t, version: "1" }
                paths:
                  /users:
                    post:
                      operationId: createUser
                      requestBody:
                        content:
                          application/json:
                            schema:
                              type: object
                              required: [email]
                              properties:
                                id: { type: integer, readOnly: true }
                                email: { type: string, minLength: 3 }
                      responses:
                        "201":
                          content:
                            application/json:
                              schema: { type: object, required: [id], properties: { id: { type: integer } } }
                """,
            "targets/users.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  create:
                    method: POST
                    path: /users
                    expect:
                      schema: { openapi: contracts/openapi.yaml, operation: createUser }
                    sample: { status: 201, headers: { Content-Type: application/json }, json: { id: 7 } }
                """,
        ])
        let m = try MockProcess(["--targets", dir.appendingPathComponent("targets").path, "--validate"])
        mock = m
        let bad = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"id":3,"email":"x"}"#, m.url + "/users"])
        XCTAssertEqual(bad.status, 400, bad.body)
        XCTAssertTrue(bad.body.contains(#""keyword":"readOnly""#) && bad.body.contains(#""keyword":"minLength""#), bad.body)
        XCTAssertTrue(bad.body.contains(#""instancePath":"$.email""#), bad.body)
        let good = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", #"{"email":"a@b.c"}"#, m.url + "/users"])
        XCTAssertEqual(good.status, 201, good.body)
        XCTAssertEqual(good.body, #"{"id":7}"#)
    }

    func testMockValidateChecksQueryAndPathParameters() throws {
        let dir = try CLI.folder([
            "targets/contracts/openapi.yaml": """
                openapi: 3.0.3
                info: { title: t, version: "1" }
                paths:
                  /pets/{petId}:
                    parameters:
                      - { name: petId, in: path, required: true, schema: { type: integer, minimum: 1 } }
                    get:
                      operationId: getPet
                      parameters:
                        - { name: limit, in: query, required: true, schema: { type: integer, maximum: 50 } }
                        - { name: tag, in: query, schema: { type: array, items: { type: string, enum: [a, b] } } }
                        - { name: sort, in: query, schema: { $ref: "#/components/schemas/Sort" } }
                      responses:
                        "200":
                          content:
                            application/json:
                              schema: { type: object, required: [id], properties: { id: { type: integer } } }
                components:
                  schemas:
                    Sort: { type: string, pattern: "^(asc|desc)$" }
                """,
            "targets/pets.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  pet:
                    path: /pets/{petId}
                    expect:
                      schema: { openapi: contracts/openapi.yaml, operation: getPet }
                    sample: { status: 200, headers: { Content-Type: application/json }, json: { id: 7 } }
                """,
        ])
        let m = try MockProcess(["--targets", dir.appendingPathComponent("targets").path, "--validate"])
        mock = m
        let good = try Curl.run([m.url + "/pets/3?limit=10&tag=a&tag=b&sort=asc"])
        XCTAssertEqual(good.status, 200, good.body)
        XCTAssertEqual(good.body, #"{"id":7}"#)

        let path = try Curl.run([m.url + "/pets/0?limit=10"])
        XCTAssertEqual(path.status, 400, path.body)
        XCTAssertTrue(path.body.contains(#""in":"path","parameter":"petId""#) && path.body.contains(#""keyword":"minimum""#), path.body)
        XCTAssertTrue(path.body.contains("path parameter petId"), path.body)
        XCTAssertTrue(path.body.contains("the operation documents no client-error response: 400 is the mock's own"), path.body)
        XCTAssertTrue(path.headers["x-apicli-refusal"]?.hasSuffix("400 is the mock's own)") == true, "\(path.headers)")

        let missing = try Curl.run([m.url + "/pets/3"])
        XCTAssertEqual(missing.status, 400, missing.body)
        XCTAssertTrue(missing.body.contains(#""parameter":"limit""#) && missing.body.contains(#""keyword":"required""#), missing.body)

        let many = try Curl.run([m.url + "/pets/3?limit=ten&tag=a&tag=c&sort=up"])
        XCTAssertEqual(many.status, 400, many.body)
        for (name, keyword) in [("limit", "type"), ("tag", "enum"), ("sort", "pattern")] {
            XCTAssertTrue(many.body.contains(#""parameter":"\#(name)","instancePath":"#) && many.body.contains(#""keyword":"\#(keyword)""#),
                          "\(name): \(many.body)")
        }
        XCTAssertTrue(many.body.contains(#""instancePath":"$[1]""#), many.body)  // the second tag
        let big = try Curl.run([m.url + "/pets/3?limit=51"])
        XCTAssertEqual(big.status, 400, big.body)
        XCTAssertTrue(big.body.contains(#""keyword":"maximum""#), big.body)
    }
}
