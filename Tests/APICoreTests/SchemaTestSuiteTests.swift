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

    func testDraft2019Required() throws {
        let o = try runAll("draft2019-09", dialect: .draft2019)
        XCTAssertEqual(o.failures.count, 0, o.failures.prefix(20).joined(separator: "\n"))
        XCTAssertEqual(o.passed, Self.expectedDraft2019Total)
    }

    func testDraft7Required() throws {
        let o = try runAll("draft7", dialect: .draft7)
        XCTAssertEqual(o.failures.count, 0, o.failures.prefix(20).joined(separator: "\n"))
        XCTAssertEqual(o.passed, Self.expectedDraft7Total)
    }

    func testDraft6Required() throws {
        let o = try runAll("draft6", dialect: .draft6)
        XCTAssertEqual(o.failures.count, 0, o.failures.prefix(20).joined(separator: "\n"))
        XCTAssertEqual(o.passed, Self.expectedDraft6Total)
    }

    /// The dialect picked by `$schema`: each folder's schemas, with their draft's `$schema` added
    /// where they state none, compiled with draft 2020-12 as the default.
    func testDialectChosenBySchemaKeyword() throws {
        for (folder, dialect) in Self.folders where dialect != .draft2020 {
            let o = try runAll(folder, dialect: dialect, declared: true)
            XCTAssertEqual(o.failures.count, 0, folder + ":\n" + o.failures.prefix(20).joined(separator: "\n"))
            XCTAssertGreaterThan(o.passed, 600, folder)
        }
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
    static let expectedDraft2020Total = 1290
    static let expectedDraft4Total = 614
    static let expectedDraft6Total = 835
    static let expectedDraft7Total = 923
    static let expectedDraft2019Total = 1250
}
