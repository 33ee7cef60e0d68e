import Foundation
import XCTest

/// A generated description with thousands of operations: it imports, and the file it writes loads.
final class ImportLargeSpecTests: XCTestCase {
    /// `paths` paths, each with a GET (path and query parameters, a `$ref`'d response schema built
    /// with `allOf`) and a POST (a JSON body example, a named error example); 50 shared schemas.
    static func spec(paths: Int) -> String {
        var s = "openapi: 3.0.3\ninfo: { title: Large, version: \"1\" }\nservers: [{ url: \"https://large.example.com\" }]\npaths:\n"
        for i in 0..<paths {
            s += """
                  /resources\(i)/{id}:
                    parameters:
                      - { name: id, in: path, required: true, schema: { type: integer, example: \(i) } }
                    get:
                      operationId: getResource\(i)
                      summary: Resource \(i)
                      parameters:
                        - { name: fields, in: query, required: true, schema: { type: string, enum: [all, some] } }
                        - { name: limit, in: query, schema: { type: integer, default: 10 } }
                      responses:
                        '200':
                          description: ok
                          content: { application/json: { schema: { $ref: "#/components/schemas/Model\(i % 50)" } } }
                    post:
                      operationId: postResource\(i)
                      requestBody:
                        content: { application/json: { example: { name: "n\(i)", tags: [a, b], nested: { deep: true } } } }
                      responses:
                        '201': { description: created }
                        '400':
                          description: bad
                          content: { application/json: { examples: { invalid: { value: { code: 400 } } } } }

                """
        }
        s += "components:\n  schemas:\n    Base: { type: object, required: [id], properties: { id: { type: integer } } }\n"
        for m in 0..<50 {
            s += "    Model\(m):\n      allOf:\n        - $ref: \"#/components/schemas/Base\"\n"
            s += "        - { type: object, required: [name\(m)], properties: { name\(m): { type: string, format: email } } }\n"
        }
        return s
    }

    func testThousandsOfOperationsImportAndLoad() throws {
        // GIVEN a description of 2,000 paths (4,000 operations, about 2.6 MB)
        let dir = try CLI.folder(["large.yaml": Self.spec(paths: 2000)])
        defer { try? FileManager.default.removeItem(at: dir) }
        // WHEN it is imported
        let r = try CLI.run(["import", "openapi", "large.yaml"], cwd: dir, timeout: 120)
        // THEN every operation is a target, with one warning (no expect: schema: past 500 operations), and the file validates
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "large.yaml: warning: the description has 4000 operations, more than 500: no expect: schema: written\n"
                       + "apicli: wrote targets/large.yaml (4000 targets, 1 warning)\n")
        let text = try String(contentsOf: dir.appendingPathComponent("targets/large.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("""
              getResource1999:
                doc: Resource 1999
                path: /resources1999/{id}
                params: { id: 1999 }
                task:
                  query:
                    fields: all
                    # limit: 10   # optional
                expect:
                  status: 200
                  headers: { Content-Type: "~json" }
                  json: { "$.id": { exists: true }, "$.name49": { exists: true } }
                sample: { json: { id: 0, name49: "user@example.com" } }

            """), String(text.suffix(1500)))
        let v = try CLI.run(["validate"], cwd: dir, timeout: 120)
        XCTAssertEqual(v.code, 0, v.stderr)
        XCTAssertEqual(v.stdout, "ok: 1 file, 4000 targets, 6000 samples\n")
    }
}
