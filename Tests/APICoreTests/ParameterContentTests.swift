import XCTest
@testable import APISupport
@testable import APIJSON
@testable import APITargets

/// Issue 36: `mock --validate` reads nested `deepObject` values (`?filter[owner][id]=3`, the qs
/// convention) and parameters given by `content:` (a media type's text, JSON parsed) instead of
/// `schema:`. Before, the first was read as the property `owner][id` and the second not at all.
final class ParameterContentTests: XCTestCase {
    private static let description = """
        openapi: 3.0.3
        info: { title: content, version: "1" }
        paths:
          /search/{where}:
            get:
              operationId: search
              parameters:
                - name: filter
                  in: query
                  style: deepObject
                  explode: true
                  schema: { $ref: "#/components/schemas/Filter" }
                - name: q
                  in: query
                  required: true
                  content:
                    application/json:
                      schema: { type: object, required: [a], properties: { a: { type: integer } } }
                - name: where
                  in: path
                  required: true
                  content: { application/json: { schema: { type: array, items: { type: string } } } }
                - name: X-Note
                  in: header
                  content: { text/plain: { schema: { type: string, maxLength: 5 } } }
              responses: { "200": { description: ok } }
        components:
          schemas:
            Filter:
              type: object
              required: [owner]
              properties:
                status: { type: string }
                owner:
                  allOf:
                    - type: object
                      required: [id]
                      properties: { id: { type: integer }, tags: { type: object, properties: { n: { type: number } } } }
        """

    private func expectation() throws -> SchemaExpectation {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("content-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try Self.description.write(to: dir.appendingPathComponent("openapi.yaml"), atomically: true, encoding: .utf8)
        let doc = try OpenAPIContract.document("openapi.yaml", folder: dir.path).get()
        return try OpenAPIContract.load(doc, written: "openapi.yaml", operation: "search", folder: dir.path).get()
    }

    private func request(_ query: Substring, where captured: String = #"["a","b"]"#, note: String? = nil) -> RequestParameter.Request {
        RequestParameter.Request(query: query, captures: ["where": captured], headers: note.map { [(name: "X-Note", value: $0)] } ?? [])
    }

    private func value(_ name: String, _ e: SchemaExpectation, _ r: RequestParameter.Request) -> String? {
        e.parameters.first { $0.name == name }?.value(in: r)??.jsonText
    }

    private func refused(_ e: SchemaExpectation, _ r: RequestParameter.Request) -> [String] {
        e.parameterViolations(r).flatMap { v in v.violations.map { "\(v.parameter.name): \($0.message)" } }
    }

    func testNestedDeepObjectIsReadAsNestedObjects() throws {
        let e = try expectation()
        let r = request("filter[owner][id]=3&filter%5Bowner%5D%5Btags%5D%5Bn%5D=1.5&filter[status]=open&q=%7B%22a%22:1%7D")
        XCTAssertEqual(value("filter", e, r), #"{"owner":{"id":3,"tags":{"n":1.5}},"status":"open"}"#)
        XCTAssertEqual(refused(e, r), [])
        // a nested value of the wrong type, and a nested required property missing, are named
        XCTAssertEqual(refused(e, request("filter[owner][id]=x&q={\"a\":1}")).count, 1)
        XCTAssertEqual(refused(e, request("filter[owner][tags][n]=1&q={\"a\":1}")).count, 1, "owner.id is required")
        XCTAssertEqual(refused(e, request("filter[status]=open&q={\"a\":1}")).count, 1, "owner is required")
    }

    func testContentParametersAreTheirMediaTypesText() throws {
        let e = try expectation()
        XCTAssertEqual(Set(e.parameters.map(\.name)), ["filter", "q", "where", "X-Note"])
        let good = request("filter[owner][id]=1&q=%7B%22a%22%3A1%7D", note: "hello")
        XCTAssertEqual(value("q", e, good), #"{"a":1}"#)
        XCTAssertEqual(value("where", e, good), #"["a","b"]"#)
        XCTAssertEqual(value("X-Note", e, good), #""hello""#)
        XCTAssertEqual(refused(e, good), [])
        XCTAssertEqual(refused(e, request("filter[owner][id]=1&q={\"a\":\"x\"}")).count, 1)
        XCTAssertEqual(refused(e, request("filter[owner][id]=1&q=notjson")), ["q: is not JSON (the parameter's content is application/json)"])
        XCTAssertEqual(refused(e, request("filter[owner][id]=1")), ["q: is required and missing"])
        XCTAssertEqual(refused(e, request("filter[owner][id]=1&q={\"a\":1}", where: "[1]")).count, 1, "path: an array of strings")
        XCTAssertEqual(refused(e, request("filter[owner][id]=1&q={\"a\":1}", note: "too long")).count, 1, "header: text/plain, maxLength 5")
    }
}
