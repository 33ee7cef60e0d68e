@testable import APIYAML
@testable import APITargets
import XCTest

/// The operation a GraphQL document runs first (what `apicli mock` matches GraphQL targets by).
final class GraphQLOperationNameTests: XCTestCase {
    func name(_ document: String) -> String? { GraphQLOperation.firstOperationName(in: document) }

    func testNamedOperations() {
        XCTAssertEqual(name("query User($id: ID!) { user(id: $id) { name } }"), "User")
        XCTAssertEqual(name("mutation Rename { rename { name } }"), "Rename")
        XCTAssertEqual(name("subscription Ticks { tick }"), "Ticks")
        XCTAssertEqual(name("query A { a } query B { b }"), "A")
    }

    func testAnonymousOperationsHaveNoName() {
        XCTAssertNil(name("{ viewer { login } }"))
        XCTAssertNil(name("query { viewer { login } }"))
        XCTAssertNil(name("query($id: ID) { user(id: $id) { name } }"))
        XCTAssertNil(name(""))
    }

    func testFragmentsCommentsAndStringsAreSkipped() {
        XCTAssertEqual(name("fragment F on User { name } query Users { users { ...F } }"), "Users")
        XCTAssertEqual(name("# query Commented { x }\nquery Real { x }"), "Real")
        XCTAssertEqual(name(#"query Q(""" query Not """ $a: Int = 1) { x(s: "query No") }"#), "Q")
        XCTAssertEqual(name("\"\"\"a description { query X }\"\"\" query Y { y }"), "Y")
    }

    func testServedNamePrefersOperationName() {
        var op = GraphQLOperation(query: "query A { a } query B { b }", variables: nil, operationName: "B", get: false,
                                  errorsFail: true, mark: Mark(line: 1, column: 1))
        XCTAssertEqual(op.servedName, "B")
        op.operationName = nil
        XCTAssertEqual(op.servedName, "A")
    }
}
