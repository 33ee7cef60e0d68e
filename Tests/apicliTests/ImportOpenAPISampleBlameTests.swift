import Foundation
import XCTest

/// Issue 36: a sample `import openapi` built from a schema and that schema's judgement of it. When
/// the import cannot build one the schema accepts (here `contains`, which it does not construct
/// for), the warning names that schema's place, not "the description's example"; a stated example
/// that breaks its schema is still the description's.
final class ImportOpenAPISampleBlameTests: FolderTestCase {
    func testABrokenBuiltSampleNamesItsSchemaNotTheExample() throws {
        let spec = Self.spec([
            ("/numbers", "listNumbers", "{ type: array, items: { type: integer }, contains: { const: 5 } }", nil),
            ("/stated", "stated", "{ type: array, items: { type: integer } }", "[\"x\"]"),
        ])
        let dir = try folder(["spec.yaml": spec])
        let r = try CLI.run(["import", "openapi", "spec.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("spec.yaml:13:23: warning: the sample built from the schema at spec.yaml:13:23 breaks it (write an example there): $: has 0 items matching contains"), r.stderr)
        XCTAssertTrue(r.stderr.contains("the sample is written without a body (and no expect: schema:)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("operation 'listNumbers': no expect: schema: written, the description's example"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "breaks it (").count, 2, r.stderr)  // said once
        XCTAssertTrue(r.stderr.contains("spec.yaml:23:24: warning: the description's example (the sample) breaks its schema: $[0]"), r.stderr)
        // AND the file written validates (the broken sample keeps no schema: reference)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }

    /// The built sample is judged by its schema when it is built, whatever the import writes to:
    /// on standard output (no `expect: schema:` references, no judging after the write) the
    /// warning still names the schema's place, and the broken sample is not written.
    func testABrokenBuiltSampleIsJudgedWhenBuiltEvenOnStandardOutput() throws {
        let spec = Self.spec([
            ("/numbers", "listNumbers", "{ $ref: \"#/components/schemas/Fives\" }", nil),
            ("/fine", "fine", "{ type: array, items: { type: integer }, minItems: 2 }", nil),
        ], components: "Fives: { type: array, items: { type: integer, minimum: 0 }, contains: { const: 5 } }")
        let dir = try folder(["spec.yaml": spec])
        let r = try CLI.run(["import", "openapi", "spec.yaml", "-o", "-"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("spec.yaml:13:23: warning: the sample built from the schema at spec.yaml:13:23 breaks it (write an example there): $: has 0 items matching contains"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "breaks it (").count, 2, r.stderr)  // only the broken one
        // The target written has its sample without the broken body; the good one keeps its built sample
        XCTAssertFalse(r.stdout.contains("json: [0]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("sample: { json: [0, 0] }"), r.stdout)
        XCTAssertTrue(r.stdout.contains("# No sample body: the sample built from the schema at spec.yaml:13:23 breaks it"), r.stdout)
        // AND what was written checks: its samples meet their targets' expectations
        try r.stdout.write(to: dir.appendingPathComponent("built.yaml"), atomically: true, encoding: .utf8)
        let v = try CLI.run(["validate", "built.yaml"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }

    /// Past 500 operations (no `expect: schema:` references, so nothing is judged after the write)
    /// the built sample is judged all the same.
    func testABrokenBuiltSampleIsJudgedInADescriptionOfMoreThan500Operations() throws {
        let many = (1...500).map { ("/fine\($0)", "fine\($0)", "{ type: integer, minimum: 3 }", String?.none) }
        let spec = Self.spec([("/numbers", "listNumbers", "{ type: array, items: { type: integer }, contains: { const: 5 } }", nil)] + many)
        let dir = try folder(["spec.yaml": spec])
        let r = try CLI.run(["import", "openapi", "spec.yaml", "-o", "built.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("more than 500: no expect: schema: written"), r.stderr)
        XCTAssertTrue(r.stderr.contains("spec.yaml:13:23: warning: the sample built from the schema at spec.yaml:13:23 breaks it (write an example there)"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "breaks it (").count, 2, r.stderr)
        let written = try String(contentsOf: dir.appendingPathComponent("built.yaml"), encoding: .utf8)
        XCTAssertFalse(written.contains("json: [0]"), String(written.prefix(2000)))
        XCTAssertTrue(written.contains("sample: { json: 3 }"), String(written.prefix(2000)))
    }

    /// The description's own examples are judged by their status's schema when they are chosen,
    /// whatever the import writes to: on standard output (no references, nothing judged after the
    /// write) an `example:` that breaks its schema, one that breaks a `$ref`'d schema and a named
    /// example under `examples:` each get a warning at the example's place, naming the violation.
    /// The examples are written as the description gives them.
    func testTheDescriptionsOwnExamplesAreJudgedWhenChosenEvenOnStandardOutput() throws {
        let dir = try folder(["spec.yaml": Self.examplesSpec])
        let r = try CLI.run(["import", "openapi", "spec.yaml", "-o", "-"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        for expected in Self.examplesWarnings {
            XCTAssertTrue(r.stderr.contains(expected), expected + "\n--- stderr:\n" + r.stderr)
        }
        XCTAssertEqual(r.stderr.components(separatedBy: "breaks its schema").count, 5, r.stderr)  // each once; the good ones not
        XCTAssertTrue(r.stdout.contains("sample: { json: [x] }"), r.stdout)  // written as the description gives it
    }

    /// The same warnings, at the same places, when writing a file (once each: the after-write
    /// check does not say them again), and past 500 operations.
    func testTheDescriptionsOwnExamplesAreJudgedOnceInAFileAndPast500Operations() throws {
        let many = (1...498).map { "  /fine\($0):\n    get:\n      operationId: fine\($0)\n      responses:\n        \"204\": { description: none }\n" }
        let dir = try folder(["spec.yaml": Self.examplesSpec, "large.yaml": Self.examplesSpec.replacingOccurrences(of: "components:\n", with: many.joined() + "components:\n")])
        for (spec, out) in [("spec.yaml", "small.yaml"), ("large.yaml", "large-out.yaml")] {
            let r = try CLI.run(["import", "openapi", spec, "-o", out], cwd: dir)
            XCTAssertEqual(r.code, 0, r.stderr)
            for expected in Self.examplesWarnings {
                let here = expected.replacingOccurrences(of: "spec.yaml:", with: spec + ":")
                XCTAssertTrue(r.stderr.contains(here), here + "\n--- stderr:\n" + r.stderr)
            }
            XCTAssertEqual(r.stderr.components(separatedBy: "breaks its schema").count, 5, r.stderr)
            let written = try String(contentsOf: dir.appendingPathComponent(out), encoding: .utf8)
            XCTAssertEqual(written.contains("operation: errors }"), spec == "spec.yaml", written)  // no references past 500
            let v = try CLI.run(["validate", out], cwd: dir)
            XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
        }
    }

    /// A Swagger 2.0 description is judged the same way: its converted nodes keep the marks they
    /// came from, out of order (`definitions` before `paths` here), yet the example's schema is found.
    func testASwagger2ExampleIsJudgedWhenChosen() throws {
        let dir = try folder(["swagger.yaml": """
            swagger: "2.0"
            info: { title: S, version: "1" }
            host: api.example.com
            definitions:
              Count: { type: object, required: [count], properties: { count: { type: integer } } }
            paths:
              /c:
                get:
                  operationId: getC
                  produces: [application/json]
                  responses:
                    "200":
                      description: ok
                      schema: { $ref: "#/definitions/Count" }
                      examples:
                        application/json: { count: many }

            """])
        let r = try CLI.run(["import", "openapi", "swagger.yaml", "-o", "-"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("swagger.yaml:16:31: warning: the description's example (the sample) breaks its schema: $.count: \"many\" is string, not integer"), r.stderr)
    }

    /// A request body built from its schema is judged by it too (in the request direction): one it
    /// rejects is not sent — the target is written without a body, and a warning names the schema.
    func testABrokenBuiltRequestBodyIsNotWritten() throws {
        var spec = Self.spec([])
        for (path, id, schema) in [("/numbers", "postNumbers", "{ type: array, items: { type: integer }, contains: { const: 5 } }"),
                                   ("/fine", "postFine", "{ type: array, items: { type: integer, minimum: 2 }, minItems: 1 }")] {
            spec += "  \(path):\n    post:\n      operationId: \(id)\n      requestBody:\n        content:\n"
                + "          application/json:\n            schema: \(schema)\n      responses: { \"204\": { description: none } }\n"
        }
        let dir = try folder(["spec.yaml": spec])
        let r = try CLI.run(["import", "openapi", "spec.yaml", "-o", "-"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("spec.yaml:11:21: warning: the request body built from the schema at spec.yaml:11:21 breaks it (write an example there): $: has 0 items matching contains"), r.stderr)
        XCTAssertTrue(r.stderr.contains("; the target is written without a body"), r.stderr)
        XCTAssertFalse(r.stdout.contains("task: { json: [0] }"), r.stdout)
        XCTAssertTrue(r.stdout.contains("# No request body: the request body built from the schema at spec.yaml:11:21 breaks it"), r.stdout)
        XCTAssertTrue(r.stdout.contains("task: { json: [2] }"), r.stdout)  // the good one is sent
    }

    /// A HEAD response documented with a JSON schema: its sample has no body for the schema to
    /// judge, so the target gets no reference (a comment says why) — and no warning blames the example.
    func testAHeadOperationWithAJSONSchemaGetsNoReferenceAndNoWarning() throws {
        let spec = Self.spec([("/h", "headH", "{ type: object, properties: { a: { type: integer } } }", "{ a: 1 }")])
        let dir = try folder(["spec.yaml": spec.replacingOccurrences(of: "    get:", with: "    head:")])
        let r = try CLI.run(["import", "openapi", "spec.yaml", "-o", "t.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("warning:"), r.stderr)
        let written = try String(contentsOf: dir.appendingPathComponent("t.yaml"), encoding: .utf8)
        XCTAssertTrue(written.contains("# No expect: schema: a HEAD response has no body for the schema at spec.yaml:13:23 to judge."), written)
        let v = try CLI.run(["validate", "t.yaml"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }

    /// Three operations whose examples break their schemas (inline, through a `$ref`, a named one),
    /// and one whose 404 example breaks the 404 schema.
    static let examplesSpec = spec([
        ("/inline", "inline", "{ type: array, items: { type: integer } }", "[\"x\"]"),
        ("/viaRef", "viaRef", count, "{ count: many }"),
        ("/named", "named", count + "\n              examples: { good: { value: { count: 1 } }, bad: { value: { count: -1 } } }", nil),
        ("/errors", "errors", count, "{ count: 2 }\n        \"404\": { description: missing, content: { application/json: { schema: \(count), example: { count: none } } } }"),
    ], components: "Count: { type: object, required: [count], properties: { count: { type: integer, minimum: 0 } } }")
    static let count = "{ $ref: \"#/components/schemas/Count\" }"

    /// What each broken example is told, at its own place.
    static let examplesWarnings = [
        "spec.yaml:14:24: warning: the description's example (the sample) breaks its schema: $[0]",
        "spec.yaml:24:24: warning: the description's example (the sample) breaks its schema: $.count",
        "spec.yaml:34:72: warning: the description's example (sample 'bad') breaks its schema: $.count",
        // a sample expected to fail (another status) is judged by its own status's schema; its target keeps the reference
        "spec.yaml:45:128: warning: the description's example (sample '404') breaks its schema: $.count: \"none\" is string, not integer"
            + " (#/components/schemas/Count/properties/count) [type]; it is written as given (expectFailure)",
    ]

    /// A description whose operations answer 200 with JSON of `schema` (and `example`, when given);
    /// the first operation's schema is at line 13, column 23.
    static func spec(_ operations: [(path: String, id: String, schema: String, example: String?)], components: String? = nil) -> String {
        var lines = [
            "openapi: 3.1.0",
            "info: { title: Built, version: \"1\" }",
            "servers: [{ url: \"https://api.example.com\" }]",
            "paths:",
        ]
        for op in operations {
            lines += [
                "  \(op.path):", "    get:", "      operationId: \(op.id)", "      responses:", "        \"200\":",
                "          description: ok", "          content:", "            application/json:", "              schema: \(op.schema)",
            ]
            if let example = op.example { lines.append("              example: \(example)") }
        }
        if let components { lines += ["components:", "  schemas:", "    " + components] }
        return lines.joined(separator: "\n") + "\n"
    }
}
