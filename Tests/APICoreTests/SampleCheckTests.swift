import XCTest
@testable import APIEndpoint
@testable import APIVerdict

final class SampleCheckTests: XCTestCase {
    func testSamplesAreJudgedLikeCheckStub() throws {
        // GIVEN samples that agree, disagree, are marked expectFailure, and are slower than maxTime
        let service = try decodeService("""
            baseURL: http://x
            validate: success
            targets:
              t:
                expect: { maxTime: 1s, headers: { Content-Type: "~json" } }
                sample: { json: { a: 1 } }
                samples:
                  slow: { delay: 2, json: {} }
                  gone: { status: 404, expectFailure: true }
                  html: { body: "<p>" }
              plain:
                sample: { status: 500 }
            """)
        // WHEN judged offline
        let d = SampleCheck.diagnostics(service, workspace: Workspace(variables: [:]))
        // THEN each disagreement is a diagnostic at its sample
        XCTAssertEqual(d.map { "\($0.mark!.line):\($0.mark!.column) \($0.message)" }, [
            "8:13 sample 'slow' of demo.t fails its expectations: took 2000 ms, maxTime is 1000 ms",
            "10:13 sample 'html' of demo.t fails its expectations: header Content-Type is missing",
            "12:13 the sample of demo.plain fails its expectations: status 500 is not accepted by validate: success (200-299)",
        ])
    }
}
