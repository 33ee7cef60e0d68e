import Foundation
import XCTest

/// A file a target names that is missing fails that target only: `call`, `show` and `check` of it
/// exit 2 with the file's place; the other targets of the same file work; `validate` reports it.
final class MissingFileTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.folder([
            "targets/api.yaml": """
                baseURL: http://127.0.0.1:9
                targets:
                  put: { method: PUT, task: { body: { file: no/such.bin } } }
                  sampled: { sample: { file: no/such/file.json } }
                  fine: { sample: { body: ok } }
                """,
        ])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    var targets: String { dir.appendingPathComponent("targets").path }

    func testOtherTargetsOfTheFileStillWork() throws {
        let fine = try CLI.run(["call", "api.fine", "--stub"], cwd: dir)
        XCTAssertEqual(fine.code, 0, fine.stderr)
        XCTAssertEqual(fine.stdout, "ok")
        let list = try CLI.run(["list"], cwd: dir)
        XCTAssertEqual(list.code, 0, list.stderr)
    }

    func testTheTargetThatNamesTheFileFailsAtTheKey() throws {
        for command in [["call", "api.put", "--dry-run"], ["show", "api.put"]] {
            let r = try CLI.run(command, cwd: dir)
            XCTAssertEqual(r.code, 2, command.joined(separator: " "))
            XCTAssertEqual(r.stderr.split(separator: "\n").first.map(String.init),
                           "targets/api.yaml:3:45: error: body file 'no/such.bin' does not exist (looked for targets/no/such.bin)")
        }
        let check = try CLI.run(["check", "api.put", "--all"], cwd: dir)
        XCTAssertEqual(check.code, 2, check.stdout)
        XCTAssertTrue(check.stderr.contains("body file 'no/such.bin' does not exist"), check.stderr)
    }

    func testValidateReportsEveryMissingFileOnce() throws {
        let r = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(r.code, 2)
        let errors = r.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        XCTAssertEqual(errors, [
            "targets/api.yaml:3:45: error: body file 'no/such.bin' does not exist (looked for targets/no/such.bin)",
            "targets/api.yaml:4:30: error: sample file 'no/such/file.json' does not exist (looked for targets/no/such/file.json)",
        ])
    }
}
