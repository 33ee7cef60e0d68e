import XCTest
@testable import APITargets

/// `Validation.accepts`: Moya's validation types as status rules.
final class ValidationTests: XCTestCase {

    func testNoneAcceptsEveryStatus() {
        // GIVEN none
        // THEN anything that is a response passes
        for status in [100, 200, 302, 404, 500, 599] {
            XCTAssertTrue(Validation.none.accepts(status), "\(status)")
        }
    }

    func testSuccessAccepts200Through299() {
        // GIVEN success
        // THEN exactly 200...299 pass
        XCTAssertFalse(Validation.success.accepts(199))
        XCTAssertTrue(Validation.success.accepts(200))
        XCTAssertTrue(Validation.success.accepts(204))
        XCTAssertTrue(Validation.success.accepts(299))
        XCTAssertFalse(Validation.success.accepts(300))
        XCTAssertFalse(Validation.success.accepts(404))
    }

    func testSuccessAndRedirectAccepts200Through399() {
        // GIVEN successAndRedirect
        // THEN exactly 200...399 pass
        XCTAssertFalse(Validation.successAndRedirect.accepts(199))
        XCTAssertTrue(Validation.successAndRedirect.accepts(200))
        XCTAssertTrue(Validation.successAndRedirect.accepts(304))
        XCTAssertTrue(Validation.successAndRedirect.accepts(399))
        XCTAssertFalse(Validation.successAndRedirect.accepts(400))
    }

    func testCodesAcceptExactlyTheListedStatuses() {
        // GIVEN [200, 304]
        let validation = Validation.codes([200, 304])
        // THEN only those pass, not their neighbours
        XCTAssertTrue(validation.accepts(200))
        XCTAssertTrue(validation.accepts(304))
        XCTAssertFalse(validation.accepts(201))
        XCTAssertFalse(validation.accepts(303))
        XCTAssertFalse(validation.accepts(500))
        XCTAssertFalse(Validation.codes([]).accepts(200))
    }

    func testDescriptions() {
        // THEN each prints as `show` and reports name it
        XCTAssertEqual(Validation.none.description, "none")
        XCTAssertEqual(Validation.success.description, "success (200-299)")
        XCTAssertEqual(Validation.successAndRedirect.description, "successAndRedirect (200-399)")
        XCTAssertEqual(Validation.codes([200, 304]).description, "[200, 304]")
    }
}
