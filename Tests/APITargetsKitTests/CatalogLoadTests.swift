import Foundation
import XCTest
import APITargetsKit

/// Loading a targets folder: names, environments, variables given explicitly, the CLI's
/// diagnostics as typed errors, Moya's shape, the endpoint closure, contract checks.
final class CatalogLoadTests: XCTestCase {
    func testTheRepositorysTargetsLoadWithTheirNames() throws {
        let catalog = try TargetCatalog(folder: Library.targets)
        XCTAssertTrue(catalog.targetNames.contains("httpbin.get"), "\(catalog.targetNames)")
        XCTAssertTrue(catalog.targetNames.contains("github.zen"))
        XCTAssertEqual(catalog.warnings, [])
    }

    func testABrokenFileIsATypedErrorWithItsPlace() throws {
        let dir = try Library.folder(["api.yaml": "service: api\nbaseURL: https://api.test\ntargets:\n  one:\n    pth: /one\n"], self)
        XCTAssertThrowsError(try TargetCatalog(folder: dir)) { error in
            guard case TargetsError.invalid(let problems) = error, let first = problems.first else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(first.file, dir.appendingPathComponent("api.yaml").path)
            XCTAssertEqual(first.line, 5)
            XCTAssertEqual(first.column, 5)
            XCTAssertTrue(first.message.contains("pth"), first.message)
            XCTAssertEqual(first.hint, "did you mean 'path'?")
            XCTAssertTrue(first.description.hasPrefix("\(dir.path)/api.yaml:5:5: error: "), first.description)
        }
    }

    func testAnUnknownTargetNamesTheClosest() throws {
        let catalog = try TargetCatalog(folder: Library.targets)
        XCTAssertThrowsError(try catalog.target("httpbin.gte")) { error in
            guard case TargetsError.invalid(let problems) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(problems.first?.hint?.contains("httpbin.get") == true, "\(problems)")
        }
    }

    func testAnUnknownEnvironmentIsAnError() throws {
        XCTAssertThrowsError(try TargetCatalog(folder: Library.targets, environment: "staging")) { error in
            guard case TargetsError.invalid(let problems) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.first?.message, "unknown environment 'staging'")
        }
    }

    func testEnvironmentsApply() throws {
        let dir = try Library.folder(["api.yaml": """
            service: api
            baseURL: https://prod.test
            environments:
              staging: { baseURL: "https://staging.test", headers: { X-Env: staging } }
            targets:
              one: { path: /one }
            """], self)
        let target = try TargetCatalog(folder: dir, environment: "staging").target("api.one")
        XCTAssertEqual(target.url.absoluteString, "https://staging.test/one")
        XCTAssertEqual(target.headers?["X-Env"], "staging")
        XCTAssertEqual(try TargetCatalog(folder: dir).target("api.one").url.absoluteString, "https://prod.test/one")
    }

    /// The process environment is read only when asked; given variables win over `.env`.
    func testVariablesAreGivenNotTakenFromTheProcess() throws {
        let dir = try Library.folder(["api.yaml": """
            service: api
            baseURL: https://api.test
            headers: { User-Agent: "${AGENT:-default}", X-Team: "${TEAM}" }
            targets:
              one: { path: /one }
            """, ".env": "TEAM=from-dotenv\n"], self)
        setenv("AGENT", "from-process", 1)
        defer { unsetenv("AGENT") }
        let plain = try TargetCatalog(folder: dir).target("api.one")
        XCTAssertEqual(plain.headers?["User-Agent"], "default")
        XCTAssertEqual(plain.headers?["X-Team"], "from-dotenv")
        let asked = try TargetCatalog(folder: dir, processEnvironment: true).target("api.one")
        XCTAssertEqual(asked.headers?["User-Agent"], "from-process")
        let given = try TargetCatalog(folder: dir, variables: ["AGENT": "given", "TEAM": "given-team"], processEnvironment: true)
            .target("api.one")
        XCTAssertEqual(given.headers?["User-Agent"], "given")
        XCTAssertEqual(given.headers?["X-Team"], "given-team")
    }

    func testAnUnsetVariableIsAnErrorNamingIt() throws {
        let dir = try Library.folder(["api.yaml": "service: api\nbaseURL: https://api.test\nheaders: { X-Key: \"${KEY}\" }\ntargets:\n  one: { path: /one }\n"], self)
        XCTAssertThrowsError(try TargetCatalog(folder: dir).target("api.one")) { error in
            XCTAssertTrue("\(error)".contains("KEY"), "\(error)")
        }
    }

    /// Moya's `TargetType` members, from the file.
    func testAFileTargetHasMoyasShape() throws {
        let catalog = try TargetCatalog(folder: Library.targets)
        let status = try catalog.target("httpbin.status", parameters: ["code": "418"])
        XCTAssertEqual(status.baseURL.absoluteString, "https://httpbin.org")
        XCTAssertEqual(status.path, "/status/418")
        XCTAssertEqual(status.method, .get)
        XCTAssertEqual(status.task, .requestPlain)
        XCTAssertEqual(status.validationType, .successCodes)
        XCTAssertTrue(status.validationType.accepts(204))
        XCTAssertFalse(status.validationType.accepts(404))
        XCTAssertEqual(status.sampleNames, ["notFound", "serverError"])
        XCTAssertEqual(status.headers?["User-Agent"], "apicli")
        let post = try catalog.target("httpbin.post")
        XCTAssertEqual(post.method, .post)
        XCTAssertEqual(post.task, .requestData(Data(#"{"title":"Found a bug","labels":["bug"],"count":2,"draft":false}"#.utf8)))
        let zen = try catalog.target("github.zen")
        XCTAssertEqual(String(decoding: zen.sampleData, as: UTF8.self), "Design for failure.")
        XCTAssertEqual(zen.timeout, 30)
        func describe(_ t: some TargetType) -> String { "\(t.method) \(t.baseURL.absoluteString)\(t.path)" }
        XCTAssertEqual(describe(zen), "GET https://api.github.com/zen")
    }

    enum GitHub: CatalogTarget {
        case zen
        case userProfile(String)
        var targetName: String {
            switch self {
            case .zen: return "github.zen"
            case .userProfile: return "github.userProfile"
            }
        }
        var parameters: [String: String] {
            if case .userProfile(let name) = self { return ["name": name] }
            return [:]
        }
    }

    func testAnEnumOfYourOwnNamesTargets() throws {
        let catalog = try TargetCatalog(folder: Library.targets)
        XCTAssertEqual(try catalog.target(GitHub.userProfile("octocat")).path, "/users/octocat")
        XCTAssertEqual(try catalog.target(GitHub.zen).path, "/zen")
    }

    /// The seeds' endpoint mapping: a header on every target but some, another timeout.
    func testTheEndpointClosureMapsEveryTarget() throws {
        var catalog = try TargetCatalog(folder: Library.targets)
        catalog.endpointClosure = { endpoint in
            let mapped = endpoint.targetName == "github.zen" ? endpoint : endpoint.adding(newHTTPHeaderFields: ["X-Trace": "on"])
            return mapped.replacing(timeout: 5).removingHTTPHeaderField(named: "user-agent")
        }
        let get = try catalog.target("httpbin.get")
        XCTAssertEqual(get.headers?["X-Trace"], "on")
        XCTAssertNil(get.headers?["User-Agent"])
        XCTAssertEqual(get.timeout, 5)
        XCTAssertNil(try catalog.target("github.zen").headers?["X-Trace"])
    }

    func testTheRepositorysSamplesKeepTheirContracts() throws {
        XCTAssertEqual(try TargetCatalog(folder: Library.targets).sampleProblems(), [])
    }

    func testASampleThatBreaksItsExpectationIsAProblemAtTheSample() throws {
        let dir = try Library.folder(["api.yaml": """
            service: api
            baseURL: https://api.test
            targets:
              user:
                path: /user
                expect:
                  status: 200
                  json: { "$.id": 7 }
                  schema: { type: object, required: [id, name] }
                sample:
                  json: { id: 8, name: ann }
              ok:
                path: /ok
                expect: { status: 200 }
                sample: { status: 200 }
            """], self)
        let problems = try TargetCatalog(folder: dir).sampleProblems()
        XCTAssertEqual(problems.count, 1, "\(problems)")
        XCTAssertEqual(problems.first?.line, 11)  // the sample's mapping
        XCTAssertEqual(problems.first?.message, "the sample of api.user fails its expectations: $.id is 8, expected 7")
    }

    func testTargetsFromABundlesResources() throws {
        XCTAssertThrowsError(try TargetCatalog(bundle: Bundle.main, folder: "no-such-folder")) { error in
            guard case TargetsError.invalid(let problems) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(problems.first?.message.hasPrefix("no folder 'no-such-folder' in the bundle's resources") == true)
        }
    }
}
