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
        let (url, server) = try server("echo-server.py")
        // SIGKILL: the child may inherit a blocked SIGTERM from the thread that started it.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
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

    /// A Python server of apicli's Tests/Servers on a free port: its URL, and the process to end.
    func server(_ script: String) throws -> (url: String, process: Process) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", Self.repository.appendingPathComponent("Tests/Servers/\(script)").path, "--lifetime", "60"]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return (Int(text).map { "http://127.0.0.1:\($0)" } ?? text, server)
    }

    /// Endpoints written in code: sent to a live server by the client (the same factory, the
    /// endpoint closure), and stubbed with their sampleData beside the files' targets.
    func testTargetsWrittenInCodeAreSentAndStubbed() async throws {
        let (url, server) = try server("echo-server.py")
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        Echo.base = URL(string: url)!
        var catalog = try bundledCatalog(echoURL: url)
        catalog.endpointClosure = { $0.adding(newHTTPHeaderFields: ["X-Trace": "1"]) }
        let live = try await TargetClient(catalog: catalog).send(Echo.note("hello"))
        let echoed = try JSONSerialization.jsonObject(with: live.data) as? [String: Any]
        XCTAssertEqual(echoed?["method"] as? String, "POST")
        XCTAssertEqual(echoed?["path"] as? String, "/notes")
        XCTAssertEqual(Data(base64Encoded: echoed?["body"] as? String ?? ""), Data("hello".utf8))
        let headers = (echoed?["headers"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }
        XCTAssertTrue(headers.contains("X-App: example") && headers.contains("X-Trace: 1"), "\(headers)")

        let stubs = try TargetStubs(catalog, stubbing: [Echo.ping])
        defer { stubs.uninstall() }
        let client = TargetClient(catalog: catalog, session: stubs.session())
        let pong = try await client.send(Echo.ping)
        XCTAssertEqual(String(decoding: pong.data, as: UTF8.self), #"{"pong":true}"#)
        let order = try await client.send("echo.order", params: ["id": "7"])
        XCTAssertEqual(order.statusCode, 200)
        // A HEAD is answered by the GET target, as `apicli mock` answers it.
        var head = try URLRequest(target: Echo.ping)
        head.httpMethod = "HEAD"
        let (_, response) = try await stubs.session().data(for: head)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(stubs.answered, ["Echo.ping", "echo.order", "Echo.ping"])
        // Two targets answering one route are refused when the stubs are built.
        XCTAssertThrowsError(try TargetStubs(stubbing: [Echo.ping, Echo.ping]))
    }

    /// Redirects as `apicli` follows them: at most 10, or none with `followRedirects: false`
    /// (apicli's Tests/Servers/faultserver.py answers /redirect-loop with a 302 to itself).
    func testRedirectsFollowApiclisRules() async throws {
        let (url, server) = try server("faultserver.py")
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
            service: faults
            baseURL: \(url)
            targets:
              loop: { path: /redirect-loop }
              stay: { path: /redirect-loop, followRedirects: false, validate: successAndRedirect }
            """.utf8).write(to: folder.appendingPathComponent("faults.yaml"))
        let client = TargetClient(catalog: try TargetCatalog(folder: folder))
        let stay = try await client.send("faults.stay")
        XCTAssertEqual(stay.statusCode, 302)
        XCTAssertEqual(stay.value(forHTTPHeaderField: "Location"), "/redirect-loop")
        do {
            _ = try await client.send("faults.loop")
            XCTFail("a redirect loop answered")
        } catch TargetsError.network(let target, let message, _) {
            XCTAssertEqual(target, "faults.loop")
            XCTAssertTrue(message.contains("too many redirects"), message)
        }
    }
}
