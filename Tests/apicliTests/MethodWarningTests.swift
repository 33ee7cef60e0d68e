import Foundation
import XCTest

/// `method: GTE` loads and is sent as written, but `validate`, `show` and `call` warn with the
/// closest standard method; registered methods and `method: { custom: NAME }` are quiet.
final class MethodWarningTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try CLI.folder(["m.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              typo:
                path: /a
                method: GTE
                sample: { status: 200, body: ok }
              purge:
                path: /b
                method: PURGE
                sample: { status: 200, body: ok }
              dav:
                path: /c
                method: propfind
                sample: { status: 200, body: ok }
              own:
                path: /d
                method: { custom: FROB }
                sample: { status: 200, body: ok }

            """])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private var warning: String {
        """
        \(dir.path)/m.yaml:5:13: warning: 'GTE' is not a standard HTTP method; it is sent as written
          5 |     method: GTE
            |             ^
            hint: did you mean GET? (for a method of your own: method: { custom: GTE })

        """
    }

    func testValidateWarnsAndStillSucceeds() throws {
        let r = try CLI.run(["validate", "--targets", dir.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "ok: 1 file, 4 targets, 4 samples\n")
        XCTAssertEqual(r.stderr, warning)
    }

    func testShowAndCallWarnForTheirTargetOnly() throws {
        let show = try CLI.run(["show", "m.typo", "--targets", dir.path])
        XCTAssertEqual(show.code, 0, show.stderr)
        XCTAssertEqual(show.stderr, warning)
        XCTAssertTrue(show.stdout.contains("GTE http://127.0.0.1:9/a"), show.stdout)
        let call = try CLI.run(["call", "m.typo", "--stub", "--targets", dir.path])
        XCTAssertEqual(call.code, 0, call.stderr)
        XCTAssertEqual(call.stderr, warning)
        for quiet in ["m.purge", "m.dav", "m.own"] {
            let r = try CLI.run(["show", quiet, "--targets", dir.path])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertEqual(r.stderr, "", quiet)
        }
        let own = try CLI.run(["show", "m.own", "--targets", dir.path])
        XCTAssertTrue(own.stdout.contains("FROB http://127.0.0.1:9/d"), own.stdout)
    }
}
