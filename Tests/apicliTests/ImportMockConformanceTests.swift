import Foundation
import XCTest

/// Issue 20: the mock of an imported spec passes Schemathesis' `response_schema_conformance`,
/// `status_code_conformance` and `content_type_conformance` checks (positive mode: the spec's
/// examples, then generated requests; bounded examples per operation and time), run with `st run`
/// from the test venv (`make venv`) against `apicli mock --validate` on 127.0.0.1.
final class ImportMockConformanceTests: FolderTestCase {
    private var mock: MockProcess?

    override func tearDown() {
        mock?.stop()
        super.tearDown()
    }

    /// Every real spec of the fixtures but those in `excluded`.
    static let included = [
        ("tictactoe.yaml", "tictactoe"), ("petstore-expanded.yaml", "petstore"), ("uspto.yaml", "uspto"),
        ("api-with-examples.yaml", "examples"), ("link-example.yaml", "links"), ("callback-example.yaml", "callbacks"),
        ("redocly-starter/openapi.yaml", "starter"), ("museum.yaml", "museum"),
    ]
    /// Left out, and why (docs/dev/testing.md, Import: OpenAPI and the mock).
    static let excluded = [
        "non-oauth-scopes.yaml": "its one operation documents no responses (legal in 3.1): every status is undocumented, and there is no sample to serve",
        "oai-tests/mega.yaml": "the same: its one operation (GET /) documents no responses",
        "oai-tests/webhook-example.yaml": "it has no paths (only webhooks), so there is no API to run requests against",
    ]

    static var schemathesis: String { CLI.root.appendingPathComponent(".venv/bin/st").path }

    func testTheMockOfEveryImportedSpecConformsToItsDescription() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.schemathesis) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" { XCTFail("no .venv/bin/st: run make venv (schemathesis)") }
            throw XCTSkip("no .venv with schemathesis: run make venv")
        }
        for (spec, service) in Self.included {
            let path = ImportOpenAPIRealSpecTests.specs.appendingPathComponent(spec).path
            let dir = try folder()
            let r = try CLI.run(["import", "openapi", path, "--service", service], cwd: dir)
            XCTAssertEqual(r.code, 0, "\(spec): \(r.stderr)")
            let file = try String(contentsOf: dir.appendingPathComponent("targets/\(service).yaml"), encoding: .utf8)
            mock?.stop()
            let m = try MockProcess(["--validate", "--targets", dir.appendingPathComponent("targets").path],
                                    env: ImportContractTests.dummies(file))
            mock = m
            let st = try CLI.run([
                "run", path, "--url", m.url + Self.basePath(file),
                "--checks", "response_schema_conformance,status_code_conformance,content_type_conformance",
                "--mode", "positive", "--phases", "examples,fuzzing", "--max-examples", "8",
                "--seed", "1", "--workers", "1", "--generation-database", "none", "--no-color", "--request-timeout", "5",
                "--suppress-health-check", "all",
            ], env: ["NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"], cwd: dir, timeout: 120,
               executable: URL(fileURLWithPath: Self.schemathesis))
            XCTAssertEqual(st.code, 0, "\(spec): schemathesis found a non-conformance:\n\(st.stdout)\n\(st.stderr)")
        }
    }

    /// The path of the imported `baseURL` (`http://petstore.swagger.io/api` → `/api`), where the
    /// mock serves the targets' paths too.
    static func basePath(_ file: String) -> String {
        guard let line = file.split(separator: "\n").first(where: { $0.hasPrefix("baseURL: ") }) else { return "" }
        let url = line.dropFirst("baseURL: ".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
        guard let scheme = url.range(of: "://"), let slash = url[scheme.upperBound...].firstIndex(of: "/") else { return "" }
        return String(url[slash...])
    }
}
