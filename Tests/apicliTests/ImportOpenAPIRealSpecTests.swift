import Foundation
import XCTest

/// `import openapi` on real public descriptions (Fixtures/specs, see SOURCE.txt): import exits 0,
/// `validate` accepts the file, `check --stub` passes with dummy values for its `${VAR}`s, and every
/// target builds with `show`. (Their schema samples are judged by SchemaSampleValidityTests.)
final class ImportOpenAPIRealSpecTests: FolderTestCase {
    static let specs = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/specs")

    func testEveryRealSpecKeepsTheImportInvariant() throws {
        for (spec, service, targets) in [
            ("tictactoe.yaml", "tictactoe", 3), ("petstore-expanded.yaml", "petstore", 4), ("uspto.yaml", "uspto", 3),
            ("api-with-examples.yaml", "examples", 2), ("link-example.yaml", "links", 6), ("callback-example.yaml", "callbacks", 1),
            ("non-oauth-scopes.yaml", "scopes", 1), ("redocly-starter/openapi.yaml", "starter", 12), ("museum.yaml", "museum", 8),
        ] {
            let dir = try folder()
            let r = try CLI.run(["import", "openapi", Self.specs.appendingPathComponent(spec).path, "--service", service], cwd: dir)
            XCTAssertEqual(r.code, 0, "\(spec): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("(\(targets) target"), "\(spec): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("cannot read"), "\(spec): \(r.stderr)")
            let file = try String(contentsOf: dir.appendingPathComponent("targets/\(service).yaml"), encoding: .utf8)
            // Dummy values for every ${VAR} without a default
            let variables = Set(file.matches(of: /\$\{([A-Z0-9_]+)\}/).map { String($0.output.1) })
            let env = Dictionary(uniqueKeysWithValues: variables.map { ($0, "dummy-\($0.lowercased())") })
            let v = try CLI.run(["validate"], env: env, cwd: dir)
            XCTAssertEqual(v.code, 0, "\(spec) validate: \(v.stdout)\(v.stderr)")
            let c = try CLI.run(["check", "--stub"], env: env, cwd: dir)
            XCTAssertEqual(c.code, 0, "\(spec) check --stub: \(c.stdout)\(c.stderr)")
            let list = try CLI.run(["list"], env: env, cwd: dir)
            let names = file.matches(of: /\n  ([A-Za-z0-9_-]+):\n/).map { String($0.output.1) }
            XCTAssertEqual(names.count, targets, "\(spec): \(names)")
            for name in names {
                let s = try CLI.run(["show", "\(service).\(name)"], env: env, cwd: dir)
                XCTAssertEqual(s.code, 0, "\(spec) show \(name): \(s.stderr) \(list.stdout)")
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
