@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APISend
@testable import APIImport
import XCTest

/// `Workspace.offline()`: an unset `${VAR}` that feeds the request stands as `Bindings.placeholder`;
/// the `Caller` picks the mode, so a live caller never builds (nor sends) a request with one.
final class OfflineWorkspaceTests: XCTestCase {
    private let service = try! decodeService("""
        baseURL: http://127.0.0.1:9
        headers: { X-Token: "${OFFLINE_TEST_TOKEN}" }
        targets:
          get:
            path: /items/{id}
            params: { id: "${OFFLINE_TEST_ID}" }
            sample: { json: { id: "{id}" } }
          plain:
            path: /plain
            sample: { body: fine }
        """, defaultName: "s")

    func testOfflineBuildsWithThePlaceholderAndStrictBuildsFail() throws {
        let target = try service.requireTarget("get")
        let workspace = Workspace(variables: [:])
        XCTAssertFalse(workspace.isOffline)
        let error = expectAPIError { () throws(APIError) in try workspace.build(target, in: service) }
        XCTAssertEqual(error?.kind, .invalid)
        let call = try workspace.offline().build(target, in: service)
        XCTAssertEqual(call.request.headers.value(of: "X-Token"), Bindings.placeholder)
        XCTAssertEqual(call.bindings.placeholderParams, ["id": ["OFFLINE_TEST_ID"]])
    }

    func testASampleThatUsesAPlaceholderParamIsAnError() throws {
        let target = try service.requireTarget("get")
        let call = try Workspace(variables: [:]).offline().build(target, in: service)
        let stub = try call.stub(sample: nil)
        let error = expectAPIError { () throws(APIError) in try stub.response() }
        XCTAssertEqual(error.map { diagnostics(of: $0).map(\.message) },
                       ["{id} in the sample JSON needs ${OFFLINE_TEST_ID}, which is not set"])
    }

    func testALiveCallerBuildsStrictlyEvenFromAnOfflineWorkspace() async throws {
        let target = try service.requireTarget("plain")
        let offline = Workspace(variables: [:]).offline()
        let live = Caller(workspace: offline, mode: .live)
        XCTAssertFalse(live.workspace.isOffline)
        do {
            _ = try await live.prepare(target, in: service)
            XCTFail("a live caller built a request with an unset variable")
        } catch {
            XCTAssertEqual(error.kind, .invalid)
        }
        let stub = Caller(workspace: Workspace(variables: [:]), mode: .stub)
        XCTAssertTrue(stub.workspace.isOffline)
        let call = try await stub.prepare(target, in: service)
        // a call built offline is refused by a live caller's sender, whatever reached it
        let sent = await live.send(call)
        guard case .failure(let refusal) = sent.last else { return XCTFail("sent a request built for --stub") }
        XCTAssertEqual(refusal.summary, "s.plain: a request built for --stub is never sent")
    }
}
