import Foundation
import XCTest

/// `import openapi` on real public descriptions (Fixtures/specs, see SOURCE.txt): import exits 0,
/// `validate` accepts the file, `check --stub` passes with dummy values for its `${VAR}`s, and every
/// target builds with `show`. (Their schema samples are judged by SchemaSampleValidityTests.)
final class ImportOpenAPIRealSpecTests: FolderTestCase {
    static let specs = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/specs")

    func testEveryRealSpecKeepsTheImportInvariant() throws {
        // (spec, service, targets of its paths, targets of its webhooks: SERVICE-webhooks.yaml)
        for (spec, service, targets, hooks) in [
            ("tictactoe.yaml", "tictactoe", 3, 1), ("petstore-expanded.yaml", "petstore", 4, 0), ("uspto.yaml", "uspto", 3, 0),
            ("api-with-examples.yaml", "examples", 2, 0), ("link-example.yaml", "links", 6, 0), ("callback-example.yaml", "callbacks", 1, 0),
            ("non-oauth-scopes.yaml", "scopes", 1, 0), ("redocly-starter/openapi.yaml", "starter", 12, 1), ("museum.yaml", "museum", 8, 1),
            ("oai-tests/mega.yaml", "mega", 1, 1), ("oai-tests/webhook-example.yaml", "hooks", 0, 1),
            ("openai/containers.yaml", "openai", 2, 0), ("fastapi/openapi.json", "fastapi", 4, 0),
        ] {
            let dir = try folder()
            let r = try CLI.run(["import", "openapi", Self.specs.appendingPathComponent(spec).path, "--service", service], cwd: dir)
            XCTAssertEqual(r.code, 0, "\(spec): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("cannot read"), "\(spec): \(r.stderr)")
            var files: [(String, Int)] = []
            if targets > 0 { files.append((service, targets)) }
            if hooks > 0 { files.append((service + "-webhooks", hooks)) }
            let written = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("targets").path)
            XCTAssertEqual(Set(written.filter { $0.hasSuffix(".yaml") }), Set(files.map { $0.0 + ".yaml" }), "\(spec): \(written)")
            var texts: [String: String] = [:]
            for (name, count) in files {
                XCTAssertTrue(r.stderr.contains("wrote targets/\(name).yaml (\(count) target"), "\(spec): \(r.stderr)")
                texts[name] = try String(contentsOf: dir.appendingPathComponent("targets/\(name).yaml"), encoding: .utf8)
            }
            // Dummy values for every ${VAR} without a default
            let env = ImportContractTests.dummies(texts.values.joined(separator: "\n"))
            let v = try CLI.run(["validate"], env: env, cwd: dir)
            XCTAssertEqual(v.code, 0, "\(spec) validate: \(v.stdout)\(v.stderr)")
            let c = try CLI.run(["check", "--stub"], env: env, cwd: dir)
            XCTAssertEqual(c.code, 0, "\(spec) check --stub: \(c.stdout)\(c.stderr)")
            let list = try CLI.run(["list"], env: env, cwd: dir)
            for (name, count) in files {
                let names = texts[name, default: ""].matches(of: /\n  ([A-Za-z0-9_-]+):\n/).map { String($0.output.1) }
                XCTAssertEqual(names.count, count, "\(spec) \(name): \(names)")
                for target in names {
                    let s = try CLI.run(["show", "\(name).\(target)"], env: env, cwd: dir)
                    XCTAssertEqual(s.code, 0, "\(spec) show \(name).\(target): \(s.stderr) \(list.stdout)")
                }
            }
        }
    }

    func testTheTicTacToeBoardIsThreeRowsOfThree() throws {
        // GIVEN the OAI tic-tac-toe example, whose board schema says 3 rows of 3 (issue 20)
        let dir = try folder()
        let r = try CLI.run(["import", "openapi", Self.specs.appendingPathComponent("tictactoe.yaml").path, "-o", "-"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#"board: [[".", ".", "."], [".", ".", "."], [".", ".", "."]]"#), r.stdout)
    }
}
