import XCTest
@testable import APIJSON
@testable import APISchema
@testable import APITransport
@testable import APIImport

/// The validator's own promises beyond the official suite: exact decimals, messages naming
/// instance path, keyword and schema path, bounded work, the OpenAPI 3.0 dialect.
final class JSONSchemaTests: XCTestCase {
    private func json(_ text: String) -> JSONValue { JSONValue.parse(Data(text.utf8))! }
    private func schema(_ text: String, dialect: SchemaDialect = .draft2020) throws -> JSONSchema {
        try JSONSchema(json(text), dialect: dialect)
    }

    func testMultipleOfIsExactInDecimal() throws {
        let s = try schema(##"{"multipleOf": 0.01}"##)
        XCTAssertTrue(s.isValid(json("19.99")))  // 19.99 / 0.01 in Double is 1998.9999999999998
        XCTAssertTrue(s.isValid(json("0.07")))
        XCTAssertFalse(s.isValid(json("19.995")))
        XCTAssertEqual(s.violations(of: json("19.995")).first?.keyword, "multipleOf")
    }

    func testViolationNamesInstancePathSchemaPathAndKeyword() throws {
        let doc = json(##"{"components":{"schemas":{"Item":{"type":"object","properties":{"price":{"type":"number","minimum":1}}},"## +
                       ##""List":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/components/schemas/Item"}}}}}}}"##)
        let s = try JSONSchema(document: doc, pointer: "/components/schemas/List", dialect: .openAPI30)
        let v = s.violations(of: json(##"{"items":[{"price":2},{"price":3},{"price":5},{"price":0}]}"##))
        XCTAssertEqual(v.map(\.description), ["$.items[3].price: 0 is below minimum 1 (#/components/schemas/Item/properties/price)"])
        XCTAssertEqual(v.first?.keyword, "minimum")
        XCTAssertEqual(v.first?.expected, ">= 1")
        XCTAssertEqual(v.first?.got, "0")
    }

    func testNestedOneOfOverSharedRefsIsBounded() throws {
        // 30 levels of oneOf whose two branches share the next level: 2^30 paths without a bound
        var defs: [String] = []
        for i in 0..<30 { defs.append(##""l\##(i)":{"oneOf":[{"$ref":"#/$defs/l\##(i + 1)"},{"$ref":"#/$defs/l\##(i + 1)"}]}"##) }
        defs.append(##""l30":{"type":"integer"}"##)
        let s = try schema(##"{"$ref":"#/$defs/l0","$defs":{"## + defs.joined(separator: ",") + "}}")
        let start = Date()
        let v = s.violations(of: json("1"), options: SchemaOptions(maxSteps: 100_000))
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertFalse(v.isEmpty)
        XCTAssertTrue(v.contains { $0.message.contains("validation stopped") }, v.map(\.description).joined(separator: "\n"))
    }

    func testReferenceLoopWithoutProgressFailsInsteadOfCrashing() throws {
        let s = try schema(##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##)
        XCTAssertTrue(s.violations(of: json("1")).contains { $0.message.contains("deeper") })
    }

    func testOpenAPI30NullableReadOnlyAndDiscriminator() throws {
        let doc = json(##"""
            {"openapi":"3.0.3","components":{"schemas":{
              "Pet":{"type":"object","required":["id","kind"],"discriminator":{"propertyName":"kind"},
                     "oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],
                     "properties":{"id":{"type":"integer","readOnly":true},"name":{"type":"string","nullable":true}}},
              "Cat":{"type":"object","properties":{"lives":{"type":"integer","maximum":9}}},
              "Dog":{"type":"object","properties":{"lives":{"type":"integer","maximum":1}}}}}}
            """##)
        let pet = try JSONSchema(document: doc, pointer: "/components/schemas/Pet", dialect: .openAPI30)
        XCTAssertTrue(pet.isValid(json(##"{"id":1,"kind":"Cat","name":null,"lives":7}"##)))
        XCTAssertEqual(pet.violations(of: json(##"{"id":1,"kind":"Dog","lives":7}"##)).map(\.keyword), ["maximum"])
        XCTAssertEqual(pet.violations(of: json(##"{"id":1,"kind":"Fish"}"##)).map(\.keyword), ["discriminator"])
        // a request must not send the read-only id, and need not
        let request = SchemaOptions(direction: .request)
        XCTAssertTrue(pet.isValid(json(##"{"kind":"Cat"}"##), options: request))
        XCTAssertEqual(pet.violations(of: json(##"{"id":3,"kind":"Cat"}"##), options: request).map(\.keyword), ["readOnly"])
    }

    func testFormatsAreAnnotationsUnlessAsserted() throws {
        let s = try schema(##"{"type":"string","format":"date-time"}"##)
        XCTAssertTrue(s.isValid(json(##""yesterday""##)))
        XCTAssertFalse(s.isValid(json(##""yesterday""##), options: SchemaOptions(assertFormats: true)))
        XCTAssertTrue(s.isValid(json(##""2024-02-29T12:00:00Z""##), options: SchemaOptions(assertFormats: true)))
        XCTAssertFalse(s.isValid(json(##""2023-02-29T12:00:00Z""##), options: SchemaOptions(assertFormats: true)))
    }

    func testBadSchemasAreRefusedWithTheirLocation() {
        XCTAssertThrowsError(try schema(##"{"properties":{"a":{"minLength":-1}}}"##)) { error in
            XCTAssertEqual((error as? SchemaError)?.location, "#/properties/a/minLength")
        }
        XCTAssertThrowsError(try schema(##"{"$ref":"#/$defs/missing"}"##))
        XCTAssertThrowsError(try schema(##"{"pattern":"(unclosed"}"##))
    }

    func testTheTimeLimitStopsTheWorkInPlace() throws {
        let s = try schema(##"{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}}"##)
        let items = Array(repeating: "1", count: 400_000).joined(separator: ",")
        let start = Date()
        let v = s.violations(of: json("[" + items + "]"), options: SchemaOptions(timeLimit: 0.001))
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        XCTAssertEqual(v.first?.keyword, "timeLimit", "\(v.prefix(2))")
    }
}
