import Foundation
import XCTest
@testable import APISupport
@testable import APIYAML
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint

/// Rows (issue 39): the CSV reader with its lines, data files and their refusals, `each:`, and one
/// target per row (`RowSet`) with its params and `expect:` filled from the row.
final class DataRowsTests: XCTestCase {
    private func records(_ text: String) throws(CSVTable.Problem) -> [CSVTable.Record] {
        var more: Int?
        return try CSVTable.records(Array(text.utf8), more: &more)
    }

    private func problem(_ text: String) -> CSVTable.Problem? {
        do { _ = try records(text) } catch { return error }
        return nil
    }

    // MARK: CSV

    func testQuotedFieldsHoldCommasQuotesAndLineBreaksAndLinesCountFromTheRecordStart() throws {
        // GIVEN a header, a field with a comma, one with doubled quotes, one over two lines, CR LF endings
        let text = "id,name\r\n1,\"Smith, Jane\"\r\n2,\"say \"\"hi\"\"\"\r\n3,\"two\nlines\"\r\n4,x"
        // WHEN read
        let out = try records(text)
        // THEN the fields are as meant, and each record's line is where it starts in the file
        XCTAssertEqual(out.map(\.fields), [["id", "name"], ["1", "Smith, Jane"], ["2", "say \"hi\""], ["3", "two\nlines"], ["4", "x"]])
        XCTAssertEqual(out.map(\.line), [1, 2, 3, 4, 6])
    }

    func testWhatSwiftCSVGotWrongIsRightHere() throws {
        // GIVEN the inputs SwiftCSV 0.10.0 mangles (CHANGELOG, issue 39): an empty last field at the end
        // of the file, leading spaces, a BOM, a blank line
        XCTAssertEqual(try records("a,b\n1,").map(\.fields), [["a", "b"], ["1", ""]])
        XCTAssertEqual(try records("a,b\n1,  b\n").map(\.fields), [["a", "b"], ["1", "  b"]])
        XCTAssertEqual(try records("\u{FEFF}a\n1\n").map(\.fields), [["a"], ["1"]])
        XCTAssertEqual(try records("a\n\n1\n\n").map(\.line), [1, 3])
        // A quoted empty field on its own is a row, not a blank line
        XCTAssertEqual(try records("a\n\"\"\n").map(\.fields), [["a"], [""]])
    }

    func testAQuoteThatNeverClosesOrTextAfterOneIsAnErrorAtItsPlace() {
        XCTAssertEqual(problem("id,name\n1,\"alice\n2,bob\n"),
                       CSVTable.Problem(message: "a quoted field (opened at 2:3) is never closed", mark: Mark(line: 2, column: 3)))
        XCTAssertEqual(problem("id,name\n1,\"al\"ice\n"),
                       CSVTable.Problem(message: "text after the closing quote of a field", mark: Mark(line: 2, column: 7)))
    }

    func testTheRecordLimitStopsReading() throws {
        var more: Int?
        let out = try CSVTable.records(Array("a\n1\n\n2\n3\n".utf8), limit: 2, more: &more)
        XCTAssertEqual(out.count, 2)
        XCTAssertEqual(more, 4)  // the line of the first record left unread
    }

    // MARK: Data files

    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("targets/data"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func write(_ name: String, _ text: String) -> String {
        let path = dir.appendingPathComponent(name).path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    private func diagnostics(_ body: () throws -> Void) -> [String] {
        do {
            try body()
            return []
        } catch {
            guard case .invalidInput(let found)? = error as? APIError else { return ["not invalid input: \(error)"] }
            return found.map { d in
                "\(Path.lastComponent(d.file ?? "-")):\(d.mark.map { "\($0.line)" } ?? "-"): \(d.message)"
            }
        }
    }

    func testCSVRowsAreTextWithTheirLinesAndLabels() throws {
        let path = write("users.csv", "id,name\n1,alice\n2,\"Smith, Jane\"\n3,\n")
        let rows = try DataFile.read(path)
        XCTAssertEqual(rows.map { $0.text(of: "id") }, ["1", "2", "3"])
        XCTAssertEqual(rows.map(\.mark.line), [2, 3, 4])
        // THEN the name column labels a row; an empty one falls back to its number
        XCTAssertEqual(rows.map(\.label), ["alice", "Smith, Jane", "3"])
    }

    func testJSONAndYAMLRowsKeepTheirTypesAndLines() throws {
        let json = try DataFile.read(write("rows.json", "[\n  {\"id\": 7, \"ok\": true},\n  {\"id\": \"x\", \"label\": \"second\"}\n]"))
        XCTAssertEqual(json.map(\.mark.line), [2, 3])
        XCTAssertEqual(json[0].fields.map(\.value), [.number("7"), .bool(true)])
        XCTAssertEqual(json.map(\.label), ["1", "second"])
        let yaml = try DataFile.read(write("rows.yaml", "- { id: 1 }\n- id: 2\n  name: b\n"))
        XCTAssertEqual(yaml.map(\.label), ["1", "b"])
        XCTAssertEqual(yaml.map(\.mark.line), [1, 2])
    }

    func testBadDataFilesAreRefusedNamingFileAndLine() throws {
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("a.csv", "id,name\n1,alice\n2,bob,extra\n")) },
                       ["a.csv:3: row 2 has 3 fields; the header (line 1) has 2"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("b.csv", "id,name\n1\n")) },
                       ["b.csv:2: row 1 has 1 field; the header (line 1) has 2"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("c.csv", "id,name\n")) }, ["c.csv:1: the data file has no rows"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("d.json", "[]")) }, ["d.json:1: the data file has no rows"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("e.json", "{\"id\": 1}")) },
                       ["e.json:1: rows must be a list of mappings, not a mapping"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("f.yaml", "- 1\n- { id: 2 }\n")) },
                       ["f.yaml:1: row 1 must be a mapping, not a scalar"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("g.csv", "id,id\n1,2\n")) }, ["g.csv:1: the header row names 'id' twice"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(dir.appendingPathComponent("none.csv").path) },
                       ["none.csv:-: cannot read the data file: it does not exist"])
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("h.txt", "id\n1\n")) },
                       ["h.txt:-: a data file is .csv, .json, .yaml or .yml, not 'h.txt'"])
    }

    func testMoreThanTheRowLimitIsRefused() throws {
        let text = "id\n" + (0...RowSet.maxRows).map(String.init).joined(separator: "\n")
        XCTAssertEqual(diagnostics { _ = try DataFile.read(write("big.csv", text)) },
                       ["big.csv:\(RowSet.maxRows + 2): the data file has more than \(RowSet.maxRows) rows"])
        // One row fewer is read
        XCTAssertEqual(try DataFile.read(write("ok.csv", "id\n" + (1...RowSet.maxRows).map(String.init).joined(separator: "\n"))).count,
                       RowSet.maxRows)
    }

    func testAFileOverTheByteLimitIsRefusedBeforeItIsRead() throws {
        let path = dir.appendingPathComponent("huge.csv").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(DataFile.maxBytes + 1))  // sparse: no 64 MiB written
        try handle.close()
        XCTAssertEqual(diagnostics { _ = try DataFile.read(path) },
                       ["huge.csv:-: the data file is \(DataFile.maxBytes + 1) bytes; data files are read up to \(DataFile.maxBytes) bytes (64 MiB)"])
    }

    // MARK: each: and one target per row

    private func service(_ yaml: String) throws -> Service {
        let file = write("targets/svc.yaml", yaml)
        return try TargetFile.load(file)
    }

    private func expand(_ service: Service, data: [DataRow]? = nil, given: Set<String> = []) throws(APIError) -> [Target] {
        try RowSet.expand(service.targets.map { (service, $0) }, data: data, folder: dir.appendingPathComponent("targets").path,
                          given: given).map(\.1)
    }

    func testEachRowIsATargetWithTheRowsFieldsOverItsParams() throws {
        _ = write("targets/data/users.csv", "id,label,extra\n1,one,${HOME}\n2,,{x}\n")
        let s = try service("""
            baseURL: http://127.0.0.1:9
            targets:
              user:
                path: /users/{id}
                params: { id: "0", other: keep }
                each: { file: data/users.csv }
              plain: { path: /p }
            """)
        let targets = try expand(s)
        XCTAssertEqual(targets.map(\.name), ["user[one]", "user[2]", "plain"])
        XCTAssertEqual(targets[0].params.map(\.name), ["other", "id", "label", "extra"])
        XCTAssertNil(targets[0].each)
        // THEN a row's value is data: expanding it gives it back as written (no ${VAR}, no {placeholder})
        let bindings = try Workspace(variables: ["HOME": "/root"]).bindings(for: targets[1], in: s)
        XCTAssertEqual(bindings.params["id"], "2")
        XCTAssertEqual(bindings.params["extra"], "{x}")
        XCTAssertEqual(try Workspace(variables: ["HOME": "/root"]).bindings(for: targets[0], in: s).params["extra"], "${HOME}")
    }

    func testExpectIsFilledFromTheRowTypedWhenAFieldStandsAlone() throws {
        let s = try service("""
            baseURL: http://127.0.0.1:9
            targets:
              t:
                path: /x
                each: [ { id: 7, name: "a.b" } ]
                expect:
                  headers: { X-Id: "~{id}" }
                  body: { matches: "name={name}$" }
                  json: { "$.id": "{id}", "$.text": "id {id} of {name}, {other}", "$.n": { ">=": "{id}" } }
            """)
        let expect = try XCTUnwrap(try expand(s)[0].expect)
        XCTAssertEqual(expect.headers.map(\.value), ["7"])
        XCTAssertEqual(expect.body, .matches("name=a\\.b$"))  // the value matched literally
        XCTAssertEqual(expect.json[0].comparisons, [.compare(.equal, .number("7"))])
        guard case .compare(.equal, .string(let text))? = expect.json[1].comparisons.first else { return XCTFail("\(expect.json[1])") }
        XCTAssertEqual(text.text, "id 7 of a.b, {other}")
        XCTAssertEqual(expect.json[2].comparisons, [.compare(.greaterOrEqual, .number("7"))])
    }

    func testDataOnTheCommandLineGivesEveryTargetItsRows() throws {
        let s = try service("""
            baseURL: http://127.0.0.1:9
            targets:
              a: { path: "/a/{id}", each: [ { id: 1 } ] }
              b: { path: /b }
            """)
        let rows = try DataFile.read(write("rows.yaml", "- { id: 5 }\n- { id: 6 }\n"))
        XCTAssertEqual(try expand(s, data: rows).map(\.name), ["a[1]", "a[2]", "b[1]", "b[2]"])
        XCTAssertEqual(try expand(s, data: rows)[0].params.map(\.value.text), ["5"])
    }

    func testEachProblemsAreRefusedWhereTheyStand() throws {
        _ = write("outside.csv", "id\n1\n")
        let s = try service("""
            baseURL: http://127.0.0.1:9
            targets:
              missing: { path: "/{id}", each: { file: data/none.csv } }
              outside: { path: "/{id}", each: { file: ../outside.csv } }
              lacks: { path: "/{id}/{name}", each: [ { id: 1, name: a }, { id: 2 } ] }
              twice: { path: /t, each: [ { label: a }, { label: a } ] }
            """)
        let folder = dir.appendingPathComponent("targets").path
        XCTAssertEqual(diagnostics { _ = try expand(s) }, [
            "svc.yaml:3: each file 'data/none.csv' does not exist (looked for \(folder)/data/none.csv)",
            "svc.yaml:4: each file '../outside.csv' is outside the targets folder \(folder)",
            "svc.yaml:5: row 2 has no field 'name', which svc.lacks uses: {name}",
            "svc.yaml:6: row 2 is labelled 'a', as row 1 (line 6) is",
        ])
        // -p gives the field a row lacks
        XCTAssertEqual(try RowSet.expand(s.targets[2], rows: try XCTUnwrap(RowSet.rows(of: s.targets[2], in: s, folder: folder,
                                                                                           files: &cache)), given: ["name"]).count, 2)
    }

    private var cache = DataFile.Cache()

    func testEachDecodingProblems() throws {
        XCTAssertEqual(decodeDiagnostics("""
            baseURL: http://127.0.0.1:9
            targets:
              a: { path: /a, each: [] }
              b: { path: /b, each: { files: x.csv } }
              c: { path: /c, each: [ 1 ] }
              d: { path: /d, each: text }
            """).map { "\($0.mark?.line ?? 0): \($0.message)" }, [
            "3: each: of target 'a' is an empty list",
            "4: unknown key 'files' in each of target 'b'",
            "4: each: { } needs file: PATH",
            "5: row 1 must be a mapping, not a scalar",
            "6: each of target 'd' must be a mapping, not a scalar",
        ])
    }
}
