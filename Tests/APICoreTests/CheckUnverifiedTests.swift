import Foundation
import XCTest
@testable import APITargets
@testable import APIEndpoint
@testable import APISend
@testable import APICheck

/// `CheckPlanner.unverified`: the targets a live `check` sends with certificate verification off,
/// for the one warning of the run.
final class CheckUnverifiedTests: TemporaryFolderTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try write("open.yaml", """
            baseURL: https://127.0.0.1:9
            tls: { verify: false }
            targets:
              a: { path: /a }
              b: { path: /b, method: POST }
            """)
        try write("safe.yaml", """
            baseURL: https://127.0.0.1:9
            targets:
              c: { path: /c, needs: [open.b] }
              d: { path: /d }
            """)
    }

    private func unverified(_ names: [String], mode: Caller.Mode, insecure: Bool = false) throws -> [String] {
        var overrides = EndpointResolver.Overrides()
        if insecure { overrides.tls.verify = false }
        let workspace = try Workspace(Workspace.Options(directory: dir.path, overrides: overrides), process: [:])
        let selected = try names.map { try workspace.find($0) }
        let planner = CheckPlanner(caller: Caller(workspace: workspace, mode: mode), includeAll: false)
        return planner.unverified(planner.items(for: selected), selected)
    }

    func testTheSentTargetsOfAnUnverifiedServiceAndTheNeedsTheyRun() throws {
        // open.b (POST) is not checked itself, but it runs as safe.c's need
        XCTAssertEqual(try unverified(["safe.c", "open.a", "open.b", "safe.d"], mode: .live), ["open.a", "open.b"])
        XCTAssertEqual(try unverified(["safe.d"], mode: .live), [])
        // --insecure: every target sent
        XCTAssertEqual(try unverified(["safe.c", "safe.d"], mode: .live, insecure: true), ["safe.c", "safe.d", "open.b"])
    }

    func testNothingIsSentWithStub() throws {
        XCTAssertEqual(try unverified(["safe.c", "open.a"], mode: .stub), [])
    }
}
