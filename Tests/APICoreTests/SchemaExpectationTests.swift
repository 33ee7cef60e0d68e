import XCTest
@testable import APISupport
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APIVerdict
@testable import APICheck

/// `expect: { schema: }`: the four ways to name a schema, load-time errors at file:line:col, and
/// the verdict (check, check --stub, validate) and drift naming instance path, keyword and schema path.
final class SchemaExpectationTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "schema-expect-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/schemas", withIntermediateDirectories: true)
        try #"{"type":"object","required":["id"],"properties":{"id":{"type":"integer","minimum":1}}}"#
            .write(toFile: folder + "/schemas/user.json", atomically: true, encoding: .utf8)
        try """
            openapi: 3.0.3
            info: { title: t, version: "1" }
            paths:
              /users/{id}:
                get:
                  operationId: getUser
                  responses:
                    "200":
                      content:
                        application/json:
                          schema: { $ref: "#/components/schemas/User" }
                    "404":
                      content:
                        application/json:
                          schema: { type: object, required: [message] }
            components:
              schemas:
                User:
                  type: object
                  required: [id, email]
                  properties:
                    id: { type: integer, minimum: 1 }
                    email: { type: string, format: email }
                    nickname: { type: string, nullable: true }
            """.write(toFile: folder + "/openapi.yaml", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func decode(_ expect: String) throws -> Service {
        try decodeService("baseURL: http://x\ntargets:\n  t:\n    path: /users/1\n    expect:\n" + expect, file: folder + "/demo.yaml")
    }

    private func failures(_ service: Service, status: Int = 200, _ body: String) -> [String] {
        Judge.failures(service.targets[0].expect, validation: .none,
                       response: Response(status: status, headers: [HeaderField("Content-Type", "application/json")], body: Data(body.utf8), duration: 0))
    }

    func testInlineSchemaFailsWithInstancePathKeywordAndSchemaPath() throws {
        let s = try decode("      schema:\n        type: object\n        properties:\n          items: { type: array, items: { properties: { price: { minimum: 1 } } } }\n")
        XCTAssertEqual(failures(s, #"{"items":[{"price":3},{"price":0}]}"#),
                       ["schema: $.items[1].price: 0 is below minimum 1 (#/properties/items/items/properties/price) [minimum]"])
        XCTAssertEqual(failures(s, #"{"items":[{"price":3}]}"#), [])
        XCTAssertEqual(failures(s, "not json"), ["body is not JSON (schema inline cannot be checked)"])
    }

    func testFileRefAndOperationSchemas() throws {
        let file = try decode("      schema: { file: schemas/user.json }\n")
        XCTAssertEqual(failures(file, #"{"id":0}"#).count, 1)
        XCTAssertEqual(failures(file, #"{"id":2}"#), [])

        let ref = try decode("      schema: { $ref: \"openapi.yaml#/components/schemas/User\", formats: true }\n")
        XCTAssertEqual(failures(ref, #"{"id":2,"email":"a@example.com","nickname":null}"#), [])
        XCTAssertEqual(failures(ref, #"{"id":2,"email":"not an email"}"#),
                       [#"schema: $.email: "not an email" is not a valid email (#/components/schemas/User/properties/email) [format]"#])

        let op = try decode("      schema: { openapi: openapi.yaml, operation: getUser }\n")
        XCTAssertEqual(failures(op, #"{"email":"a@example.com"}"#).first?.hasPrefix("schema: $: required property \"id\" is missing"), true)
        XCTAssertEqual(failures(op, status: 404, #"{}"#).count, 1)  // the 404 response's own schema
        XCTAssertEqual(failures(op, status: 404, #"{"message":"gone"}"#), [])
    }

    func testBadSchemasAreErrorsAtTheirLine() throws {
        let bad = decodeDiagnostics("baseURL: http://x\ntargets:\n  t:\n    expect:\n      schema:\n        type: object\n        minProperties: -2\n",
                                    file: folder + "/demo.yaml")
        XCTAssertEqual(bad.first?.mark, at(7, 24))
        XCTAssertTrue(bad.first?.message.contains("minProperties must be a non-negative integer") == true, "\(bad)")

        let outside = decodeDiagnostics("baseURL: http://x\ntargets:\n  t:\n    expect:\n      schema: { file: ../secret.json }\n",
                                        file: folder + "/demo.yaml")
        XCTAssertTrue(outside.first?.message.contains("outside the folder") == true, "\(outside)")

        let unknown = decodeDiagnostics("baseURL: http://x\ntargets:\n  t:\n    expect:\n      schema: { openapi: openapi.yaml, operation: nope }\n",
                                        file: folder + "/demo.yaml")
        XCTAssertTrue(unknown.first?.message.contains("has no operation 'nope' (an operationId or METHOD /path)") == true, "\(unknown)")

        let dangling = decodeDiagnostics("baseURL: http://x\ntargets:\n  t:\n    expect:\n      schema: { $ref: \"openapi.yaml#/components/schemas/Nope\" }\n",
                                         file: folder + "/demo.yaml")
        XCTAssertFalse(dangling.isEmpty)
    }

    func testStaleSampleIsCaughtOfflineAndLiveBreakageIsDrift() throws {
        let yaml = """
            baseURL: http://x
            targets:
              t:
                path: /users/1
                expect:
                  schema: { file: schemas/user.json }
                sample: { status: 200, headers: { Content-Type: application/json }, json: { id: 0 } }
            """
        let service = try decodeService(yaml, file: folder + "/demo.yaml")
        let d = SampleCheck.diagnostics(service, workspace: Workspace(variables: [:]))
        XCTAssertEqual(d.count, 1)
        XCTAssertTrue(d.first?.message.contains("$.id: 0 is below minimum 1") == true, "\(d)")

        var baseline = Drift.Baseline(mode: .fail, sample: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")],
                                                                     body: Data(#"{"id":0}"#.utf8), duration: 0))
        baseline.schema = service.targets[0].expect?.schema
        let drift = baseline.differences(from: Response(status: 200, headers: [HeaderField("Content-Type", "application/json")],
                                                        body: Data(#"{"id":"x"}"#.utf8), duration: 0))
        XCTAssertTrue(drift.contains { $0.hasPrefix("$.id: \"x\" is string, not integer") }, "\(drift)")
    }

    func testTextReportShowsThreeSchemaViolationsAndACount() {
        let messages = ["status 500, expected 200"] + (1...5).map { "schema: $.a\($0): bad (#) [type]" }
        XCTAssertEqual(TextReport.capped(messages), ["status 500, expected 200", "schema: $.a1: bad (#) [type]",
                                                      "schema: $.a2: bad (#) [type]", "schema: $.a3: bad (#) [type]",
                                                      "… and 2 more schema violations"])
    }
}
