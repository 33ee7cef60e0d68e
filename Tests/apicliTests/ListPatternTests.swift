import Foundation
import XCTest

/// `apicli list [PATTERN…]`: the same selection as `check`, and an empty targets folder said out loud.
final class ListPatternTests: XCTestCase {

    func testPatternsSelectAsCheckDoes() throws {
        // GIVEN the shipped targets WHEN listing a service and a glob
        let r = try CLI.run(["list", "github", "httpbin.s*", "--json"])
        // THEN exactly those, in declaration order
        XCTAssertEqual(r.code, 0, r.stderr)
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(items.compactMap { $0["name"] as? String },
                       ["github.zen", "github.userProfile", "github.userRepositories", "github.search",
                        "httpbin.show", "httpbin.status"])
    }

    func testAPatternMatchingNothingIsAnErrorWithASuggestion() throws {
        let r = try CLI.run(["list", "githb"])
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "error: 'githb' matches no target\n    hint: did you mean 'github'?\n")
    }

    func testAFileOfTenThousandTargetsIsReadIntoHugePages() throws {
        // Transparent huge pages given when asked (`madvise`) or always: else nothing to check.
        let setting = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        try XCTSkipUnless(setting.contains("[madvise]") || setting.contains("[always]"), "no transparent huge pages: \(setting)")
        // GIVEN a file of 10,000 targets (2.2 MB, the bench's shape)
        var yaml = "baseURL: http://127.0.0.1:9\ntargets:\n"
        for i in 0..<10_000 {
            yaml += "  t\(i):\n    path: /items/{id}/t\(i)\n    method: \(i % 3 == 0 ? "POST" : "GET")\n    params: { id: \(i) }\n"
                + "    task: { query: { page: \(i % 7), q: \"x\(i)\" } }\n    expect: { status: 200, json: { \"$.id\": \(i) } }\n"
                + "    sample: { status: 200, json: { id: \(i) } }\n"
        }
        let dir = try CLI.folder(["gen.yaml": yaml])
        defer { try? FileManager.default.removeItem(at: dir) }
        // WHEN listed
        var before = rusage(), after = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &before)
        let r = try CLI.run(["list", "--targets", dir.path], timeout: 120)
        getrusage(RUSAGE_CHILDREN.rawValue, &after)
        // THEN every target, its tens of MiB of memory faulted in 2 MiB at a time: about 1,000 page
        // faults in all (a debug build; 6,000 a 4 KiB page at a time)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").count, 10_000)
        XCTAssertLessThan(after.ru_minflt - before.ru_minflt, 3_000, "page faults of `list`")
    }

    func testAnEmptyTargetsFolderSaysSoAndExitsZero() throws {
        // GIVEN a folder with no target files
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        // WHEN listed, as text and as JSON
        let text = try CLI.run(["list", "--targets", dir.path])
        let json = try CLI.run(["list", "--json", "--targets", dir.path])
        // THEN nothing (or []) on stdout, the reason on stderr, exit 0
        let said = "no targets in \(dir.path)\n"
            + "    hint: a target file is a .yaml file with baseURL: and targets:; `apicli import` writes one\n"
        XCTAssertEqual(text.code, 0)
        XCTAssertEqual(text.stdout, "")
        XCTAssertEqual(text.stderr, said)
        XCTAssertEqual(json.code, 0)
        XCTAssertEqual(json.stdout, "[]\n")
        XCTAssertEqual(json.stderr, said)
    }
}
