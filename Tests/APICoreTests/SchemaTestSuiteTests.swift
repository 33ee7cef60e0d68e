import XCTest
@testable import APISchema
@testable import APIVerdict

/// The validator judged by the official JSON-Schema-Test-Suite: every required test of every
/// folder (draft4, draft6, draft7, draft2019-09, draft2020-12; figures in docs/contracts.md), each
/// with its own dialect, and the optional format tests of the formats apicli asserts.
final class SchemaTestSuiteTests: XCTestCase {
    /// Files left out of the required run, with why (docs/contracts.md lists them).
    static let skipped: [String: String] = [
        "draft2020-12/vocabulary.json": "custom meta-schemas with $vocabulary need the draft meta-schemas, not shipped (no network)",
        "draft2019-09/vocabulary.json": "custom meta-schemas with $vocabulary need the draft meta-schemas, not shipped (no network)",
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

    /// Every required test of `folder`, each schema read as `dialect` says: given by the caller, or
    /// (`declared`) stated as `$schema` in the schema, with draft 2020-12 as the caller's default.
    private func runAll(_ folder: String, dialect: SchemaDialect, declared: Bool = false) throws -> SchemaTestSuite.Outcome {
        let suite = try suite()
        var total = SchemaTestSuite.Outcome()
        for file in try suite.files(folder) where Self.skipped[file] == nil {
            let o = try suite.run(file, dialect: dialect, declare: declared, skip: Self.skippedGroups)
            total.passed += o.passed
            total.total += o.total
            total.failures += o.failures
        }
        print("JSON-Schema-Test-Suite \(folder)\(declared ? " ($schema stated)" : ""): \(total.passed) of \(total.total) passed")
        for f in total.failures { print("  FAIL " + f) }
        return total
    }

    /// Every required test of `folder` passes, in its dialect given (or, `declared`, stated by `$schema`).
    private func requireAll(_ folder: String, declared: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let dialect = try XCTUnwrap(Self.folders.first { $0.0 == folder }?.1)
        let o = try runAll(folder, dialect: dialect, declared: declared)
        XCTAssertEqual(o.failures.count, 0, o.failures.prefix(20).joined(separator: "\n"), file: file, line: line)
        XCTAssertEqual(o.passed, Self.expectedTotals[folder], folder, file: file, line: line)
    }

    func testDraft2020Required() throws { try requireAll("draft2020-12") }
    func testDraft2019Required() throws { try requireAll("draft2019-09") }
    func testDraft7Required() throws { try requireAll("draft7") }
    func testDraft6Required() throws { try requireAll("draft6") }
    func testDraft4Required() throws { try requireAll("draft4") }

    /// The dialect picked by `$schema`: each folder's schemas, with their draft's `$schema` added
    /// where they state none, compiled with draft 2020-12 as the default.
    func testDialectChosenBySchemaKeyword() throws {
        for (folder, dialect) in Self.folders where dialect != .draft2020 { try requireAll(folder, declared: true) }
    }

    /// The folders of the suite and the dialect each is run in.
    static let folders: [(String, SchemaDialect)] = [("draft2020-12", .draft2020), ("draft2019-09", .draft2019),
                                                    ("draft7", .draft7), ("draft6", .draft6), ("draft4", .draft4)]

    func testEveryFolderIsRun() throws {
        let suite = try suite()
        let present = try FileManager.default.contentsOfDirectory(atPath: suite.root.appendingPathComponent("tests").path).sorted()
        XCTAssertEqual(present, Self.folders.map(\.0).sorted(), "a folder of the suite no test runs")
    }

    func testAssertedFormats() throws {
        let suite = try suite()
        for (folder, dialect) in Self.folders {
            for format in SchemaFormat.asserted.sorted() {
                let file = "\(folder)/optional/format/\(format).json"
                guard FileManager.default.fileExists(atPath: suite.root.appendingPathComponent("tests/" + file).path) else { continue }
                let o = try suite.run(file, dialect: dialect, assertFormats: true,
                                      skip: ["validation of A-label (punycode) host names"])  // IDNA 2008 tables: not implemented
                print("format \(file): \(o.passed) of \(o.total)")
                XCTAssertEqual(o.failures, [], file)
            }
        }
    }

    /// Every required test minus the skipped files (vocabulary.json, 5 tests in 2020-12 and 2019-09)
    /// and groups (2 + 2 tests in each folder).
    static let expectedTotals = ["draft2020-12": 1290, "draft2019-09": 1250, "draft7": 923, "draft6": 835, "draft4": 614]
}
