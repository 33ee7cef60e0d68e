import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import APITargetsKit
import APITargetsURLSession

/// URLSession requests answered from the samples by the stubbing URLProtocol: no network.
final class StubURLProtocolTests: XCTestCase {
    static let files = ["api.yaml": """
        service: api
        baseURL: https://api.test/v1
        targets:
          user:
            path: /users/{name}
            params: { name: ann }
            sample:
              headers: { X-Who: "{name}" }
              json: { login: "{name}" }
            samples:
              missing: { status: 404, json: { error: no such user } }
              slow: { delay: 0.4, body: late }
              offline: { error: "The Internet connection appears to be offline." }
              refused: { error: connection refused }
          me:
            path: /users/me
            sample: { body: it is me }
          create:
            path: /users
            method: POST
            sample: { status: 201, body: created }
        """]

    var stubs: TargetStubs!

    override func setUpWithError() throws {
        stubs = try TargetStubs(TargetCatalog(folder: Library.folder(Self.files, self)))
    }

    override func tearDown() {
        stubs.uninstall()
    }

    /// One request through a stubbed session: the body and response, or the error.
    func fetch(_ url: String, method: String = "GET", timeout: TimeInterval = 10, session: URLSession? = nil) -> (Data?, HTTPURLResponse?, Error?) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.timeoutInterval = timeout
        let done = expectation(description: url)
        nonisolated(unsafe) var out: (Data?, HTTPURLResponse?, Error?) = (nil, nil, nil)
        (session ?? stubs.session()).dataTask(with: request) { data, response, error in
            out = (data, response as? HTTPURLResponse, error)
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 15)
        return out
    }

    func testAMatchingRequestGetsTheSampleWithItsPathCaptures() throws {
        let (data, response, error) = fetch("https://api.test/v1/users/octocat")
        XCTAssertNil(error)
        XCTAssertEqual(response?.statusCode, 200)
        XCTAssertEqual(response?.value(forHTTPHeaderField: "X-Who"), "octocat")
        XCTAssertEqual(response?.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(String(decoding: data ?? Data(), as: UTF8.self), #"{"login":"octocat"}"#)
        XCTAssertEqual(stubs.answered, ["api.user"])
    }

    func testTheMostSpecificPathWinsAndTheMethodCounts() throws {
        XCTAssertEqual(String(decoding: fetch("https://api.test/v1/users/me").0 ?? Data(), as: UTF8.self), "it is me")
        XCTAssertEqual(fetch("https://api.test/v1/users", method: "POST").1?.statusCode, 201)
    }

    func testANamedSampleChosenForTheTest() throws {
        try stubs.use(sample: "missing", for: "api.user")
        let (data, response, _) = fetch("https://api.test/v1/users/ann")
        XCTAssertEqual(response?.statusCode, 404)
        XCTAssertEqual(String(decoding: data ?? Data(), as: UTF8.self), #"{"error":"no such user"}"#)
        XCTAssertThrowsError(try stubs.use(sample: "mising", for: "api.user")) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'missing'?"), "\(error)")
        }
    }

    func testTheSampleDelayIsHonouredAndModesChangeIt() throws {
        try stubs.use(sample: "slow", for: "api.user")
        var start = Date()
        XCTAssertEqual(String(decoding: fetch("https://api.test/v1/users/ann").0 ?? Data(), as: UTF8.self), "late")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.4)

        stubs.behavior = .immediate
        start = Date()
        XCTAssertEqual(fetch("https://api.test/v1/users/ann").1?.statusCode, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.35)

        stubs.behavior = .delayed(seconds: 0.2)
        try stubs.use(sample: nil, for: "api.user")
        start = Date()
        XCTAssertEqual(fetch("https://api.test/v1/users/ann").1?.statusCode, 200)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.2)
    }

    func testADelayBeyondTheTimeoutTimesOut() throws {
        try stubs.use(sample: "slow", for: "api.user")
        let (_, _, error) = fetch("https://api.test/v1/users/ann", timeout: 0.1)
        XCTAssertEqual((error as? URLError)?.code, .timedOut, "\(String(describing: error))")
    }

    func testErrorSamplesAreURLErrors() throws {
        try stubs.use(sample: "offline", for: "api.user")
        let offline = fetch("https://api.test/v1/users/ann").2 as? URLError
        XCTAssertEqual(offline?.code, .notConnectedToInternet)
        XCTAssertEqual(offline?.localizedDescription, "The Internet connection appears to be offline.")
        try stubs.use(sample: "refused", for: "api.user")
        XCTAssertEqual((fetch("https://api.test/v1/users/ann").2 as? URLError)?.code, .cannotConnectToHost)
    }

    /// As `apicli mock`: a HEAD is answered by the GET target (its status and headers, no body).
    func testAHeadIsAnsweredByTheGetTarget() throws {
        let (data, response, error) = fetch("https://api.test/v1/users/bob", method: "HEAD")
        XCTAssertNil(error)
        XCTAssertEqual(response?.statusCode, 200)
        XCTAssertEqual(response?.value(forHTTPHeaderField: "X-Who"), "bob")
        XCTAssertEqual(data ?? Data(), Data())
        XCTAssertEqual(stubs.answered, ["api.user"])
        // A HEAD with no GET target at its path still fails.
        XCTAssertEqual((fetch("https://api.test/v1/users", method: "HEAD").2 as? URLError)?.code, .unsupportedURL)
    }

    /// Two targets answering the same requests are refused when the stubs are built, as `apicli mock`
    /// refuses them: both named, at the later one's place.
    func testTwoTargetsWithOneRouteAreRefused() throws {
        let folder = try Library.folder(["api.yaml": """
            service: api
            baseURL: https://api.test/v1
            targets:
              user: { path: "/users/{name}", sample: { body: a } }
              person:
                path: "/users/{id}"
                sample: { body: b }
              other: { path: /users/me, sample: { body: c } }
            """], self)
        let catalog = try TargetCatalog(folder: folder)
        XCTAssertThrowsError(try TargetStubs(catalog)) { error in
            guard case .invalid(let problems)? = error as? TargetsError, let problem = problems.first else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(problems.count, 1)
            XCTAssertEqual(problem.message, "route conflict: api.person and api.user (\(folder.path)/api.yaml:4) both answer GET /v1/users/{id}")
            XCTAssertEqual(problem.file, folder.path + "/api.yaml")
            XCTAssertEqual(problem.line, 5)
            XCTAssertTrue(problem.hint?.contains("targets:") == true, problem.hint ?? "")
        }
        // Stubbing one of them is no conflict.
        let stubs = try TargetStubs(catalog, targets: ["api.person", "api.other"])
        defer { stubs.uninstall() }
        XCTAssertEqual(String(decoding: fetch("https://api.test/v1/users/x", session: stubs.session()).0 ?? Data(), as: UTF8.self), "b")
    }

    func testAnUnmatchedRequestFailsNamingTheClosestTargets() throws {
        let error = fetch("https://api.test/v1/user/ann").2 as? URLError
        XCTAssertEqual(error?.code, .unsupportedURL)
        let message = error?.localizedDescription ?? ""
        XCTAssertTrue(message.hasPrefix("no target matches GET /v1/user/ann; closest: api.user (GET /v1/users/{name})"), message)
        XCTAssertEqual(stubs.unmatched, [message])
    }

    func testNeverLeavesRequestsToTheNetwork() throws {
        let request = URLRequest(url: URL(string: "https://api.test/v1/users/ann")!)
        stubs.install()
        XCTAssertTrue(StubURLProtocol.canInit(with: request))
        stubs.behavior = .never
        XCTAssertFalse(StubURLProtocol.canInit(with: request))
        stubs.uninstall()
        stubs.behavior = .immediate
        XCTAssertFalse(StubURLProtocol.canInit(with: request))
    }

    /// Installed stubs answer code that uses `URLSession.shared` (a registered URLProtocol).
    /// On Linux only when installed before the process made its first URLSession (FoundationNetworking
    /// fixes the registered classes then): this class runs before the library tests that make
    /// sessions (XCTest runs the classes in name order; TargetClient* come after it).
    func testInstalledStubsAnswerTheSharedSession() throws {
        stubs.install()
        let (data, response, error) = fetch("https://api.test/v1/users/me", session: .shared)
        XCTAssertNil(error)
        XCTAssertEqual(response?.statusCode, 200)
        XCTAssertEqual(String(decoding: data ?? Data(), as: UTF8.self), "it is me")
    }

    /// The repository's own targets, stubbed: the sample of httpbin.get through a URLRequest of the library.
    func testTheRepositorysTargetsAnswerTheirOwnRequests() throws {
        let catalog = try TargetCatalog(folder: Library.targets)
        let stubs = try TargetStubs(catalog)
        defer { stubs.uninstall() }
        let request = try catalog.urlRequest("httpbin.get")
        let (data, response, error) = fetch(request.url!.absoluteString, session: stubs.session())
        XCTAssertNil(error)
        XCTAssertEqual(response?.statusCode, 200)
        XCTAssertEqual(String(decoding: data ?? Data(), as: UTF8.self).prefix(30), #"{"args":{"page":"1","tags[]":["#)
    }
}
