import APITargetsKit
import APITargetsURLSession
import Foundation
import HttpbinExample
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A consumer's tests: apicli's own target files, loaded by the library, stub URLSession for code
/// that knows nothing of them; a live response from a local server is judged by `expect:`.
final class HttpbinExampleTests: XCTestCase {
    /// apicli's repository (this package is its Examples/ folder).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func catalog() throws -> TargetCatalog {
        try TargetCatalog(folder: Self.repository.appendingPathComponent("targets"))
    }

    /// What `apicli show httpbin.post` prints: `POST https://httpbin.org/post`, its headers, its JSON body.
    func testTheRequestIsWhatApicliShowPrints() throws {
        let request = try catalog().urlRequest(Httpbin.post)
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertEqual(request.url?.absoluteString, "https://httpbin.org/post")
        XCTAssertEqual(request.value(forHTTPHeaderField: "User-Agent"), "apicli")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(request.httpBody, Data(#"{"title":"Found a bug","labels":["bug"],"count":2,"draft":false}"#.utf8))
        XCTAssertEqual(try catalog().urlRequest(Httpbin.get).url?.absoluteString, "https://httpbin.org/get?page=1&tags%5B%5D=a&tags%5B%5D=b")
    }

    func testStubbedWithTheDefaultAndANamedSample() async throws {
        let catalog = try catalog()
        let stubs = try TargetStubs(catalog)
        defer { stubs.uninstall() }
        let service = HttpbinService(catalog: catalog, session: stubs.session())
        let arguments = try await service.arguments()
        XCTAssertEqual(arguments["page"], "1")
        try stubs.use(sample: "notFound", for: "httpbin.status")
        let status = try await service.status(404)
        XCTAssertEqual(status, 404)
        XCTAssertEqual(stubs.answered, ["httpbin.get", "httpbin.status:notFound"])
    }

    /// `httpbin.delay`'s sample waits `delay: 1`; `.immediate` does not.
    func testStubbedWithTheSampleDelayOrNone() async throws {
        let catalog = try catalog()
        let stubs = try TargetStubs(catalog)
        defer { stubs.uninstall() }
        let client = TargetClient(catalog: catalog, session: stubs.session())
        var start = Date()
        _ = try await client.send(Httpbin.delay(seconds: 1))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1)
        stubs.behavior = .immediate
        start = Date()
        _ = try await client.send(Httpbin.delay(seconds: 1))
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.9)
    }

    /// An `error:` sample fails as a URLError, as a dropped network would.
    func testStubbedWithAnErrorSample() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            service: httpbin
            baseURL: https://httpbin.org
            targets:
              status:
                path: /status/{code}
                params: { code: 200 }
                sample: { status: 200 }
                samples:
                  offline: { error: "The Internet connection appears to be offline." }
            """.utf8).write(to: folder.appendingPathComponent("httpbin.yaml"))
        let catalog = try TargetCatalog(folder: folder)
        let stubs = try TargetStubs(catalog)
        defer { stubs.uninstall() }
        try stubs.use(sample: "offline", for: "httpbin.status")
        do {
            _ = try await HttpbinService(catalog: catalog, session: stubs.session()).status(200)
            XCTFail("an error sample answered")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .notConnectedToInternet)
        }
    }

    func testEverySampleKeepsItsContract() throws {
        XCTAssertEqual(try catalog().sampleProblems(), [])
        XCTAssertEqual(try bundledCatalog(echoURL: "http://127.0.0.1:1").sampleProblems(), [])
    }

    /// A live response from a local server (apicli's Tests/Servers/echo-server.py), judged by the
    /// bundled target's `expect:` and its schema.
    func testALiveResponseIsJudgedByExpectAndSchema() async throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", Self.repository.appendingPathComponent("Tests/Servers/echo-server.py").path, "--lifetime", "60"]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        // SIGKILL: the child may inherit a blocked SIGTERM from the thread that started it.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let url = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:"), url)

        let client = TargetClient(catalog: try bundledCatalog(echoURL: url))
        let response = try await client.send("echo.order", params: ["id": "42"])
        XCTAssertEqual(response.statusCode, 200)
        do {
            _ = try await client.send("echo.order", params: ["id": "forty-two"])
            XCTFail("the schema's pattern passed /orders/forty-two")
        } catch TargetsError.rejected(_, _, let failures) {
            XCTAssertEqual(failures.count, 1, "\(failures)")
            XCTAssertTrue(failures[0].hasPrefix("schema: $.path"), failures[0])
        }
    }
}
