import Foundation
import XCTest

/// `apicli import openapi`: the written files, their warnings, and that `validate`, `check --stub`
/// and `call --stub` accept every imported file.
final class ImportOpenAPICLITests: FolderTestCase {

    private func importSpec(_ spec: String, _ extra: [String] = [], into dir: URL) throws -> CLI.Result {
        try CLI.run(["import", "openapi", spec] + extra, cwd: dir)
    }

    func testPetstoreIsWrittenAsAPersonWouldWriteIt() throws {
        // GIVEN the petstore description and an empty folder
        let dir = try folder()
        // WHEN it is imported with the defaults
        let r = try importSpec(ImportFixtures.path("petstore.yaml"), into: dir)
        // THEN targets/<service from info.title>.yaml holds exactly this, and nothing was unmapped
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "apicli: wrote targets/swagger-petstore.yaml (4 targets, 0 warnings)\n")
        let text = try String(contentsOf: dir.appendingPathComponent("targets/swagger-petstore.yaml"), encoding: .utf8)
        XCTAssertEqual(text, Self.petstore)
        let env = ["SWAGGER_PETSTORE_API_KEY": "k"]
        try assertUsable(dir.appendingPathComponent("targets"), service: "swagger-petstore",
                         targets: ["listPets", "createPets", "showPetById", "getStoreInventory"], env: env)
    }

    static let petstore = """
        # yaml-language-server: $schema=.apicli-targets.schema.json
        # Imported from petstore.yaml (OpenAPI 3.0.3) by apicli import openapi.
        # Every operation is a target; samples come from the description's examples or schemas.
        # expect: schema: refers to a copy of petstore.yaml in swagger-petstore.openapi/; import again with --force to refresh it.
        service: swagger-petstore
        baseURL: http://petstore.example.com/v1
        doc: Swagger Petstore 1.0.0
        auth: { header: X-API-Key, value: "${SWAGGER_PETSTORE_API_KEY}" }
        x-import: { baseURL: "75b404d0", doc: "97e52776", auth: "182b8996" }
        targets:
          listPets:
            doc: List all pets
            path: /pets
            task:
              query: {}
                # limit: 20   # optional: How many items to return at one time (max 100)
            expect:
              status: 200
              headers: { Content-Type: "~json" }
              schema: { openapi: swagger-petstore.openapi/petstore.yaml, operation: listPets }
            sample: { json: [{ id: 0, name: string }] }
            samples: { default: { status: 500, json: { code: 500, message: boom }, expectFailure: true } }
            x-import:
              operation: listPets
              doc: "3272ff2a"
              path: "1792746b"
              task: { "": "7ec0a911", query: "6b9732f8" }
              expect: { "": "39a6a64d", status: "67e6c4a5", headers: "921e2199", schema: a01640b6 }
              sample: "912dbd96"
              samples: "225a9b99"

          createPets:
            doc: Create a pet
            method: POST
            path: /pets
            task: { json: { id: 10, name: doggie, tag: dog } }
            check: false
            expect:
              status: 201
              schema: { openapi: swagger-petstore.openapi/petstore.yaml, operation: createPets }
            sample: { status: 201 }
            x-import:
              operation: createPets
              doc: "75617065"
              method: e03acaec
              path: "1792746b"
              task: fa8d9004
              check: f64818b8
              expect: { "": "627ce9c6", status: "66e6c312", schema: "70b29ed6" }
              sample: "8bb14b64"

          showPetById:
            doc: Info for a specific pet
            path: /pets/{petId}
            params: { petId: "42" }
            expect:
              status: 200
              headers: { Content-Type: "~json" }
              json: { "$.id": { exists: true }, "$.name": { exists: true } }
              schema: { openapi: swagger-petstore.openapi/petstore.yaml, operation: showPetById }
            sample: { json: { id: 42, name: Tom, tag: cat } }
            samples:
              dog: { json: { id: 43, name: Rex } }
              notFound: { status: 404, json: { code: 404, message: no such pet }, expectFailure: true }
            x-import:
              operation: showPetById
              doc: fc641a70
              path: f43c146a
              params: "96c02d41"
              expect:
                "": ba3e0ce5
                status: "67e6c4a5"
                headers: "921e2199"
                json: cfdad4af
                schema: "55d68d88"
              sample: cc9f5395
              samples: { "": e87de88f, dog: a6eaeb27, notFound: ec677018 }

          getStoreInventory:
            doc: Returns pet inventories by status
            path: /store/inventory
            auth: none
            expect:
              status: 200
              headers: { Content-Type: "~json" }
              schema: { openapi: swagger-petstore.openapi/petstore.yaml, operation: GET /store/inventory }
            sample: { json: { available: 3, sold: 1 } }
            x-import:
              operation: GET /store/inventory
              doc: c30c2692
              path: "9fc41c09"
              auth: "7f16f383"
              expect: { "": "3dddcd82", status: "67e6c4a5", headers: "921e2199", schema: b48d0329 }
              sample: d176ff92

        """

    func testJSONDescriptionGivesTheSameFileAsYAML() throws {
        // GIVEN the petstore as JSON (read through the same libyaml layer)
        let dir = try folder()
        // WHEN both are imported to stdout
        let json = try importSpec(ImportFixtures.path("petstore.json"), ["-o", "-"], into: dir)
        let yaml = try importSpec(ImportFixtures.path("petstore.yaml"), ["-o", "-"], into: dir)
        // THEN only the comment line naming the spec's file differs (after the schema's modeline)
        XCTAssertEqual(json.code, 0, json.stderr)
        XCTAssertEqual(json.stdout.split(separator: "\n").dropFirst(2), yaml.stdout.split(separator: "\n").dropFirst(2))
        XCTAssertTrue(json.stdout.hasPrefix("# yaml-language-server: $schema=.apicli-targets.schema.json\n# Imported from petstore.json (OpenAPI 3.0.3)"), json.stdout)
    }

    func testEveryMappingAndItsWarnings() throws {
        // GIVEN a description using every mapping (server variables, several servers, $ref to another
        // file, allOf, oneOf, recursion, forms, multipart, text, bytes, four kinds of security)
        let dir = try folder()
        let spec = ImportFixtures.path("everything.yaml")
        // WHEN it is imported
        let r = try importSpec(spec, ["-o", "targets/everything.yaml"], into: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN what cannot be mapped is a warning with the spec's line and column
        XCTAssertEqual(r.stderr, """
            \(spec):13:5: warning: server url '/local' is not absolute; it is written as http://localhost/local
            \(spec):41:11: warning: cookie parameter 'session' is not imported; send it with -H
            \(spec):44:11: warning: header parameter 'Accept' is not imported: OpenAPI ignores it (content types and auth have their own keys)
            \(spec):89:15: warning: an example lacks the required field 'createdAt'; it is not expected
            \(spec):90:24: warning: the description's example (the sample) breaks its schema: $: required property "createdAt" is missing (#/components/schemas/Item/allOf/1) [required]; it is written as given, without expect: schema:
            \(spec):135:13: warning: no text example for the application/octet-stream body; the target sends an empty body
            apicli: wrote targets/everything.yaml (8 targets, 6 warnings)

            """)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/everything.yaml"), encoding: .utf8)
        for expected in [
            "baseURL: https://${EVERYTHING_API_REGION:-eu}.everything.example.com/${EVERYTHING_API_BASEPATH:-v2}\n",
            "  staging: { baseURL: \"https://staging.everything.example.com/v2\" }\n",
            "auth: { bearer: \"${EVERYTHING_API_TOKEN}\" }\n",
            "  getItem:\n    doc: Fetch one item (with its parts)\n    path: /items/{itemId}\n    params: { itemId: 17 }\n",
            "      X-Request-Id: \"3fa85f64-5717-4562-b3fc-2c963f66afa6\"\n      # X-Debug: \"1\"   # optional\n",
            "        expand: [parts]\n        # verbose: false   # optional\n      arrays: noBrackets\n",
            "        \"$.owner\": { exists: true }\n",
            "        owner: { email: \"user@example.com\" }\n",  // from common.yaml#/Owner
            "      \"4XX\":\n        status: 400\n        headers: { Content-Type: application/problem+json }\n",
            "  deleteItemsByItemId:\n    # Deprecated in the description.\n",
            "    auth: { basic: { user: \"${EVERYTHING_API_USER}\", password: \"${EVERYTHING_API_PASSWORD}\" } }\n",
            "    # Security scheme 'oauth': OAuth2 clientCredentials flow; apicli fetches, caches and refreshes the token.\n",
            "      oauth2:\n        tokenURL: https://auth.everything.example.com/token\n"
                + "        clientId: \"${EVERYTHING_API_CLIENT_ID}\"\n        clientSecret: \"${EVERYTHING_API_CLIENT_SECRET}\"\n"
                + "        scope: write\n        grant: client_credentials\n",
            "      duplicate:\n        status: 409\n        json: { code: 409, message: an item of that name exists }\n        expectFailure: true\n",
            "    task: { multipart: [{ name: caption, value: my photo }, { name: photo, value: \"\" }] }\n",
            "    # Part 'photo' is a file: send it with -F photo=@PATH.\n",
            "    sample: { headers: { Content-Type: text/plain }, body: stored }\n",
            "    task: { query: { api_key: \"${EVERYTHING_API_API_KEY}\" }, body: remember the milk }\n    auth: none\n    check: false\n",
            "    task: { body: \"\", contentType: application/octet-stream }\n",
            "    auth: none\n",
            "    sample: { json: { label: string, children: [] } }\n",  // recursion stops
            "    sample: { json: { radius: 0.0 } }\n",  // oneOf: the first alternative
            "      \"404\": { status: 404, json: { code: 404, message: not found }, expectFailure: true }\n",
        ] {
            XCTAssertTrue(text.contains(expected), "missing:\n\(expected)\nin:\n\(text)")
        }
        let env = ["EVERYTHING_API_TOKEN": "t", "EVERYTHING_API_USER": "u", "EVERYTHING_API_PASSWORD": "p",
                   "EVERYTHING_API_API_KEY": "k", "EVERYTHING_API_CLIENT_ID": "c", "EVERYTHING_API_CLIENT_SECRET": "s"]
        try assertUsable(dir.appendingPathComponent("targets"), service: "everything-api",
                         targets: ["getItem", "deleteItemsByItemId", "createItem", "uploadPhoto", "postNotes",
                                   "putNotes", "getTree", "getShapesById"], env: env)
    }

    func testOpenAPI31() throws {
        // GIVEN a 3.1 description (type lists, schema examples as a list, const, webhooks: a second file)
        let dir = try folder()
        let spec = ImportFixtures.path("spec31.yaml")
        let r = try importSpec(spec, into: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, """
            apicli: wrote targets/modern.yaml (2 targets, 0 warnings)
            apicli: wrote targets/modern-webhooks.yaml (1 target, 0 warnings)

            """)
        let hooks = try String(contentsOf: dir.appendingPathComponent("targets/modern-webhooks.yaml"), encoding: .utf8)
        XCTAssertTrue(hooks.contains("""
            baseURL: "${MODERN_WEBHOOK_URL:-http://localhost:8080}"
            doc: Modern webhooks
            x-import: { baseURL: "73f2af76", doc: c2163afe }
            targets:
              newThing:
                # Webhook 'newThing': the API sends this request to your receiver (baseURL).
                method: POST
                path: /newThing
                task: { json: {} }
                check: false
                expect: { status: 200 }
                sample: {}

            """), hooks)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/modern.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("    task: { query: { kind: gizmo } }\n"), text)
        XCTAssertTrue(text.contains("    params: { thingId: abc }\n"), text)
        XCTAssertTrue(text.contains("json: { items: [{ id: \"3fa85f64-5717-4562-b3fc-2c963f66afa6\", label: string }], total: 0 }"), text)
        try assertUsable(dir.appendingPathComponent("targets"), service: "modern", targets: ["listThings", "getThing"])
        try assertUsable(dir.appendingPathComponent("targets"), service: "modern-webhooks", targets: ["newThing"])
    }

    func testSameSpecSameBytesAndTagsAndServiceName() throws {
        let dir = try folder()
        let spec = ImportFixtures.path("everything.yaml")
        let a = try importSpec(spec, ["-o", "-"], into: dir)
        let b = try importSpec(spec, ["-o", "-"], into: dir)
        XCTAssertEqual(a.code, 0)
        XCTAssertEqual(a.stdoutData, b.stdoutData)
        // --tags keeps only the tagged operations; --service names the file and the variables
        let t = try importSpec(ImportFixtures.path("petstore.yaml"), ["--tags", "store", "--service", "shop"], into: dir)
        XCTAssertEqual(t.code, 0, t.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/shop.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("service: shop\n") && text.contains("${SHOP_API_KEY}"), text)
        XCTAssertTrue(text.contains("  getStoreInventory:\n") && !text.contains("listPets"), text)
    }

    func testNeverOverwritesWithoutForce() throws {
        // GIVEN an existing file where the import would write
        let dir = try folder(["targets/swagger-petstore.yaml": "mine\n"])
        let spec = ImportFixtures.path("petstore.yaml")
        // WHEN imported without --force: exit 5, the file untouched
        let r = try importSpec(spec, into: dir)
        XCTAssertEqual(r.code, 5)
        XCTAssertEqual(r.stderr, "apicli: targets/swagger-petstore.yaml already exists; pass --force to replace it\n")
        let path = dir.appendingPathComponent("targets/swagger-petstore.yaml")
        XCTAssertEqual(try String(contentsOf: path, encoding: .utf8), "mine\n")
        // WHEN with --force: replaced, and no temporary file is left behind
        let f = try importSpec(spec, ["--force"], into: dir)
        XCTAssertEqual(f.code, 0, f.stderr)
        XCTAssertEqual(try String(contentsOf: path, encoding: .utf8), Self.petstore)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("targets").path)
        XCTAssertEqual(left.sorted(), [".apicli-targets.schema.json", "swagger-petstore.openapi", "swagger-petstore.yaml"])
    }

    func testUnwritableDestinationIsExit5() throws {
        let dir = try folder(["blocker": "a file, not a folder\n"])
        let r = try importSpec(ImportFixtures.path("petstore.yaml"), ["-o", "blocker/x.yaml"], into: dir)
        XCTAssertEqual(r.code, 5, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix("apicli: cannot "), r.stderr)
    }

    func testBadInputIsExit2WithItsPlace() throws {
        let dir = try folder([
            "swagger.yaml": "swagger: \"1.2\"\ninfo: { title: old }\npaths: {}\n",
            "broken.json": "{\"openapi\": \"3.0.0\",\n \"paths\": {\"/a\": [}\n}\n",
            "nothing.yaml": "openapi: 3.0.0\ninfo: { title: x }\npaths: {}\n",
            "v4.yaml": "openapi: 4.0.0\npaths: {}\n",
        ])
        let swagger = try importSpec("swagger.yaml", into: dir)
        XCTAssertEqual(swagger.code, 2)
        XCTAssertTrue(swagger.stderr.hasPrefix("swagger.yaml:1:10: error: Swagger 1.2 is not supported; only Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2\n"), swagger.stderr)
        let broken = try importSpec("broken.json", into: dir)
        XCTAssertEqual(broken.code, 2)
        XCTAssertTrue(broken.stderr.hasPrefix("broken.json:2:"), broken.stderr)
        let nothing = try importSpec("nothing.yaml", into: dir)
        XCTAssertEqual(nothing.code, 2)
        XCTAssertTrue(nothing.stderr.hasPrefix("nothing.yaml:3:8: error: the description has no operations to import\n"), nothing.stderr)
        let v4 = try importSpec("v4.yaml", into: dir)
        XCTAssertEqual(v4.code, 2)
        XCTAssertTrue(v4.stderr.hasPrefix("v4.yaml:1:10: error: OpenAPI 4.0.0 is not supported; only Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2\n"), v4.stderr)
        let missing = try importSpec("missing.yaml", into: dir)
        XCTAssertEqual(missing.code, 2)
        XCTAssertEqual(missing.stderr, "error: cannot read missing.yaml: no such file\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("targets").path))
    }
}
