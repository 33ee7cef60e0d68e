import XCTest
@testable import APISupport
@testable import APIJSON
@testable import APITargets

/// Issue 36: `mock --validate` reads every parameter style OpenAPI 3 defines ("Style Values"):
/// each style's writing of a primitive, an array and an object is read back to the JSON value the
/// schema judges, and a request written so is accepted.
final class ParameterStyleTests: XCTestCase {
    private static let description = """
        openapi: 3.0.3
        info: { title: styles, version: "1" }
        paths:
          /p/{simple}/{label}/{matrix}/{labelx}/{matrixx}/{matrixo}:
            get:
              operationId: styles
              parameters:
                - { name: simple, in: path, required: true, schema: { type: array, items: { type: integer } } }
                - { name: label, in: path, required: true, style: label, schema: { type: array, items: { type: integer } } }
                - { name: matrix, in: path, required: true, style: matrix, schema: { type: array, items: { type: integer } } }
                - { name: labelx, in: path, required: true, style: label, explode: true, schema: { $ref: "#/components/schemas/Color" } }
                - { name: matrixx, in: path, required: true, style: matrix, explode: true, schema: { type: array, items: { type: integer } } }
                - { name: matrixo, in: path, required: true, style: matrix, schema: { $ref: "#/components/schemas/Color" } }
                - { name: person, in: query, required: true, schema: { $ref: "#/components/schemas/Person" } }
                - { name: color, in: query, explode: false, schema: { $ref: "#/components/schemas/Color" } }
                - { name: filter, in: query, style: deepObject, schema: { $ref: "#/components/schemas/Color" } }
                - { name: spaced, in: query, style: spaceDelimited, explode: false, schema: { type: array, items: { type: integer } } }
                - { name: piped, in: query, style: pipeDelimited, explode: false, schema: { type: array, items: { type: integer } } }
                - { name: X-Ids, in: header, required: true, schema: { type: array, items: { type: integer } } }
                - { name: X-Color, in: header, explode: true, schema: { $ref: "#/components/schemas/Color" } }
                - { name: Accept, in: header, required: true, schema: { type: integer } }
                - { name: session, in: cookie, required: true, schema: { type: integer } }
              responses:
                "200": { description: ok }
        components:
          schemas:
            Person:
              type: object
              required: [name, age]
              properties: { name: { type: string }, age: { type: integer, minimum: 0 } }
            Color:
              type: object
              properties: { R: { type: integer }, G: { type: integer } }
        """

    private func expectation() throws -> SchemaExpectation {
        try Self.load(Self.description, operation: "styles", in: self)
    }

    /// The schemas of `operation` in `description` (written to a folder `test` removes).
    static func load(_ description: String, operation: String, in test: XCTestCase) throws -> SchemaExpectation {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("styles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try description.write(to: dir.appendingPathComponent("openapi.yaml"), atomically: true, encoding: .utf8)
        let doc = try OpenAPIContract.document("openapi.yaml", folder: dir.path).get()
        return try OpenAPIContract.load(doc, written: "openapi.yaml", operation: operation, folder: dir.path).get()
    }

    private let captures = ["simple": "3,4", "label": ".3,4", "matrix": ";matrix=3,4", "labelx": ".R=1.G=2",
                            "matrixx": ";matrixx=3;matrixx=4", "matrixo": ";matrixo=R,1,G,2"]
    private let headers = [(name: "x-ids", value: "1,2"), (name: "X-Color", value: "R=1,G=2"), (name: "Cookie", value: "a=b; session=7")]

    private func value(_ name: String, _ e: SchemaExpectation, query: Substring = "", headers: [(name: String, value: String)]? = nil) -> String? {
        let p = e.parameters.first { $0.name == name }!
        let request = RequestParameter.Request(query: query, captures: captures, headers: headers ?? self.headers)
        let others = Set(e.parameters.filter { $0.place == .query && $0.name != name }.map(\.name))
        return p.value(in: request, others: others)??.jsonText
    }

    func testEveryStyleIsReadToTheValueItWrites() throws {
        let e = try expectation()
        XCTAssertEqual(value("simple", e), "[3,4]")
        XCTAssertEqual(value("label", e), "[3,4]")
        XCTAssertEqual(value("matrix", e), "[3,4]")
        XCTAssertEqual(value("labelx", e), #"{"R":1,"G":2}"#)
        XCTAssertEqual(value("matrixx", e), "[3,4]")
        XCTAssertEqual(value("matrixo", e), #"{"R":1,"G":2}"#)
        XCTAssertEqual(value("person", e, query: "name=x&age=3&color=R,1"), #"{"name":"x","age":3}"#, "form, exploded object")
        XCTAssertEqual(value("color", e, query: "color=R,1,G,2"), #"{"R":1,"G":2}"#, "form, object not exploded")
        XCTAssertEqual(value("filter", e, query: "filter%5BR%5D=1&filter[G]=2&R=9"), #"{"R":1,"G":2}"#, "deepObject")
        XCTAssertEqual(value("spaced", e, query: "spaced=1%202"), "[1,2]")
        XCTAssertEqual(value("piped", e, query: "piped=1|2"), "[1,2]")
        XCTAssertEqual(value("X-Ids", e), "[1,2]", "a header's name has no case")
        XCTAssertEqual(value("X-Color", e), #"{"R":1,"G":2}"#)
        XCTAssertEqual(value("session", e), "7")
        XCTAssertNil(e.parameters.first { $0.name == "Accept" }, "OpenAPI: a header parameter named Accept is ignored")
    }

    func testARequestInEveryStyleIsAcceptedAndABadOneNamesItsParameter() throws {
        let e = try expectation()
        let good = RequestParameter.Request(query: "name=x&age=3&color=R,1,G,2&filter[R]=1&spaced=1%202&piped=1|2",
                                            captures: captures, headers: headers)
        XCTAssertTrue(e.parameterViolations(good).isEmpty, "\(e.parameterViolations(good).map { ($0.parameter.name, $0.violations) })")
        let bad = RequestParameter.Request(query: "name=x&age=-1&filter[R]=one&piped=1|x", captures: captures,
                                           headers: [(name: "X-Ids", value: "1,b")])
        let named = e.parameterViolations(bad).map { "\($0.parameter.place.rawValue) \($0.parameter.name)" }
        XCTAssertEqual(named, ["query person", "query filter", "query piped", "header X-Ids", "cookie session"])
    }
}

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
        try ParameterStyleTests.load(Self.description, operation: "search", in: self)
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
