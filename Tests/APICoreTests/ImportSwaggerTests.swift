import XCTest
@testable import APIYAML
@testable import APIDiagnostics
@testable import APITargets
@testable import APIImport

/// Swagger 2.0 → the OpenAPI 3.0 shape (`Swagger2`): a 2.0 description and its 3.0 form give the
/// same targets; warnings keep the 2.0 file's positions. And OpenAPI 3.2's additions.
final class ImportSwaggerTests: XCTestCase {
    private func run(_ text: String, tags: [String] = []) throws(APIError) -> ImportResult {
        try OpenAPIImport(options: .init(tags: tags), readFile: { (_: String) throws(APIError) -> [UInt8] in
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "no such file"))
        }).run(ImportInput(name: "spec.yaml", text: text))
    }

    static let swagger = """
        swagger: "2.0"
        info: { title: Shop, version: "1" }
        host: shop.example.com
        basePath: /v1
        schemes: [https, http]
        consumes: [application/json]
        produces: [application/json]
        securityDefinitions:
          key: { type: apiKey, in: header, name: X-Key }
          oauth:
            type: oauth2
            flow: accessCode
            authorizationUrl: https://auth.example.com/authorize
            tokenUrl: https://auth.example.com/token
            scopes: { read: read things }
        security: [{ oauth: [read] }]
        parameters:
          limit: { name: limit, in: query, type: integer, required: true, x-example: 5 }
        paths:
          /pets/{id}:
            parameters:
              - { name: id, in: path, required: true, type: string, x-example: p1 }
            get:
              operationId: getPet
              parameters:
                - $ref: "#/parameters/limit"
                - { name: tags, in: query, required: true, type: array, items: { type: string }, x-example: [a, b] }
                - { name: ids, in: query, required: true, type: array, collectionFormat: multi, items: { type: integer }, x-example: [1, 2] }
                - { name: X-Trace, in: header, required: true, type: string, x-example: t1 }
              responses:
                "200":
                  description: ok
                  schema: { $ref: "#/definitions/Pet" }
                  examples:
                    application/json: { name: Rex, tag: null }
            put:
              operationId: putPet
              security: [{ key: [] }]
              parameters:
                - { name: pet, in: body, required: true, schema: { $ref: "#/definitions/Pet" } }
              responses:
                "204": { description: done }
          /pets/{id}/photo:
            post:
              operationId: addPhoto
              consumes: [multipart/form-data]
              parameters:
                - { name: id, in: path, required: true, type: string }
                - { name: note, in: formData, required: true, type: string, x-example: hi }
                - { name: file, in: formData, required: true, type: file }
              responses:
                "200": { description: ok }
        definitions:
          Pet:
            type: object
            required: [name]
            properties:
              name: { type: string }
              tag: { type: string, x-nullable: true }

        """

    static let openapi = """
        openapi: 3.0.3
        info: { title: Shop, version: "1" }
        servers:
          - { url: https://shop.example.com/v1, description: https }
          - { url: http://shop.example.com/v1, description: http }
        security: [{ oauth: [read] }]
        paths:
          /pets/{id}:
            parameters:
              - { name: id, in: path, required: true, schema: { type: string }, example: p1 }
            get:
              operationId: getPet
              parameters:
                - $ref: "#/components/parameters/limit"
                - { name: tags, in: query, required: true, schema: { type: array, items: { type: string } }, style: form, explode: false, example: [a, b] }
                - { name: ids, in: query, required: true, schema: { type: array, items: { type: integer } }, style: form, explode: true, example: [1, 2] }
                - { name: X-Trace, in: header, required: true, schema: { type: string }, example: t1 }
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Pet" }
                      example: { name: Rex, tag: null }
            put:
              operationId: putPet
              security: [{ key: [] }]
              requestBody:
                required: true
                content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } }
              responses:
                "204": { description: done }
          /pets/{id}/photo:
            post:
              operationId: addPhoto
              parameters:
                - { name: id, in: path, required: true, schema: { type: string } }
              requestBody:
                required: true
                content:
                  multipart/form-data:
                    schema:
                      type: object
                      required: [note, file]
                      properties:
                        note: { type: string, example: hi }
                        file: { type: string, format: binary }
              responses:
                "200": { description: ok }
        components:
          parameters:
            limit: { name: limit, in: query, required: true, schema: { type: integer }, example: 5 }
          securitySchemes:
            key: { type: apiKey, in: header, name: X-Key }
            oauth:
              type: oauth2
              flows:
                authorizationCode:
                  authorizationUrl: https://auth.example.com/authorize
                  tokenUrl: https://auth.example.com/token
                  scopes: { read: read things }
          schemas:
            Pet:
              type: object
              required: [name]
              properties:
                name: { type: string }
                tag: { type: string, nullable: true }

        """

    func testASwagger2DescriptionAndItsOpenAPI3FormGiveTheSameTargets() throws {
        // GIVEN the same API as Swagger 2.0 and as OpenAPI 3.0
        var two = try run(Self.swagger).draft
        var three = try run(Self.openapi).draft
        // THEN the files differ only in the header naming the version
        XCTAssertEqual(two.header.first, "Imported from spec.yaml (Swagger 2.0) by apicli import openapi.")
        two.header = []
        three.header = []
        XCTAssertEqual(two.text, three.text)
        XCTAssertEqual(two.targets.count, 3)
        // and what the conversion had to get right is there
        XCTAssertTrue(two.text.contains("baseURL: https://shop.example.com/v1"), two.text)
        XCTAssertTrue(two.text.contains(#"query: { limit: 5, tags: "a,b", ids: [1, 2] }, arrays: noBrackets"#), two.text)
        XCTAssertTrue(two.text.contains(#"refreshToken: "${SHOP_REFRESH_TOKEN}""#), two.text)
        XCTAssertTrue(two.text.contains("sample: { json: { name: Rex, tag: null } }"), two.text)
        XCTAssertTrue(two.text.contains(#"task: { multipart: [{ name: note, value: hi }, { name: file, value: "" }] }"#), two.text)
    }

    func testWarningsPointAtTheSwaggerFile() throws {
        // GIVEN a Swagger 2.0 parameter whose collectionFormat OpenAPI 3 has no style for, and a bad header name
        let result = try run("""
            swagger: "2.0"
            info: { title: T }
            host: t.example.com
            paths:
              /a:
                get:
                  parameters:
                    - { name: ids, in: query, required: true, type: array, items: { type: string }, collectionFormat: tsv }
                    - { name: "bad header", in: header, required: true, type: string }
                  responses: { "200": { description: ok } }

            """)
        // THEN each warning names the line and column of the Swagger file
        XCTAssertEqual(result.warnings.map(\.description), [
            "spec.yaml:1:1: warning: no schemes: https assumed for host t.example.com",
            "spec.yaml:8:107: warning: collectionFormat 'tsv' of parameter 'ids' has no OpenAPI 3 style in the query; sent comma-separated",
            "spec.yaml:9:11: warning: header name 'bad header' is not a valid header name; the header is left out",
        ])
    }

    func testBrokenSwaggerIsWarnedAboutNotATrap() throws {
        // GIVEN parts of the wrong kind everywhere, a body without schema, unknown OAuth2 flows, cycles
        let result = try run("""
            swagger: "2.0"
            paths: { /a: { get: { parameters: [5, { in: body }, { $ref: "#/parameters/nope" }, { $ref: "#/parameters/p" }], responses: { "200": { schema: 5, examples: 3, headers: 4 } } } } }
            securityDefinitions: { a: 5, b: { type: oauth2, flow: weird } }
            security: [{ b: [] }]
            definitions: 5
            parameters: { p: { $ref: "#/parameters/p" } }

            """)
        XCTAssertEqual(result.draft.targets.map(\.name), ["getA"])
        let warnings = result.warnings.map(\.description)
        for expected in ["spec.yaml:2:39: warning: body parameter '?' has no schema: (Swagger 2.0 requires one); its body is built from nothing",
                         "spec.yaml:3:33: warning: OAuth2 flow 'weird' is not a Swagger 2.0 flow (implicit, password, application, accessCode)",
                         "spec.yaml:2:53: warning: $ref '#/components/parameters/nope' points at nothing in spec.yaml"] {
            XCTAssertTrue(warnings.contains(expected), "\(warnings)")
        }
    }

    func testOnlySwagger2IsRead() {
        XCTAssertThrowsError(try run("swagger: \"1.2\"\ninfo: { title: T }\npaths: {}\n")) { error in
            XCTAssertTrue("\(error)".contains("Swagger 1.2 is not supported"), "\(error)")
        }
    }

    func testOpenAPI32Additions() throws {
        // GIVEN a 3.2 description with the query method, an additional operation, a querystring
        // parameter, a media type $ref with itemSchema, dataValue examples, the device flow and tag parents
        let result = try run("""
            openapi: 3.2.0
            $self: https://example.com/api/openapi
            info: { title: New }
            servers: [{ url: https://new.example.com }]
            tags:
              - { name: pets, kind: nav }
              - { name: cats, parent: pets }
            security: [{ device: [read] }]
            paths:
              /pets:
                query:
                  operationId: findPets
                  tags: [cats]
                  parameters:
                    - name: q
                      required: true
                      in: querystring
                      content:
                        application/x-www-form-urlencoded:
                          schema: { type: object }
                          examples: { one: { dataValue: { color: red, n: 2 } } }
                  responses:
                    "200":
                      description: ok
                      content:
                        application/jsonl: { $ref: "#/components/mediaTypes/Pets" }
                additionalOperations:
                  COPY:
                    operationId: copyPets
                    tags: [other]
                    responses: { "204": { description: done } }
                  get:
                    responses: { "204": { description: done } }
            components:
              mediaTypes:
                Pets:
                  itemSchema: { type: object, required: [name], properties: { name: { type: string, example: Tom } } }
              securitySchemes:
                device:
                  type: oauth2
                  flows: { deviceAuthorization: { deviceAuthorizationUrl: https://new.example.com/device, tokenUrl: https://new.example.com/token, scopes: { read: read } } }

            """)
        let targets = result.draft.targets
        XCTAssertEqual(targets.map(\.name), ["findPets", "copyPets"])
        XCTAssertEqual(targets.map(\.method), ["QUERY", "COPY"])
        XCTAssertTrue(result.draft.text.contains(#"task: { query: { color: red, "n": 2 } }"#), result.draft.text)
        XCTAssertTrue(result.draft.text.contains(#"expect: { status: 200, headers: { Content-Type: "~application/jsonl" } }"#), result.draft.text)
        XCTAssertTrue(result.draft.text.contains(#"sample: { headers: { Content-Type: application/jsonl }, body: "{\"name\":\"Tom\"}\n" }"#), result.draft.text)
        XCTAssertTrue(result.draft.text.contains(#"auth: { bearer: "${NEW_TOKEN}" }"#), result.draft.text)
        XCTAssertTrue(result.draft.text.contains("deviceAuthorization flow: https://new.example.com/token"), result.draft.text)
        let warnings = result.warnings.map(\.description)
        XCTAssertTrue(warnings.contains("spec.yaml:2:8: warning: $self is not used for $refs (only for relative server URLs): they are read relative to the file (https://example.com/api/openapi names no file read)"), "\(warnings)")
        XCTAssertTrue(warnings.contains("spec.yaml:32:7: warning: additional operation 'get' is not imported: its method has a fixed field of the Path Item (use that)"), "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("itemSchema gives one item") }, "\(warnings)")
        // AND --tags pets takes its child tag cats, not copyPets's other
        XCTAssertEqual(try run(result.draft.text.isEmpty ? "" : Self.tagged, tags: ["pets"]).draft.targets.map(\.name), ["a"])
    }

    func testA32WebhookMayBeAnAdditionalOperation() throws {
        let result = try run("""
            openapi: 3.2.0
            info: { title: Hooks }
            webhooks:
              purge:
                additionalOperations:
                  PURGE: { operationId: purgeCache, responses: { "204": { description: done } } }

            """)
        XCTAssertEqual(result.webhooks?.targets.map(\.name), ["purgeCache"])
        XCTAssertEqual(result.webhooks?.targets.map(\.method), ["PURGE"])
    }

    static let tagged = """
        openapi: 3.2.0
        info: { title: T }
        tags: [{ name: pets }, { name: cats, parent: pets }]
        paths:
          /a: { get: { operationId: a, tags: [cats], responses: { "204": { description: x } } } }
          /b: { get: { operationId: b, tags: [dogs], responses: { "204": { description: x } } } }

        """

    func testAPathItemInAnotherFileAFormAndAnOperationsOwnSchemes() throws {
        // GIVEN a path item in another file (with a body parameter), a form without consumes, and an
        // operation whose schemes differ from the description's
        let files = [
            "spec.yaml": """
                swagger: "2.0"
                info: { title: Parts }
                host: p.example.com
                schemes: [https]
                paths:
                  /orders: { $ref: "orders.yaml" }
                  /login:
                    post:
                      operationId: login
                      schemes: [http]
                      parameters:
                        - { name: user, in: formData, required: true, type: string, x-example: ann }
                      responses: { "204": { description: ok } }

                """,
            "orders.yaml": """
                post:
                  operationId: addOrder
                  parameters:
                    - { name: order, in: body, required: true, schema: { type: object, required: [id], properties: { id: { type: integer, example: 7 } } } }
                  responses: { "201": { description: made } }

                """,
        ]
        let read = { (path: String) throws(APIError) -> [UInt8] in
            guard let text = files[path] else { throw .invalid(Diagnostic(file: nil, mark: nil, message: "no such file")) }
            return Array(text.utf8)
        }
        let result = try OpenAPIImport(options: .init(), readFile: read).run(ImportInput(name: "spec.yaml", bytes: read("spec.yaml")))
        // THEN the other file's body parameter is the JSON body, the form is urlencoded
        XCTAssertEqual(result.draft.targets.map(\.name), ["addOrder", "login"])
        XCTAssertTrue(result.draft.text.contains("task: { json: { id: 7 } }"), result.draft.text)
        XCTAssertTrue(result.draft.text.contains("task: { form: { user: ann } }"), result.draft.text)
        // AND the operation's own scheme is a warning at its line
        XCTAssertEqual(result.warnings.map(\.description), [
            "spec.yaml:10:16: warning: servers http://p.example.com of operation 'login' are not imported (nor of any other path or operation listing them); the service's baseURL applies",
        ])
    }

    func testAnotherFilesDefinitionsAreConvertedToo() throws {
        // GIVEN a Swagger 2.0 description whose schema and parameter live in another file
        let files = [
            "spec.yaml": """
                swagger: "2.0"
                info: { title: Multi }
                host: m.example.com
                schemes: [https]
                paths:
                  /pets:
                    get:
                      operationId: listPets
                      parameters: [{ $ref: "defs.yaml#/parameters/limit" }]
                      responses:
                        "200": { description: ok, schema: { type: array, items: { $ref: "defs.yaml#/definitions/Pet" } } }

                """,
            "defs.yaml": """
                definitions:
                  Pet:
                    type: object
                    required: [name, kind]
                    properties:
                      name: { type: string, example: Rex }
                      kind: { type: string, x-nullable: true, example: dog }
                parameters:
                  limit: { name: limit, in: query, required: true, type: integer, x-example: 3 }

                """,
        ]
        let read = { (path: String) throws(APIError) -> [UInt8] in
            guard let text = files[path] else { throw .invalid(Diagnostic(file: nil, mark: nil, message: "no such file")) }
            return Array(text.utf8)
        }
        let result = try OpenAPIImport(options: .init(), readFile: read).run(ImportInput(name: "spec.yaml", bytes: read("spec.yaml")))
        // THEN the $refs reach the converted file: the parameter's x-example and the schema's examples
        XCTAssertEqual(result.warnings.map(\.description), [])
        XCTAssertTrue(result.draft.text.contains("task: { query: { limit: 3 } }"), result.draft.text)
        XCTAssertTrue(result.draft.text.contains("sample: { json: [{ name: Rex, kind: dog }] }"), result.draft.text)
        // AND the other file, as written for the contract copy, is OpenAPI 3.0's
        let defs = try XCTUnwrap(result.converted["defs.yaml"])
        let text = YAMLWriter.document(YAMLOut(defs))
        XCTAssertTrue(text.contains("components:"), text)
        XCTAssertTrue(text.contains("nullable: true"), text)
        XCTAssertFalse(text.contains("x-nullable"), text)
    }
}
