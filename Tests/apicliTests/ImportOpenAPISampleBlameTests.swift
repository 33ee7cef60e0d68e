import Foundation
import XCTest

/// Issue 36: a sample `import openapi` built from a schema and that schema's judgement of it. When
/// the import cannot build one the schema accepts (here `contains`, which it does not construct
/// for), the warning names that schema's place, not "the description's example"; a stated example
/// that breaks its schema is still the description's.
final class ImportOpenAPISampleBlameTests: FolderTestCase {
    func testABrokenBuiltSampleNamesItsSchemaNotTheExample() throws {
        let spec = """
            openapi: 3.1.0
            info: { title: Built, version: "1" }
            servers: [{ url: "https://api.example.com" }]
            paths:
              /numbers:
                get:
                  operationId: listNumbers
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: { type: array, items: { type: integer }, contains: { const: 5 } }
              /stated:
                get:
                  operationId: stated
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: { type: array, items: { type: integer } }
                          example: ["x"]
            """
        let dir = try folder(["spec.yaml": spec])
        let r = try CLI.run(["import", "openapi", "spec.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("operation 'listNumbers': no expect: schema: written, the sample built from the schema at spec.yaml:13:23 breaks it (write an example there): $: has 0 items matching contains"), r.stderr)
        XCTAssertFalse(r.stderr.contains("operation 'listNumbers': no expect: schema: written, the description's example"), r.stderr)
        XCTAssertTrue(r.stderr.contains("operation 'stated': no expect: schema: written, the description's example (the sample) breaks its schema: $[0]"), r.stderr)
        // AND the file written validates (the broken sample keeps no schema: reference)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }
}
