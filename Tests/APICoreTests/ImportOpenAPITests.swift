import XCTest
@testable import APIYAML
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APIImport

/// The OpenAPI model's edges: `$ref` cycles and dead ends, recursion in schemas, names.
final class ImportOpenAPITests: XCTestCase {
    private func run(_ files: [String: String], main: String = "spec.yaml") throws(APIError) -> ImportResult {
        let read = { (path: String) throws(APIError) -> [UInt8] in
            guard let text = files[path] else { throw .invalid(Diagnostic(file: nil, mark: nil, message: "no such file")) }
            return Array(text.utf8)
        }
        return try OpenAPIImport(options: .init(), readFile: read).run(ImportInput(name: main, bytes: read(main)))
    }

    func testRefCyclesAndDeadEndsAreWarningsWithTheirPlace() throws {
        // GIVEN references that loop, point nowhere, or name a missing file
        let result = try run(["spec.yaml": """
            openapi: 3.0.0
            info: { title: T }
            paths:
              /a:
                get:
                  parameters:
                    - $ref: "#/components/parameters/Loop"
                    - $ref: "#/components/parameters/Missing"
                    - $ref: "other.yaml#/P"
                  responses:
                    '200':
                      description: ok
                      content: { application/json: { schema: { $ref: "#/components/schemas/Self" } } }
            components:
              parameters:
                Loop: { $ref: "#/components/parameters/Loop2" }
                Loop2: { $ref: "#/components/parameters/Loop" }
              schemas:
                Self:
                  type: object
                  required: [me, n]
                  properties: { me: { $ref: "#/components/schemas/Self" }, n: { type: integer } }

            """])
        XCTAssertEqual(result.warnings.map(\.description), [
            "spec.yaml:1:1: warning: no servers: baseURL is http://localhost; set it, or pass --base-url when calling",
            "spec.yaml:17:12: warning: $ref '#/components/parameters/Loop' refers back to itself",
            "spec.yaml:8:11: warning: $ref '#/components/parameters/Missing' points at nothing in spec.yaml",
            "spec.yaml:9:11: warning: $ref 'other.yaml#/P': cannot read other.yaml: no such file",
            "spec.yaml:13:50: warning: the sample built from the schema at spec.yaml:13:50 breaks it (write an example there): $: required property \"me\" is missing (#/components/schemas/Self) [required]; the sample is written without a body (and no expect: schema:)",
        ])
        // THEN the recursive schema's sample stops instead of recursing, and the partial sample
        // (no value satisfies a schema that requires itself) is judged by it and not written
        XCTAssertEqual(result.draft.targets[0].sample, .map([]))
    }

    func testUndeclaredPlaceholdersGetValuesAndWarnings() throws {
        // GIVEN a server variable and a path placeholder that the description never declares
        let result = try run(["spec.yaml": """
            openapi: 3.0.0
            info: { title: Edge }
            servers: [{ url: "https://{tenant}.edge.example.com" }]
            paths:
              /a/{id}:
                get:
                  responses: { '200': { description: ok } }

            """])
        // THEN both still work (a variable, a default) and say so
        XCTAssertEqual(result.draft.baseURL, "https://${EDGE_TENANT}.edge.example.com")
        XCTAssertEqual(result.draft.targets[0].params, [.pair("id", .string("id"))])
        XCTAssertEqual(result.warnings.map(\.description), [
            "spec.yaml:3:11: warning: server variable {tenant} is not declared; it is written as ${EDGE_TENANT}",
            "spec.yaml:7:7: warning: path /a/{id} has {id} but no path parameter 'id'; its default is written as id",
        ])
    }

    func testJSONAsLibyamlReadsIt() throws {
        // GIVEN JSON written compactly (no space after ':'), with escapes, and indented with tabs
        let compact = #"{"openapi":"3.1.0","info":{"title":"x"},"servers":[{"url":"https:\/\/x.example.com"}],"paths":{"/a":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"example":{"a":1e3,"b":[true,null],"c":"\u00e9"}}}}}}}}}"#
        let tabs = "{\n\t\"openapi\": \"3.0.0\",\n\t\"info\": {\n\t\t\"title\": \"tabs\"\n\t},\n\t\"paths\": {\n\t\t\"/a\": {\"get\": {\"responses\": {}}}\n\t}\n}\n"
        // THEN both import, numbers kept as written and strings unescaped
        let c = try run(["spec.yaml": compact])
        XCTAssertEqual(c.draft.baseURL, "https://x.example.com")
        XCTAssertEqual(c.draft.targets[0].sample, .map([.pair("json", .map([
            .pair("a", .number("1e3")), .pair("b", .list([.bool(true), .null])), .pair("c", .string("é"))]))]))
        XCTAssertEqual(try run(["spec.yaml": tabs]).draft.targets.map(\.name), ["getA"])
    }

    func testNames() {
        XCTAssertEqual(ImportNames.lowerCamel("list-pets_by ID"), "listPetsByID")
        XCTAssertEqual(ImportNames.fromRoute("GET", "/pets/{petId}/toys"), "getPetsByPetIdToys")
        XCTAssertEqual(ImportNames.service("Swagger Petstore (v2)"), "swagger-petstore-v2")
        XCTAssertEqual(ImportNames.placeholder("1st id"), "_1st_id")
        var taken = UniqueNames(["a"])
        XCTAssertEqual(taken.claim("a"), "a2")
    }
}

/// `Template.escaping`: what an importer writes expands back to the text it was given.
final class TemplateEscapingTests: XCTestCase {
    func testEscapedTextExpandsToItself() throws {
        let bindings = Bindings(params: ["id": "X", "name": "Y"], environment: ["HOME": "/root", "A": "a"])
        for text in ["${HOME}", "{id}", "{{name}}", "$${A}", "$$${A}", "${{}", "{+id}", "a{id}b${A}c", "${", "{", "}", "$",
                     "${A:-{id}}", "{code}{", "{id", "price: ${{}} {}", "ünï{id}cødé", ""] {
            let escaped = Template.escaping(text)
            let t = Template(escaped, mark: Mark(line: 1, column: 1))
            XCTAssertEqual(try bindings.expand(t, in: "test", file: nil), text, escaped)
            XCTAssertEqual(try bindings.expand(t, in: "test", file: nil, unresolved: .keep), text, escaped)
            XCTAssertEqual(t.placeholders, [], escaped)
        }
        // AND `${{}` is a literal brace wherever it stands
        let t = Template("${{}id} {id}", mark: Mark(line: 1, column: 1))
        XCTAssertEqual(try bindings.expand(t, in: "test", file: nil), "{id} X")
        XCTAssertEqual(t.references, ["{id}"])
        XCTAssertEqual(Template("$${A} ${{}x} ${B:-1}", mark: Mark(line: 1, column: 1)).references, ["${B}"])
    }
}
