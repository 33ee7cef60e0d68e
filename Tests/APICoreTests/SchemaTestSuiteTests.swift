import XCTest
@testable import APISchema
@testable import APIVerdict

/// The validator judged by the official JSON-Schema-Test-Suite: every required test of
/// draft2020-12 and draft4 (figures in docs/contracts.md), and the optional format tests of the formats
/// apicli asserts.
final class SchemaTestSuiteTests: XCTestCase {
    /// Files left out of the required run, with why (docs/contracts.md lists them).
    static let skipped: [String: String] = [
        "draft2020-12/vocabulary.json": "custom meta-schemas with $vocabulary need the draft meta-schemas, not shipped (no network)",
    ]
    /// Groups that reference the draft's own meta-schema (fetched from json-schema.org by
    /// validators that go online): apicli does not ship the meta-schemas.
    static let skippedGroups: Set<String> = [
        "remote ref, containing refs itself",
        "validate definition against metaschema",
    ]

    private func suite() throws -> SchemaTestSuite {
        guard let suite = SchemaTestSuite.locate() else {
            XCTFail("JSON-Schema-Test-Suite missing: expected at ../shared/json-schema-test-suite next to the repository (see CI setup)")
            throw SuiteError("missing")
        }
        return suite
    }

    private func runAll(_ folder: String, dialect: SchemaDialect) throws -> SchemaTestSuite.Outcome {
        let suite = try suite()
        var total = SchemaTestSuite.Outcome()
        for file in try suite.files(folder) where Self.skipped[file] == nil {
            let o = try suite.run(file, dialect: dialect, skip: Self.skippedGroups)
            total.passed += o.passed
            total.total += o.total
            total.failures += o.failures
        }
        print("JSON-Schema-Test-Suite \(folder): \(total.passed) of \(total.total) passed")
        for f in total.failures { print("  FAIL " + f) }
        return total
    }

    func testDraft2020Required() throws {
        let o = try runAll("draft2020-12", dialect: .draft2020)
        XCTAssertEqual(o.failures.count, 0, o.failures.prefix(20).joined(separator: "\n"))
        XCTAssertEqual(o.passed, Self.expectedDraft2020Total)
    }

    func testDraft4Required() throws {
        let o = try runAll("draft4", dialect: .draft4)
        XCTAssertEqual(o.failures.count, 0, o.failures.prefix(20).joined(separator: "\n"))
        XCTAssertEqual(o.passed, Self.expectedDraft4Total)
    }

    func testAssertedFormats() throws {
        let suite = try suite()
        for folder in ["draft2020-12", "draft4"] {
            for format in SchemaFormat.asserted.sorted() {
                let file = "\(folder)/optional/format/\(format).json"
                guard FileManager.default.fileExists(atPath: suite.root.appendingPathComponent("tests/" + file).path) else { continue }
                let o = try suite.run(file, dialect: folder == "draft4" ? .draft4 : .draft2020, assertFormats: true,
                                      skip: ["validation of A-label (punycode) host names"])  // IDNA 2008 tables: not implemented
                print("format \(file): \(o.passed) of \(o.total)")
                XCTAssertEqual(o.failures, [], file)
            }
        }
    }

    /// Every required test minus the skipped file (5 tests) and groups (2 + 2 tests).
    static let expectedDraft2020Total = 1290
    static let expectedDraft4Total = 614
}
