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
