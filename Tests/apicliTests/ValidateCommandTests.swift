import Foundation
import XCTest

/// `apicli validate [FILE…]`.
final class ValidateCommandTests: XCTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        for f in folders { try? FileManager.default.removeItem(at: f) }
        super.tearDown()
    }

    func testShippedTargetsAreValid() throws {
        let r = try CLI.run(["validate"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "ok: 2 files, 12 targets, 18 samples\n")
        XCTAssertEqual(r.stderr, "")
    }

    func testEveryErrorOfEveryFileWithItsSourceLine() throws {
        // GIVEN a file with a decoding error and one whose samples contradict their expectations
        let dir = try CLI.folder([
            "a.yaml": "baseURL: http://x\ntargets:\n  t:\n    expect: { status: 2xx, maxTim: 1s }\n",
            "b.yaml": """
                baseURL: http://x
                targets:
                  t:
                    expect: { json: { "$.ok": true } }
                    sample: { json: { ok: false } }
                    samples:
                      gone: { status: 404, expectFailure: true }
                      fine: { json: { ok: true }, expectFailure: true }
                      down: { error: refused }

                """,
        ])
        folders.append(dir)
        // WHEN both are validated
        let r = try CLI.run(["validate", "a.yaml", "b.yaml"], cwd: dir)
        // THEN every problem is shown, and exit 2
        XCTAssertEqual(r.code, 2)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, """
            a.yaml:4:28: error: unknown key 'maxTim' in expect of target 't'
              4 |     expect: { status: 2xx, maxTim: 1s }
                |                            ^
                hint: did you mean 'maxTime'?
            b.yaml:5:13: error: the sample of b.t fails its expectations: $.ok is false, expected true
              5 |     sample: { json: { ok: false } }
                |             ^
                hint: fix the sample or expect:, or add expectFailure: true if the sample shows a failure
            b.yaml:8:13: error: sample 'fine' of b.t has expectFailure: true but passes its expectations
              8 |       fine: { json: { ok: true }, expectFailure: true }
                |             ^
                hint: remove expectFailure:, or make the sample show the failure
            b.yaml:9:13: error: sample 'down' of b.t fails its expectations: network error: refused
              9 |       down: { error: refused }
                |             ^
                hint: fix the sample or expect:, or add expectFailure: true if the sample shows a failure
            4 errors

            """)
    }

    func testOneGoodFile() throws {
        let dir = try CLI.folder(["one.yaml": "baseURL: http://x\ntargets:\n  t: { sample: { status: 204 } }\n"])
        folders.append(dir)
        let r = try CLI.run(["validate", "--targets", dir.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "ok: 1 file, 1 target, 1 sample\n")
    }
}
