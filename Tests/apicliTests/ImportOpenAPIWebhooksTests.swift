import Foundation
import TestServers
import XCTest

/// Issue 20: OpenAPI 3.1 `webhooks` and `components/pathItems`. A description's webhooks become a
/// second service file, `SERVICE-webhooks.yaml`, whose `baseURL` is the user's receiver
/// (`${SERVICE_WEBHOOK_URL:-http://localhost:8080}`) and whose targets send the documented request
/// to `/NAME` there; `mock` of that file plays a receiver. Real descriptions: the OAI's own 3.1 test
/// descriptions (a webhook that is a `$ref` to `#/components/pathItems/…`; a webhooks-only one),
/// Redocly's museum (inline webhook) and starter (a webhook given as an external `$ref` file).
final class ImportOpenAPIWebhooksTests: FolderTestCase {
    private var mock: MockProcess?
    private var server: TestServer?

    override func tearDown() {
        mock?.stop()
        server?.stop()
        super.tearDown()
    }

    static func spec(_ name: String) -> String { ImportOpenAPIRealSpecTests.specs.appendingPathComponent(name).path }

    private func read(_ dir: URL, _ file: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
    }

    /// What the echo server saw for `call TARGET` with the webhooks' URL pointing at it.
    private func sent(_ target: String, _ dir: URL, variable: String) throws -> [String: Any] {
        if server == nil { server = try TestServer("echo-server.py", ["--lifetime", "600"]) }
        let r = try CLI.run(["call", target, "--targets", dir.appendingPathComponent("targets").path],
                            env: [variable: server!.url, "NO_PROXY": "127.0.0.1"])
        XCTAssertEqual(r.code, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any], r.stdout)
    }

    private func body(_ echo: [String: Any]) -> String {
        String(decoding: Data(base64Encoded: echo["body"] as? String ?? "") ?? Data(), as: UTF8.self)
    }

    func testTheOAIMegaWebhookIsItsComponentPathItem() throws {
        // GIVEN the OAI's 3.1 "mega" test description: webhook myWebhook is
        // { $ref: '#/components/pathItems/myPathItem' }, whose POST body has a discriminator mapping
        let dir = try folder()
        let r = try CLI.run(["import", "openapi", Self.spec("oai-tests/mega.yaml"), "--service", "mega"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("""
            apicli: wrote targets/mega.yaml (1 target, 1 warning)
            apicli: wrote targets/mega-webhooks.yaml (1 target, 1 warning)

            """), r.stderr)
        // THEN the webhook is a target of mega-webhooks, its body built from the component path item:
        // the schema's own properties (int within its exclusive bounds, none null) beside its anyOf,
        // type: foo (the discriminator mapping's key for the only alternative)
        XCTAssertEqual(try read(dir, "targets/mega-webhooks.yaml"), """
            # yaml-language-server: $schema=.apicli-targets.schema.json
            # Imported from mega.yaml (OpenAPI 3.1.0) by apicli import openapi: its webhooks.
            # Each target is a request the API sends to your receiver: set MEGA_WEBHOOK_URL to its URL
            # (each webhook goes to that URL + /NAME; change path: to your receiver's route).
            service: mega-webhooks
            baseURL: "${MEGA_WEBHOOK_URL:-http://localhost:8080}"
            doc: My API webhooks
            x-import: { baseURL: d582f359, doc: "4fd09691" }
            targets:
              myWebhook:
                # Webhook 'myWebhook': the API sends this request to your receiver (baseURL).
                method: POST
                path: /myWebhook
                task: { json: { type: foo, int: 1, none: null, arr: [string], either: string } }
                check: false
                x-import:
                  operation: POST /myWebhook
                  notes: "01a6a91b"
                  method: e03acaec
                  path: d958fa48
                  task: "39d35369"
                  check: f64818b8

            """)
        XCTAssertTrue(try read(dir, "targets/mega.yaml").contains("targets:\n  get:\n    path: /\n"))
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stderr)
        let c = try CLI.run(["check", "--stub"], cwd: dir)
        XCTAssertEqual(c.code, 0, c.stdout + c.stderr)
        // AND `call` sends it to the receiver named by MEGA_WEBHOOK_URL
        let echo = try sent("mega-webhooks.myWebhook", dir, variable: "MEGA_WEBHOOK_URL")
        XCTAssertEqual(echo["method"] as? String, "POST")
        XCTAssertEqual(echo["path"] as? String, "/myWebhook")
        XCTAssertEqual(body(echo), #"{"type":"foo","int":1,"none":null,"arr":["string"],"either":"string"}"#)
    }

    func testAWebhooksOnlyDescriptionWritesItsWebhooks() throws {
        // GIVEN the OAI's webhook example: no paths (legal in 3.1), one webhook (was: exit 2, "no operations")
        let dir = try folder()
        let r = try CLI.run(["import", "openapi", Self.spec("oai-tests/webhook-example.yaml"), "--service", "pets"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN only the webhooks' file, without a warning about the API's servers (there is no API file)
        XCTAssertEqual(r.stderr, "apicli: wrote targets/pets-webhooks.yaml (1 target, 0 warnings)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("targets").path).sorted(),
                       [".apicli-targets.schema.json", "pets-webhooks.yaml"])
        XCTAssertTrue(try read(dir, "targets/pets-webhooks.yaml").contains("""
              newPet:
                # Webhook 'newPet': the API sends this request to your receiver (baseURL).
                method: POST
                path: /newPet
                task: { json: { id: 0, name: string } }
                check: false
                expect: { status: 200 }
                sample: {}

            """))
        try assertUsable(dir.appendingPathComponent("targets"), service: "pets-webhooks", targets: ["newPet"])
        // AND -o names the file they go to
        let o = try CLI.run(["import", "openapi", Self.spec("oai-tests/webhook-example.yaml"), "-o", "hooks.yaml"], cwd: dir)
        XCTAssertEqual(o.code, 0, o.stderr)
        XCTAssertTrue(try read(dir, "hooks.yaml").contains("service: webhook-example-webhooks\n"))
        // AND the mock of the file is a receiver: call sends newPet to it and gets the documented 200
        let m = try MockProcess(["--targets", dir.appendingPathComponent("targets").path])
        mock = m
        let call = try CLI.run(["call", "pets-webhooks.newPet", "--targets", dir.appendingPathComponent("targets").path],
                               env: ["PETS_WEBHOOK_URL": m.url, "NO_PROXY": "127.0.0.1"])
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertTrue(m.waitForStderr("POST /newPet  pets-webhooks.newPet  sample  200", seconds: 20), m.stderr)
    }

    func testRealAPIsWebhooksInlineAndByExternalRef() throws {
        // GIVEN Redocly's museum (an inline webhook with an example) and starter (webhooks:
        // { order-notification: { $ref: webhooks/order-notification.yaml } }, refs on to ../components)
        let dir = try folder()
        for (spec, service) in [("museum.yaml", "museum"), ("redocly-starter/openapi.yaml", "starter")] {
            let r = try CLI.run(["import", "openapi", Self.spec(spec), "--service", service], cwd: dir)
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertTrue(r.stderr.contains("wrote targets/\(service)-webhooks.yaml (1 target"), r.stderr)
        }
        // THEN the museum's webhook sends its example; the starter's is built from the files its $refs name
        let museum = try read(dir, "targets/museum-webhooks.yaml")
        XCTAssertTrue(museum.contains("    path: /publishNewEvent\n"), museum)
        XCTAssertTrue(museum.contains("        name: Time Traveler Tea Party\n"), museum)
        XCTAssertTrue(museum.contains("    expect: { status: 202 }\n    sample: { status: 202 }\n"), museum)
        let starter = try read(dir, "targets/starter-webhooks.yaml")
        XCTAssertTrue(starter.contains("""
              orderNotificationWebhook:
                # Webhook 'order-notification': the API sends this request to your receiver (baseURL).
                doc: Order notification webhook
                method: POST
                path: /order-notification
                task: { json: { orderId: string, orderStatus: placed, timestamp: "2024-01-01T00:00:00Z" } }

            """), starter)
        let env = ImportContractTests.dummies(try read(dir, "targets/museum.yaml") + (try read(dir, "targets/starter.yaml")))
        try assertUsable(dir.appendingPathComponent("targets"), service: "museum-webhooks", targets: ["publishNewEvent"], env: env)
        try assertUsable(dir.appendingPathComponent("targets"), service: "starter-webhooks", targets: ["orderNotificationWebhook"], env: env)
        // AND the mock serves all four services at once (no route conflict) and answers the webhooks
        let m = try MockProcess(["--targets", dir.appendingPathComponent("targets").path], env: env)
        mock = m
        for (target, variable, status) in [("museum-webhooks.publishNewEvent", "MUSEUM_WEBHOOK_URL", 202),
                                           ("starter-webhooks.orderNotificationWebhook", "STARTER_WEBHOOK_URL", 200)] {
            let call = try CLI.run(["call", target, "-i", "--targets", dir.appendingPathComponent("targets").path],
                                   env: env.merging([variable: m.url, "NO_PROXY": "127.0.0.1"]) { $1 })
            XCTAssertEqual(call.code, 0, call.stderr)
            XCTAssertTrue(call.stdout.hasPrefix("HTTP/1.1 \(status)"), call.stdout)
        }
    }

    static let shop = """
        openapi: 3.1.0
        info: { title: Shop, version: "1" }
        servers: [{ url: "https://shop.example.com/v1" }]
        security: [{ key: [] }]
        paths:
          /orders: { get: { operationId: listOrders, responses: { '200': { description: ok } } } }
        webhooks:
          order paid: { $ref: "#/components/pathItems/OrderEvent" }
          "order {shipped}": { $ref: "hooks/order.yaml#/Shipped" }
          refund:
            post: { tags: [refunds], responses: { '200': { description: ok } } }
            put: { tags: [refunds], responses: { '204': { description: done } } }
          broken: 42
          x-internal: { post: { responses: { '200': { description: ok } } } }
        components:
          securitySchemes: { key: { type: apiKey, in: header, name: X-Key } }
          pathItems:
            OrderEvent:
              post:
                tags: [orders]
                requestBody:
                  content:
                    application/json:
                      schema: { type: object, required: [id, total], properties: { id: { type: string, format: uuid }, total: { type: number, minimum: 1 } } }
                responses: { '200': { description: ok } }

        """

    func testSeveralWebhooksEachHaveTheirRoute() throws {
        // GIVEN webhooks by $ref to components/pathItems and to a Path Item in another file, names
        // that are no path segment as they are, one with two methods, one that is no Path Item
        let dir = try folder(["spec.yaml": Self.shop, "hooks/order.yaml": """
            Shipped:
              post:
                operationId: orderShipped
                requestBody: { content: { application/json: { schema: { type: object, required: [carrier], properties: { carrier: { enum: [ups, dhl] } } } } } }
                responses: { '202': { description: accepted } }

            """])
        let r = try CLI.run(["import", "openapi", "spec.yaml"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, """
            spec.yaml:13:3: warning: webhook 'broken' is not a Path Item; it is not imported
            apicli: wrote targets/shop.yaml (1 target, 1 warning)
            apicli: wrote targets/shop-webhooks.yaml (4 targets, 1 warning)

            """)
        // THEN one target per webhook and method, each on its own route; no API credentials
        let hooks = try read(dir, "targets/shop-webhooks.yaml")
        XCTAssertFalse(hooks.contains("auth") || hooks.contains("SHOP_API_KEY") || hooks.contains("internal"), hooks)
        for expected in [
            "  orderPaid:\n    # Webhook 'order paid': the API sends this request to your receiver (baseURL).\n    method: POST\n    path: \"/order%20paid\"\n    task: { json: { id: \"3fa85f64-5717-4562-b3fc-2c963f66afa6\", total: 1.0 } }\n",
            "  orderShipped:\n    # Webhook 'order {shipped}': the API sends this request to your receiver (baseURL).\n    method: POST\n    path: \"/order%20%7Bshipped%7D\"\n    task: { json: { carrier: ups } }\n",
            "  postRefund:\n", "  putRefund:\n",
        ] {
            XCTAssertTrue(hooks.contains(expected), "\(expected)\n\(hooks)")
        }
        try assertUsable(dir.appendingPathComponent("targets"), service: "shop-webhooks",
                         targets: ["orderPaid", "orderShipped", "postRefund", "putRefund"], env: ["SHOP_API_KEY": "k"])
        // AND the mock starts (no two webhooks on one route) and answers each as its receiver would
        let m = try MockProcess(["shop-webhooks", "--targets", dir.appendingPathComponent("targets").path])
        mock = m
        for (target, status) in [("orderPaid", 200), ("orderShipped", 202), ("postRefund", 200), ("putRefund", 204)] {
            let call = try CLI.run(["call", "shop-webhooks.\(target)", "-i", "--targets", dir.appendingPathComponent("targets").path],
                                   env: ["SHOP_WEBHOOK_URL": m.url, "NO_PROXY": "127.0.0.1"])
            XCTAssertEqual(call.code, 0, call.stderr)
            XCTAssertTrue(call.stdout.hasPrefix("HTTP/1.1 \(status)"), "\(target): \(call.stdout)")
        }
        // AND the bytes go as the description says, to the webhook's own segment
        let echo = try sent("shop-webhooks.orderShipped", dir, variable: "SHOP_WEBHOOK_URL")
        XCTAssertEqual(echo["path"] as? String, "/order%20%7Bshipped%7D")
        XCTAssertEqual(body(echo), #"{"carrier":"ups"}"#)
        // AND --tags keeps only the tagged webhooks (no operation is tagged so: -o gets the webhooks)
        let t = try CLI.run(["import", "openapi", "spec.yaml", "--tags", "refunds", "-o", "tagged.yaml"], cwd: dir)
        XCTAssertEqual(t.code, 0, t.stderr)
        let tagged = try read(dir, "tagged.yaml")
        XCTAssertTrue(tagged.contains("service: shop-webhooks\n"), tagged)
        XCTAssertEqual(tagged.matches(of: /\n  [A-Za-z]+:\n/).map { String($0.output) }, ["\n  postRefund:\n", "\n  putRefund:\n"])
    }

    func testBothFilesAreCheckedBeforeEitherIsWritten() throws {
        // GIVEN an existing webhooks file where the import would write
        let dir = try folder(["spec.yaml": Self.shop.replacing("  \"order {shipped}\": { $ref: \"hooks/order.yaml#/Shipped\" }\n", with: ""),
                              "targets/shop-webhooks.yaml": "mine\n"])
        let r = try CLI.run(["import", "openapi", "spec.yaml"], cwd: dir)
        // THEN exit 5, and neither file is written
        XCTAssertEqual(r.code, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("targets/shop-webhooks.yaml already exists; pass --force to replace it"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("targets/shop.yaml").path))
        XCTAssertEqual(try read(dir, "targets/shop-webhooks.yaml"), "mine\n")
        XCTAssertEqual(try CLI.run(["import", "openapi", "spec.yaml", "--force"], cwd: dir).code, 0)
        XCTAssertTrue(try read(dir, "targets/shop-webhooks.yaml").hasPrefix("# yaml-language-server: $schema=.apicli-targets.schema.json\n# Imported from spec.yaml"))
        // AND with -o - the paths' file is printed, and the webhooks are a warning (not a second document)
        let o = try CLI.run(["import", "openapi", "spec.yaml", "-o", "-"], cwd: dir)
        XCTAssertEqual(o.code, 0, o.stderr)
        XCTAssertTrue(o.stdout.contains("service: shop\n") && !o.stdout.contains("webhook"), o.stdout)
        XCTAssertTrue(o.stderr.contains("spec.yaml: warning: the description's webhooks (3) are not written to standard output; import to a file to have them in shop-webhooks.yaml"), o.stderr)
    }

    func testWebhooksThatAreNoMappingAreAWarning() throws {
        // GIVEN webhooks written as a list (not a mapping of names to Path Items)
        let dir = try folder(["spec.yaml": Self.shop.replacing(/webhooks:\n(.|\n)*components:/, with: "webhooks: [orderPaid]\ncomponents:")])
        let r = try CLI.run(["import", "openapi", "spec.yaml"], cwd: dir)
        // THEN the paths are imported and the webhooks are a warning at their place, not dropped silently
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, """
            spec.yaml:7:11: warning: webhooks is not a mapping of names to Path Items; it is not imported
            apicli: wrote targets/shop.yaml (1 target, 1 warning)

            """)
    }
}
