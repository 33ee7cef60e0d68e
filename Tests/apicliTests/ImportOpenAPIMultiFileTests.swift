import Foundation
import XCTest

/// `import openapi` on real descriptions split over many files with relative `$ref`s (issue 20:
/// "several multi-file OpenAPI descriptions using external `$ref`s"; Fixtures/specs, see SOURCE.txt):
/// DigitalOcean's (every Operation Object is a `$ref` to its own file, which refers on to
/// responses, parameters, models and shared files two folders up), OpenSearch's (3.1 namespace
/// files referring to `../schemas/*.yaml`, outside their folder) and Redocly's starter. For each:
/// import exits 0 without an unreadable `$ref`, `validate` and `check --stub` accept the result,
/// every target builds, the mock of it answers with what the other files say, and named values
/// that live only in the referred files arrive in the targets.
final class ImportOpenAPIMultiFileTests: FolderTestCase {
    static let specs = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/specs")

    /// Imports `spec` as `service` into a new folder; asserts the invariant; the folder and the file's text.
    private func importAndCheck(_ spec: String, service: String, targets: [String], extra: [String] = [],
                                file: StaticString = #filePath, line: UInt = #line) throws -> (URL, String) {
        let dir = try folder()
        let path = Self.specs.appendingPathComponent(spec).path
        let r = try CLI.run(["import", "openapi", path, "--service", service] + extra, cwd: dir)
        XCTAssertEqual(r.code, 0, "\(spec): \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains("(\(targets.count) targets"), "\(spec): \(r.stderr)", file: file, line: line)
        for bad in ["cannot read", "does not resolve", "not followed"] {
            XCTAssertFalse(r.stderr.contains(bad), "\(spec): \(r.stderr)", file: file, line: line)
        }
        // A description that names files outside its folder is not copied beside the targets, so it
        // gets no expect: schema: (docs/import.md, OpenAPI); one inside does.
        XCTAssertEqual(r.stderr.contains("names files outside its folder"), !extra.isEmpty, "\(spec): \(r.stderr)", file: file, line: line)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/\(service).yaml"), encoding: .utf8)
        let names = text.matches(of: /\n  ([A-Za-z0-9_]+):\n/).map { String($0.output.1) }
        XCTAssertEqual(names, targets, spec, file: file, line: line)
        let variables = Set(text.matches(of: /\$\{([A-Z0-9_]+)\}/).map { String($0.output.1) })
        let env = Dictionary(uniqueKeysWithValues: variables.map { ($0, "dummy-\($0.lowercased())") })
        try assertUsable(dir.appendingPathComponent("targets"), service: service, targets: targets, env: env, file: file, line: line)
        for name in targets {
            let s = try CLI.run(["show", "\(service).\(name)"], env: env, cwd: dir)
            XCTAssertEqual(s.code, 0, "\(spec) show \(name): \(s.stderr)", file: file, line: line)
        }
        return (dir, text)
    }

    func testDigitalOceanOperationsByRefAcrossFolders() throws {
        // GIVEN DigitalOcean's description: `get: { $ref: resources/ssh_keys/sshKeys_list.yml }`, whose
        // file refers to ../../shared/parameters.yml, responses/sshKeys_all.yml, ../../../shared/...
        let (dir, text) = try importAndCheck("digitalocean/openapi.yaml", service: "do", targets: [
            "sshKeysList", "sshKeysCreate", "sshKeysGet", "sshKeysUpdate", "sshKeysDelete", "regionsList", "sizesList",
            "tagsList", "tagsCreate", "tagsGet", "tagsDelete", "tagsAssignResources", "tagsUnassignResources",
        ])
        // THEN each operation has the name, method and path its own file gives
        XCTAssertTrue(text.contains("sshKeysCreate:\n    doc: Create a New SSH Key\n    method: POST\n    path: /v2/account/keys\n"), text)
        // AND a path parameter from resources/ssh_keys/parameters/ssh_key_identifier.yml, with its example
        XCTAssertTrue(text.contains("path: /v2/account/keys/{ssh_key_identifier}\n    params: { ssh_key_identifier: 512189 }"), text)
        // AND query parameters from shared/parameters.yml (three folders from the response file)
        XCTAssertTrue(text.contains("# per_page: 2   # optional: Number of items returned per page"), text)
        // AND the example of responses/sshKeys_all.yml, and an error sample from shared/responses/unauthorized.yml
        XCTAssertTrue(text.contains("name: Other Public Key"), text)
        XCTAssertTrue(text.contains(#"json: { id: unauthorized, message: Unable to authenticate you. }"#), text)
        // AND the bearer scheme of the root file
        XCTAssertTrue(text.contains(#"auth: { bearer: "${DO_TOKEN}" }"#), text)
        // AND the mock of it answers each path with what the referred files say
        let mock = try MockProcess([], cwd: dir)
        defer { mock.stop() }
        let list = try Curl.run([mock.url + "/v2/account/keys"])
        XCTAssertEqual(list.status, 200, list.raw)
        XCTAssertTrue(list.body.contains(#""name":"Other Public Key""#), list.body)
        let one = try Curl.run([mock.url + "/v2/account/keys/512189"])
        XCTAssertEqual(one.status, 200, one.raw)
        XCTAssertTrue(one.body.contains(#""name":"My SSH Public Key""#), one.body)
        let tag = try Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                                #"{"resources":[{"resource_id":"1","resource_type":"droplet"}]}"#, mock.url + "/v2/tags/awesome/resources"])
        XCTAssertEqual(tag.status, 204, tag.raw)
        // AND apicli's own check against the mock passes for a target built from five files
        let check = try CLI.run(["check", "do.sshKeysList", "--base-url", mock.url], env: ["DO_TOKEN": "dummy"], cwd: dir)
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
    }

    func testOpenSearchNamespacesReferToSchemasOutsideTheirFolder() throws {
        // GIVEN OpenSearch's 3.1 namespace files, which refer to ../schemas/*.yaml: allowed by --allow-ref-root
        let root = Self.specs.appendingPathComponent("opensearch").path
        let (tasksDir, tasks) = try importAndCheck("opensearch/namespaces/tasks.yaml", service: "os",
                                                   targets: ["tasksList0", "tasksCancel0", "tasksGet0", "tasksCancel1"],
                                                   extra: ["--allow-ref-root", root])
        // THEN the query parameters' enums and the response schemas come from schemas/tasks._common.yaml
        XCTAssertTrue(tasks.contains("# group_by: nodes   # optional: Groups tasks by parent/child relationships or nodes."), tasks)
        XCTAssertTrue(tasks.contains("node_failures: [{ type: string }]"), tasks)
        let (wlmDir, wlm) = try importAndCheck("opensearch/namespaces/wlm.yaml", service: "wlm", targets: [
            "wlmGetQueryGroup0", "wlmCreateQueryGroup0", "wlmGetQueryGroup1", "wlmUpdateQueryGroup0", "wlmDeleteQueryGroup0",
        ], extra: ["--allow-ref-root", root])
        // AND a request body built from schemas/wlm._common.yaml (its enum's first value)
        XCTAssertTrue(wlm.contains("resiliency_mode: enforced"), wlm)
        _ = try importAndCheck("opensearch/namespaces/dangling_indices.yaml", service: "dangling", targets: [
            "danglingIndicesListDanglingIndices0", "danglingIndicesImportDanglingIndex0", "danglingIndicesDeleteDanglingIndex0",
        ], extra: ["--allow-ref-root", root])
        // AND the mocks answer with those samples
        let mock = try MockProcess([], cwd: tasksDir)
        defer { mock.stop() }
        let list = try Curl.run([mock.url + "/_tasks"])
        XCTAssertEqual(list.status, 200, list.raw)
        XCTAssertTrue(list.body.contains(#""node_failures""#), list.body)
        let wlmMock = try MockProcess([], cwd: wlmDir)
        defer { wlmMock.stop() }
        let created = try Curl.run(["-X", "PUT", "-H", "Content-Type: application/json", "--data-binary", #"{"name":"a"}"#,
                                    wlmMock.url + "/_wlm/query_group"])
        XCTAssertEqual(created.status, 200, created.raw)
        XCTAssertTrue(created.body.contains(#""resiliency_mode""#), created.body)

        // AND without --allow-ref-root the references out of the folder are refused (one warning each
        // place), and what is written is still a file apicli accepts
        let dir = try folder()
        let r = try CLI.run(["import", "openapi", Self.specs.appendingPathComponent("opensearch/namespaces/tasks.yaml").path], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: $ref '../schemas/tasks._common.yaml"), r.stderr)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stdout + v.stderr)
    }

    func testRedoclyStarterRefsResolve() throws {
        // GIVEN Redocly's starter: each path item in paths/*.yaml, parameters, responses and schemas in components/
        let (dir, text) = try importAndCheck("redocly-starter/openapi.yaml", service: "starter", targets: [
            "listMenuItems", "createMenuItem", "deleteMenuItem", "getMenuItemPhoto", "listOrders", "createOrder",
            "getOrderById", "updateOrder", "deleteOrder", "listOrderItems", "getRevenue", "registerOAuth2Client",
        ])
        // THEN the path parameter's example comes from its components file
        XCTAssertTrue(text.contains("path: /orders/{orderId}\n    params: { orderId: ord_01h1s5z6vf2mm1mz3hevnn9va7 }"), text)
        // AND the mock answers a path item that lives in paths/orders_{orderId}.yaml
        let mock = try MockProcess([], cwd: dir)
        defer { mock.stop() }
        let order = try Curl.run([mock.url + "/orders/ord_01h1s5z6vf2mm1mz3hevnn9va7"])
        XCTAssertEqual(order.status, 200, order.raw)
        XCTAssertTrue(order.body.hasPrefix("{"), order.body)
    }
}
