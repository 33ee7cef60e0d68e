import XCTest
@testable import APIJSON
@testable import APISchema
@testable import APITargets

/// Each dialect's own rules, chosen by `$schema` (or by the kind of document), on a real
/// SchemaStore schema and on the OpenAPI 3.x and Swagger 2.0 dialects.
final class SchemaDialectTests: XCTestCase {
    private func json(_ text: String) -> JSONValue { JSONValue.parse(Data(text.utf8))! }

    /// SchemaStore's GitHub workflow schema (draft-07: tuple `items` + `additionalItems`,
    /// `dependencies`, `if`/`then`) loads the way `expect: schema: { file: }` loads it, and judges
    /// SchemaStore's own workflow files as Python jsonschema's Draft7Validator does.
    func testSchemaStoreDraft07WorkflowSchema() throws {
        let folder = Fixtures.path("schemastore")
        let doc = try OpenAPIContract.document("github-workflow.json", folder: folder).get()
        XCTAssertEqual(doc.dialect, .draft2020, "a schema file's default; its $schema picks draft-07")
        let schema = try JSONSchema(document: doc.value, pointer: "", uri: "file://" + doc.path, dialect: doc.dialect,
                                    loader: OpenAPIContract.fileLoader(root: folder))
        var judged = 0
        for kind in ["valid", "invalid"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + kind).filter { $0.hasSuffix(".yaml") }.sorted()
            XCTAssertGreaterThan(names.count, 15, kind)
            for name in names {
                let instance = try OpenAPIContract.document(kind + "/" + name, folder: folder).get().value
                let violations = schema.violations(of: instance)
                if kind == "valid" {
                    XCTAssertEqual(violations.map(\.description), [], name)
                } else {
                    XCTAssertFalse(violations.isEmpty, "\(name) must break the schema")
                }
                judged += 1
            }
        }
        XCTAssertEqual(judged, 57)
        // the tuple form of `runs-on` (draft-07 `items: [..]` + `additionalItems`) is applied, not refused
        let job = #"{"on": "push", "jobs": {"build": {"runs-on": RUNS, "steps": [{"run": "make"}]}}}"#
        XCTAssertTrue(schema.isValid(json(job.replacing("RUNS", with: #"["self-hosted", "linux"]"#))))
        XCTAssertFalse(schema.isValid(json(job.replacing("RUNS", with: #"["self-hosted", 3]"#))))
        XCTAssertFalse(schema.isValid(json(job.replacing("RUNS", with: "[]"))))
    }

    func testDialectByDollarSchema() throws {
        let uris: [(String, SchemaDialect)] = [
            ("http://json-schema.org/draft-04/schema#", .draft4), ("http://json-schema.org/draft-06/schema", .draft6),
            ("https://json-schema.org/draft-07/schema#", .draft7), ("https://json-schema.org/draft/2019-09/schema", .draft2019),
            ("https://json-schema.org/draft/2020-12/schema", .draft2020), ("http://swagger.io/v2/schema.json#/definitions/schema", .swagger2),
            ("https://spec.openapis.org/oas/3.0/schema/2021-09-28#/definitions/Schema", .openAPI30),
            ("https://spec.openapis.org/oas/3.1/dialect/base", .openAPI31), ("http://example.com/mine", .draft2020),
        ]
        for (uri, dialect) in uris { XCTAssertEqual(SchemaDialect.from(uri) ?? .draft2020, dialect, uri) }
        for dialect in SchemaDialect.allCases { XCTAssertEqual(SchemaDialect.from(dialect.uri), dialect) }
        XCTAssertEqual(SchemaDialect.default(for: json(#"{"swagger": "2.0"}"#)), .swagger2)
        XCTAssertEqual(SchemaDialect.default(for: json(#"{"openapi": "3.0.3"}"#)), .openAPI30)
        XCTAssertEqual(SchemaDialect.default(for: json(#"{"openapi": "3.1.0"}"#)), .openAPI31)
        XCTAssertEqual(SchemaDialect.default(for: json(#"{"openapi": "3.1.0", "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema"}"#)), .draft2020)
        XCTAssertEqual(SchemaDialect.default(for: json(#"{"type": "object"}"#)), .draft2020)

        // the same keywords, read by each draft's rules
        let tuple = #"{"$schema": "DIALECT", "items": [{"type": "integer"}], "additionalItems": false}"#
        for s in ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema"] {
            let schema = try JSONSchema(json(tuple.replacing("DIALECT", with: s)))
            XCTAssertTrue(schema.isValid(json("[1]")), s)
            XCTAssertFalse(schema.isValid(json("[1, 2]")), s)
        }
        XCTAssertThrowsError(try JSONSchema(json(tuple.replacing("DIALECT", with: "https://json-schema.org/draft/2020-12/schema"))))
        let sibling = ##"{"$schema": "DIALECT", "definitions": {"n": {"type": "integer"}}, "$ref": "#/definitions/n", "maximum": 3}"##
        XCTAssertTrue(try JSONSchema(json(sibling.replacing("DIALECT", with: "http://json-schema.org/draft-07/schema#"))).isValid(json("5")))
        XCTAssertFalse(try JSONSchema(json(sibling.replacing("DIALECT", with: "https://json-schema.org/draft/2019-09/schema"))).isValid(json("5")))
        let dependencies = #"{"$schema": "DIALECT", "dependencies": {"a": ["b"]}}"#
        XCTAssertFalse(try JSONSchema(json(dependencies.replacing("DIALECT", with: "http://json-schema.org/draft-07/schema#"))).isValid(json(#"{"a": 1}"#)))
        XCTAssertTrue(try JSONSchema(json(dependencies.replacing("DIALECT", with: "https://json-schema.org/draft/2019-09/schema"))).isValid(json(#"{"a": 1}"#)))
        let conditional = #"{"$schema": "DIALECT", "if": {"const": 1}, "then": false}"#
        XCTAssertFalse(try JSONSchema(json(conditional.replacing("DIALECT", with: "http://json-schema.org/draft-07/schema#"))).isValid(json("1")))
        XCTAssertTrue(try JSONSchema(json(conditional.replacing("DIALECT", with: "http://json-schema.org/draft-06/schema#"))).isValid(json("1")))
        let exclusive = #"{"$schema": "DIALECT", "minimum": 1, "exclusiveMinimum": true}"#
        XCTAssertFalse(try JSONSchema(json(exclusive.replacing("DIALECT", with: "http://json-schema.org/draft-04/schema#"))).isValid(json("1")))
        XCTAssertFalse(try JSONSchema(json(#"{"$schema": "http://json-schema.org/draft-06/schema#", "exclusiveMinimum": 1}"#)).isValid(json("1")))
    }

    /// A resource embedded with its own `$id` and `$schema` follows its own dialect (2019-09 and later).
    func testEmbeddedResourceWithItsOwnSchema() throws {
        let schema = try JSONSchema(json(##"""
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "tuple.json",
             "$defs": {"t": {"$id": "tuple.json", "$schema": "http://json-schema.org/draft-07/schema#",
                             "items": [{"type": "string"}], "additionalItems": false}}}
            """##), uri: "https://example.com/root.json")
        XCTAssertTrue(schema.isValid(json(#"["a"]"#)))
        XCTAssertFalse(schema.isValid(json(#"["a", "b"]"#)))
        XCTAssertFalse(schema.isValid(json("[1]")))
    }

    /// `readOnly`/`writeOnly` are asserted by direction only in OpenAPI's dialects.
    func testReadOnlyAndWriteOnlyOnlyWhereADialectGivesThemADirection() throws {
        let text = #"{"type": "object", "required": ["id", "secret"], "properties": {"id": {"readOnly": true}, "secret": {"writeOnly": true}}}"#
        let request = SchemaOptions(direction: .request), response = SchemaOptions(direction: .response)
        for dialect in [SchemaDialect.draft7, .draft2019, .draft2020] {
            let s = try JSONSchema(json(text), dialect: dialect)
            XCTAssertTrue(s.isValid(json(#"{"id": 1, "secret": "s"}"#), options: request), "\(dialect)")
            XCTAssertTrue(s.isValid(json(#"{"id": 1, "secret": "s"}"#), options: response), "\(dialect)")
            XCTAssertFalse(s.isValid(json(#"{"secret": "s"}"#), options: request), "\(dialect): required stays required")
        }
        for dialect in [SchemaDialect.openAPI30, .openAPI31] {
            let s = try JSONSchema(json(text), dialect: dialect)
            XCTAssertEqual(s.violations(of: json(#"{"id": 1, "secret": "s"}"#), options: request).map(\.keyword), ["readOnly"], "\(dialect)")
            XCTAssertEqual(s.violations(of: json(#"{"id": 1, "secret": "s"}"#), options: response).map(\.keyword), ["writeOnly"], "\(dialect)")
            XCTAssertTrue(s.isValid(json(#"{"secret": "s"}"#), options: request), "\(dialect)")
            XCTAssertTrue(s.isValid(json(#"{"id": 1}"#), options: response), "\(dialect)")
        }
        // Swagger 2.0 knows readOnly only
        let swagger = try JSONSchema(json(text), dialect: .swagger2)
        XCTAssertEqual(swagger.violations(of: json(#"{"id": 1, "secret": "s"}"#), options: request).map(\.keyword), ["readOnly"])
        XCTAssertTrue(swagger.isValid(json(#"{"id": 1, "secret": "s"}"#), options: response))
    }

    /// Swagger 2.0's Schema Object: `x-nullable`, `type: file`, a string `discriminator` naming a
    /// definition that inherits the schema through `allOf`.
    func testSwagger2Dialect() throws {
        let doc = json(##"""
            {"swagger": "2.0", "definitions": {
              "Pet": {"type": "object", "discriminator": "petType", "required": ["name", "petType"],
                      "properties": {"name": {"type": "string"}, "petType": {"type": "string"},
                                     "tag": {"type": "string", "x-nullable": true}}},
              "Cat": {"allOf": [{"$ref": "#/definitions/Pet"},
                                {"type": "object", "properties": {"huntingSkill": {"type": "string", "enum": ["lazy", "aggressive"]}}}]},
              "Lion": {"allOf": [{"$ref": "#/definitions/Cat"}, {"properties": {"mane": {"type": "boolean"}}}]},
              "Dog": {"type": "object", "properties": {"petType": {"type": "string"}}},
              "Upload": {"type": "file"}}}
            """##)
        let dialect = SchemaDialect.default(for: doc)
        XCTAssertEqual(dialect, .swagger2)
        let pet = try JSONSchema(document: doc, pointer: "/definitions/Pet", dialect: dialect)
        XCTAssertTrue(pet.isValid(json(#"{"name": "Tom", "petType": "Cat", "huntingSkill": "lazy", "tag": null}"#)))
        XCTAssertTrue(pet.isValid(json(#"{"name": "Rex", "petType": "Pet"}"#)))
        XCTAssertEqual(pet.violations(of: json(#"{"name": "Tom", "petType": "Cat", "huntingSkill": "sleepy"}"#)).map(\.keyword), ["enum"])
        XCTAssertEqual(pet.violations(of: json(#"{"name": "Nemo", "petType": "Fish"}"#)).map(\.keyword), ["discriminator"])
        // an heir at any remove is named; a definition that does not inherit Pet is not
        XCTAssertEqual(pet.violations(of: json(#"{"name": "Leo", "petType": "Lion", "mane": 1}"#)).map(\.keyword), ["type"])
        XCTAssertEqual(pet.violations(of: json(#"{"name": "Rex", "petType": "Dog"}"#)).map(\.keyword), ["discriminator"])
        let cat = try JSONSchema(document: doc, pointer: "/definitions/Cat", dialect: dialect)
        XCTAssertTrue(cat.isValid(json(#"{"name": "Tom", "petType": "Cat"}"#)))
        XCTAssertTrue(try JSONSchema(document: doc, pointer: "/definitions/Upload", dialect: dialect).isValid(json(#""bytes""#)))
        // the same document read as plain draft 4: `x-nullable` is an unknown keyword
        let plain = try JSONSchema(document: doc, pointer: "/definitions/Pet", dialect: .draft4)
        XCTAssertFalse(plain.isValid(json(#"{"name": "Tom", "petType": "Cat", "tag": null}"#)))
        XCTAssertTrue(plain.isValid(json(#"{"name": "Nemo", "petType": "Fish"}"#)))
        // stated by `$schema`
        let stated = try JSONSchema(json(#"{"$schema": "http://swagger.io/v2/schema.json#/definitions/schema", "type": "string", "x-nullable": true}"#))
        XCTAssertTrue(stated.isValid(.null))
    }
}
