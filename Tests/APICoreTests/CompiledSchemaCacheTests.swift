import XCTest
@testable import APISupport
@testable import APIJSON
@testable import APISchema
@testable import APITargets
@testable import APIImport

/// Issue 36 (import speed): every schema node of an OpenAPI description is compiled once per
/// description, however many operations reach it (a shared component) and however often an
/// operation is loaded (the import loads each operation, then decodes the file it wrote, which
/// loads each again). Before: each operation compiled its components anew, every operation twice.
final class CompiledSchemaCacheTests: XCTestCase {
    /// `count` operations, each answering a `$ref` to one shared component (and a small schema of its own).
    private static func description(operations count: Int, extra: String = "") -> String {
        var paths = ""
        for i in 0..<count {
            paths += """
                  /things/\(i):
                    get:
                      operationId: op\(i)
                      responses:
                        "200":
                          description: ok
                          content: { application/json: { schema: { $ref: "#/components/schemas/Shared" } } }
                        "404":
                          description: no
                          content: { application/json: { schema: { type: object, properties: { error: { type: string } } } } }

                """
        }
        return """
            openapi: 3.0.3
            info: { title: shared, version: "1" }
            paths:
            \(paths)\(extra)
            components:
              schemas:
                Shared:
                  type: object
                  required: [id]
                  properties:
                    id: { type: string }
                    tags: { type: array, items: { $ref: "#/components/schemas/Tag" } }
                    owner: { allOf: [{ $ref: "#/components/schemas/Tag" }, { type: object }] }
                Tag:
                  type: object
                  properties: { name: { type: string, maxLength: 20 } }
            """
    }

    private func folder(_ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("compiled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        try text.write(to: dir.appendingPathComponent("openapi.yaml"), atomically: true, encoding: .utf8)
        return dir.path
    }

    private func root(_ e: SchemaExpectation, _ status: String) -> SchemaNode? {
        e.schemas.first { $0.status == status }?.schema.root
    }

    func testSharedComponentsAreCompiledOnceForEveryOperation() throws {
        let dir = try folder(Self.description(operations: 40))
        let doc = try OpenAPIContract.document("openapi.yaml", folder: dir).get()
        var loaded: [SchemaExpectation] = []
        for round in 0..<2 {  // the import's load, then its check of the file it wrote
            for i in 0..<40 {
                let e = try OpenAPIContract.load(doc, written: "openapi.yaml", operation: "op\(i)", folder: dir).get()
                if round == 0 { loaded.append(e) } else {
                    XCTAssertTrue(root(e, "200") === root(loaded[i], "200"), "op\(i) loaded twice compiled its schema twice")
                }
            }
        }
        // the $ref of every operation's 200 leads to the one compiled Shared
        let shared = try XCTUnwrap(root(loaded[0], "200")?.ref)
        for e in loaded.dropFirst() { XCTAssertTrue(root(e, "200")?.ref === shared) }
        XCTAssertEqual(shared.location, "#/components/schemas/Shared")
        let counts = doc.compiled.counts
        XCTAssertEqual(counts.compiled, counts.distinct, "a schema node was compiled more than once")
        // per operation: the 200 media schema, the 404 schema and its property (3); shared: Shared,
        // id, tags, its items, owner, owner's two allOf parts, Tag, name (9)
        XCTAssertEqual(counts.distinct, 40 * 3 + 9)
    }

    /// A compile that fails adds nothing to the cache: loading the operation again fails again
    /// (no half-built node passes for a good one), and the other operations are unaffected.
    func testAFailedCompileLeavesNothingBehind() throws {
        let bad = """
              /broken:
                get:
                  operationId: broken
                  responses:
                    "200":
                      description: ok
                      content: { application/json: { schema: { type: object, properties: { tag: { $ref: "#/components/schemas/Tag" }, x: { $ref: "#/components/schemas/Nowhere" } } } } }

            """
        let dir = try folder(Self.description(operations: 2, extra: bad))
        let doc = try OpenAPIContract.document("openapi.yaml", folder: dir).get()
        for _ in 0..<2 {
            guard case .failure(let e) = OpenAPIContract.load(doc, written: "openapi.yaml", operation: "broken", folder: dir) else {
                return XCTFail("an operation whose $ref resolves nowhere loaded")
            }
            XCTAssertTrue(e.message.contains("Nowhere"), e.message)
        }
        XCTAssertEqual(doc.compiled.counts.distinct, 0)
        let good = try OpenAPIContract.load(doc, written: "openapi.yaml", operation: "op1", folder: dir).get()
        XCTAssertTrue(try XCTUnwrap(root(good, "200")?.ref).properties["tags"] != nil)
    }

    /// `TargetFile.decode(…, documents:)` (how `import openapi` checks the file it wrote) uses the
    /// description it is given: the targets' schemas are the nodes the import compiled.
    func testTheImportsCheckReusesTheDescriptionItRead() throws {
        let dir = try folder(Self.description(operations: 3))
        let doc = try OpenAPIContract.document("openapi.yaml", folder: dir).get()
        let first = try OpenAPIContract.load(doc, written: "openapi.yaml", operation: "op2", folder: dir).get()
        let file = """
            baseURL: http://127.0.0.1:9
            targets:
              t:
                path: /things/2
                expect: { schema: { openapi: openapi.yaml, operation: op2 } }
            """
        let service = try TargetFile.decode(Array(file.utf8), file: dir + "/svc.yaml", defaultName: "svc", documents: ["openapi.yaml": doc])
        let decoded = try XCTUnwrap(service.targets.first?.expect?.schema)
        XCTAssertTrue(root(decoded, "200") === root(first, "200"))
        XCTAssertEqual(doc.compiled.counts.compiled, doc.compiled.counts.distinct)
    }

    /// `import openapi` parses a description file once more only when a `$ref` in it may name another file.
    func testOnlyLocalReferencesIsConservative() {
        func local(_ s: String) -> Bool { ImportContracts.onlyLocalReferences(Array(s.utf8)) }
        XCTAssertTrue(local(##"{"a": {"$ref": "#/components/schemas/A"}, "b": {"$ref" : '#/x'}, "d": "a \"quoted\" \n text"}"##))
        XCTAssertTrue(local("a:\n  $ref: '#/components/schemas/A'\nb: { $ref: \"#/x\" }\n"))
        XCTAssertTrue(local("no references at all, a $ sign"))
        XCTAssertFalse(local("prose about $refs"))  // unsure: parsed
        XCTAssertFalse(local(##"{"$ref": "other.yaml#/A"}"##))
        XCTAssertFalse(local("a:\n  $ref: ./paths/a.yaml\n"))
        XCTAssertFalse(local(#"{"\u0024ref": "other.yaml"}"#))
        XCTAssertFalse(local("a: { \"\\x24ref\": other.yaml }"))
        XCTAssertFalse(local("a:\n  $ref: >-\n    other.yaml\n"))
    }
}

/// The one-pass JSON Pointer unescaping reads as two `replacing`s did (`~1` first, then `~0`).
final class PointerUnescapeTests: XCTestCase {
    func testSameAsReplacing() {
        for token in ["a", "~0", "~1", "~01", "~10", "~~1", "a~", "~", "~2", "x~1y~0z", "é~1ü", "~0~1~0~1"] {
            XCTAssertEqual(SchemaURI.unescape(Substring(token)), token.replacing("~1", with: "/").replacing("~0", with: "~"), token)
        }
    }
}
