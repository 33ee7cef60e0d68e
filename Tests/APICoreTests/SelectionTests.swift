import XCTest
@testable import APIDiagnostics
@testable import APITargets

final class SelectionTests: XCTestCase {
    private func catalog() throws -> Catalog {
        let a = try decodeService("baseURL: http://x\ntargets: { zen: {}, user: {}, userRepos: {} }", defaultName: "github")
        let b = try decodeService("baseURL: http://x\ntargets: { get: {}, status: {}, statusCode: {} }", defaultName: "httpbin")
        return Catalog(services: [a, b])
    }

    func testServicesAndGlobsInDeclarationOrder() throws {
        let c = try catalog()
        XCTAssertEqual(try Selection.select(c, patterns: []).map(\.1.qualifiedName).count, 6)
        XCTAssertEqual(try Selection.select(c, patterns: ["httpbin.status*", "github"]).map(\.1.qualifiedName),
                       ["github.zen", "github.user", "github.userRepos", "httpbin.status", "httpbin.statusCode"])
        XCTAssertEqual(try Selection.select(c, patterns: ["*.user?epos", "*.get"]).map(\.1.qualifiedName),
                       ["github.userRepos", "httpbin.get"])
    }

    func testAPatternThatMatchesNothingIsAnErrorWithASuggestion() throws {
        let c = try catalog()
        let error = expectAPIError { () throws(APIError) in try Selection.select(c, patterns: ["githb", "httpbin.stat"]) }
        XCTAssertEqual(error.map { diagnostics(of: $0).map { "\($0.message) | \($0.hint ?? "")" } }, [
            "'githb' matches no target | did you mean 'github'?",
            "'httpbin.stat' matches no target | did you mean 'httpbin.status'?",
        ])
    }
}
