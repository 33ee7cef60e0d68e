import XCTest
@testable import APIYAML

/// `OneTargetParse` reads only the named entry of `targets:`; whatever tree it returns must be the
/// tree a reading of the whole file gives for that target (`YAMLParser.serial(_:onlyTarget:)`).
final class OneTargetParseTests: XCTestCase {
    func testSkeleton() throws {
        let text = "baseURL: x\ntargets:\n  a:\n    path: /a\n  b:\n    path: /b\n"
        XCTAssertNotNil(OneTargetParse.parse(Array(text.utf8), target: "b", limits: .init()), "not yet written")
    }
}
