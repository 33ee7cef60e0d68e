import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import APITargetsKit
import APITargetsURLSession
import TestServers

/// A target written in code, in Moya's shape: its URLRequest from the one factory (as a target
/// file's), sent by `TargetClient` to a local echo server, and stubbed by `TargetStubs` with its
/// `sampleData`. (Named to run after StubURLProtocolTests: see its shared-session test.)
final class TypedTargetTests: XCTestCase {
    enum Shop: TargetType {
        case item(id: Int)
        case create(Data)
        case strict
        case upload(URL)
        case parts

        static let base = Locked("http://127.0.0.1:9")
        var baseURL: URL { URL(string: Self.base.value + "/v1")! }
        var path: String {
            switch self {
            case .item(let id): return "/items/\(id)"
            case .create, .strict: return "/items"
            case .upload: return "/upload"
            case .parts: return "/parts"
            }
        }
        var method: HTTPMethod {
            switch self {
            case .item: return .get
            case .create, .strict, .parts: return .post
            case .upload: return .put
            }
        }
        var task: TargetTask {
            switch self {
            case .create(let data): return .requestData(data)
            case .upload(let file): return .uploadFile(file)
            case .parts: return .uploadMultipart(parts: ["a"])
            default: return .requestPlain
            }
        }
        var headers: [String: String]? { ["X-Team": "apps"] }
        var sampleData: Data {
            switch self {
            case .item(let id): return Data(#"{"id":\#(id)}"#.utf8)
            default: return Data("made".utf8)
            }
        }
        var validationType: ValidationType {
            if case .strict = self { return .customCodes([201]) }
            return .successCodes
        }
    }

    /// A value a test sets before the targets read it.
    final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value {
            get { lock.lock(); defer { lock.unlock() }; return stored }
            set { lock.lock(); stored = newValue; lock.unlock() }
        }
    }

    /// The same GET as a target file: the code target's request is the factory's.
    func catalog(_ base: String, _ test: XCTestCase) throws -> TargetCatalog {
        try TargetCatalog(folder: Library.folder(["shop.yaml": """
            service: shop
            baseURL: \(base)/v1
            timeout: 60
            targets:
              item: { path: "/items/{id}", headers: { X-Team: apps }, sample: { json: { id: 0 } } }
            """], test))
    }

    func testTheRequestIsTheFactorysAsForATargetFile() throws {
        Shop.base.value = "http://127.0.0.1:9"
        let catalog = try catalog("http://127.0.0.1:9", self)
        let coded = try URLRequest(target: Shop.item(id: 7))
        let filed = try catalog.urlRequest("shop.item", parameters: ["id": "7"])
        XCTAssertEqual(coded.url, URL(string: "http://127.0.0.1:9/v1/items/7"))
        XCTAssertEqual(coded.url, filed.url)
        XCTAssertEqual(coded.httpMethod, filed.httpMethod)
        XCTAssertEqual(coded.allHTTPHeaderFields, filed.allHTTPHeaderFields)
        XCTAssertEqual(coded.value(forHTTPHeaderField: "User-Agent")?.hasPrefix("apicli/"), true)
        XCTAssertEqual(coded.timeoutInterval, filed.timeoutInterval)

        let created = try URLRequest(target: Shop.create(Data([0, 1, 2])))
        XCTAssertEqual(created.httpMethod, "POST")
        XCTAssertEqual(created.httpBody, Data([0, 1, 2]))

        XCTAssertThrowsError(try URLRequest(target: Shop.parts)) { error in
            guard case .unsupported(let target, _)? = error as? TargetsError else { return XCTFail("\(error)") }
            XCTAssertEqual(target, "Shop.parts")
        }
    }

    func testTheClientSendsACodeTargetAndJudgesItsValidation() async throws {
        let server = try TestServer("echo-server.py", ["--lifetime", "60"])
        defer { server.stop() }
        Shop.base.value = server.url
        var catalog = try catalog(server.url, self)
        catalog.endpointClosure = { $0.adding(newHTTPHeaderFields: ["X-Trace": "1"]) }
        let client = TargetClient(catalog: catalog)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID().uuidString).txt")
        try Data("file bytes".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for (target, method, path, body) in [(Shop.create(Data("raw".utf8)), "POST", "/v1/items", "raw"),
                                             (Shop.upload(file), "PUT", "/v1/upload", "file bytes")] {
            let response = try await client.send(target)
            XCTAssertTrue(response.targetName.hasPrefix("Shop.create(") || response.targetName.hasPrefix("Shop.upload("), response.targetName)
            let echoed = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
            XCTAssertEqual(echoed?["method"] as? String, method)
            XCTAssertEqual(echoed?["path"] as? String, path)
            XCTAssertEqual(Data(base64Encoded: echoed?["body"] as? String ?? ""), Data(body.utf8))
            let headers = (echoed?["headers"] as? [[String]] ?? []).map { $0.joined(separator: ": ") }
            XCTAssertTrue(headers.contains("X-Team: apps"), "\(headers)")
            XCTAssertTrue(headers.contains("X-Trace: 1"), "the endpoint closure maps code targets too: \(headers)")
        }

        // Without a catalogue: code targets only, no endpoint closure.
        let bare = TargetClient()
        let echoed = try JSONSerialization.jsonObject(with: try await bare.send(Shop.item(id: 3)).data) as? [String: Any]
        XCTAssertEqual(echoed?["path"] as? String, "/v1/items/3")
        XCTAssertFalse((echoed?["headers"] as? [[String]] ?? []).contains { $0.first == "X-Trace" })
        let none = await Library.error { try await bare.send("shop.item") }
        guard case .invalid(let problems)? = none as? TargetsError else { return XCTFail("\(String(describing: none))") }
        XCTAssertEqual(problems.first?.message, "shop.item: this client has no target files")

        let error = await Library.error { try await client.send(Shop.strict) }
        guard case .rejected(let target, let status, let failures)? = error as? TargetsError else {
            return XCTFail("a 200 passed validationType .customCodes([201]): \(String(describing: error))")
        }
        XCTAssertEqual(target, "Shop.strict")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(failures.count, 1)
    }

    func testStubsAnswerCodeTargetsWithTheirSampleData() async throws {
        Shop.base.value = "https://shop.test"
        let stubs = try TargetStubs(stubbing: [Shop.item(id: 7), Shop.create(Data())], behavior: .immediate)
        defer { stubs.uninstall() }
        let session = stubs.session()
        let (data, response) = try await session.data(for: URLRequest(target: Shop.item(id: 7)))
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"id":7}"#)
        var head = try URLRequest(target: Shop.item(id: 7))
        head.httpMethod = "HEAD"
        let (none, headResponse) = try await session.data(for: head)
        XCTAssertEqual((headResponse as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(none, Data())

        // Another id is another request: unmatched, the closest named.
        let error = await Library.error { try await session.data(for: URLRequest(target: Shop.item(id: 8))) }
        XCTAssertEqual((error as? URLError)?.code, .unsupportedURL)
        XCTAssertTrue(stubs.unmatched.first?.contains("closest: Shop.item(id: 7) (GET /v1/items/7)") == true, "\(stubs.unmatched)")

        // The client over the stubs, with file targets beside.
        let both = try TargetStubs(catalog("https://shop.test", self), stubbing: [Shop.create(Data())], behavior: .immediate)
        defer { both.uninstall() }
        let client = TargetClient(catalog: try catalog("https://shop.test", self), session: both.session())
        let made = try await client.send(Shop.create(Data("x".utf8)))
        XCTAssertEqual(String(decoding: made.data, as: UTF8.self), "made")
        let filed = try await client.send("shop.item", params: ["id": "3"])
        XCTAssertEqual(String(decoding: filed.data, as: UTF8.self), #"{"id":0}"#)
        XCTAssertEqual(both.answered, ["Shop.create(0 bytes)", "shop.item"])

        XCTAssertThrowsError(try TargetStubs(stubbing: [Shop.create(Data()), Shop.strict])) { error in
            guard case .invalid(let problems)? = error as? TargetsError else { return XCTFail("\(error)") }
            XCTAssertEqual(problems.map(\.message), ["route conflict: Shop.strict and Shop.create(0 bytes) both answer POST /v1/items"])
        }
    }
}
