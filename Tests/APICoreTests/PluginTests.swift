import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APISecrets
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APISend
@testable import APIRecord
@testable import APIImport

/// The plugin protocol inside `Exchange.perform`: order of hooks, defaults, and the logger's text.
final class PluginTests: XCTestCase {
    /// Records every hook it sees into a shared log; `prepare` adds a header.
    private struct Recorder: Plugin {
        let name: String
        let log: Log

        func prepare(_ request: PreparedRequest) -> PreparedRequest {
            log.add("\(name).prepare")
            var out = request
            out.headers.append(HeaderField("X-\(name)", request.headers.map(\.name).joined(separator: ",")))
            return out
        }
        func willSend(_ request: PreparedRequest) { log.add("\(name).willSend \(request.headers.count)") }
        func didReceive(_ result: Result<Response, APIError>, for request: PreparedRequest) {
            log.add("\(name).didReceive \((try? result.get().status) ?? 0)")
        }
        func process(_ result: Result<Response, APIError>, for request: PreparedRequest) -> Result<Response, APIError> {
            log.add("\(name).process")
            return result.map { var r = $0; r.status += 1; return r }
        }
    }

    /// A plugin that implements nothing: every default applies.
    private struct Nothing: Plugin {}

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    private let request = PreparedRequest(url: URL(string: "https://api.test/zen")!, method: "GET",
                                          headers: [HeaderField("Accept", "text/plain")], body: nil, timeout: 5)

    private func stub(_ sample: Sample = Sample(status: 200, body: .text(Template("ok", mark: at(1, 1))), mark: at(1, 1))) -> StubTransport {
        StubTransport(sample: sample, bindings: Bindings(), file: inlineFile)
    }

    func testHooksRunInOrderAndPrepareChains() async throws {
        // GIVEN two recording plugins
        let log = Log()
        let plugins: [any Plugin] = [Recorder(name: "A", log: log), Recorder(name: "B", log: log)]
        // WHEN an exchange runs through them
        let exchange = try await Exchange.perform(request, transport: stub(), plugins: plugins)
        // THEN each hook runs for every plugin in order, prepare sees the previous plugin's request,
        // and process changes what the caller gets
        XCTAssertEqual(log.all, ["A.prepare", "B.prepare", "A.willSend 3", "B.willSend 3",
                                 "A.didReceive 200", "B.didReceive 200", "A.process", "B.process"])
        XCTAssertEqual(exchange.request.headers, [HeaderField("Accept", "text/plain"), HeaderField("X-A", "Accept"),
                                                  HeaderField("X-B", "Accept,X-A")])
        XCTAssertEqual(exchange.response.status, 202)
    }

    func testDefaultsChangeNothing() async throws {
        // GIVEN a plugin with no hooks of its own
        // WHEN an exchange runs through it
        let exchange = try await Exchange.perform(request, transport: stub(), plugins: [Nothing()])
        // THEN request and response are untouched
        XCTAssertEqual(exchange.request.headers, request.headers)
        XCTAssertEqual(exchange.response.status, 200)
        XCTAssertEqual(exchange.response.body.utf8Text, "ok")
    }

    func testFailuresReachDidReceiveAndAreThrown() async throws {
        // GIVEN a stub that fails as a network error
        let log = Log()
        let failing = stub(Sample(error: "offline", mark: at(1, 1)))
        // WHEN sent through a recorder
        do {
            _ = try await Exchange.perform(request, transport: failing,
                                           plugins: [Recorder(name: "A", log: log)])
            XCTFail("expected a network error")
        } catch {
            // THEN the plugin saw the failure and the caller gets it
            XCTAssertEqual(error, .network(.stubbed("offline")))
        }
        XCTAssertEqual(log.all, ["A.prepare", "A.willSend 2", "A.didReceive 0", "A.process"])
    }

    func testLoggerWritesRequestThenResponseHeadAndRejectedBodiesAtLevelTwo() async throws {
        // GIVEN a logger at -vv whose sink collects text, and a stub answering 404 with a body
        let log = Log()
        let redactor = Redactor(secrets: ["s3cr3t"])
        let logger = LoggerPlugin(level: .bodies, redactor: redactor, validation: .success, sink: { log.add($0) })
        let notFound = Sample(status: 404, body: .text(Template("no s3cr3t here", mark: at(1, 1))), mark: at(1, 1))
        var secretRequest = request
        secretRequest.headers.append(HeaderField("Authorization", "Bearer s3cr3t"))
        secretRequest.headers.append(HeaderField("X-Token", "s3cr3t"))
        // WHEN the exchange runs
        let exchange = try await Exchange.perform(secretRequest, transport: stub(notFound),
                                                  plugins: [logger])
        // THEN the request, the head and (rejected) the body are logged, secrets hidden
        XCTAssertEqual(exchange.response.status, 404)
        XCTAssertEqual(log.all.count, 2)
        XCTAssertEqual(log.all.first, "> GET https://api.test/zen\n> Accept: text/plain\n> Authorization: ••••\n> X-Token: ••••\n")
        let response = log.all.last ?? ""
        XCTAssertTrue(response.hasPrefix("< HTTP/1.1 404 Not Found  ("), response)
        XCTAssertTrue(response.hasSuffix(")\n< \nno •••• here\n"), response)
    }

    func testLoggerAtLevelOneLeavesBodiesOut() async throws {
        // GIVEN a logger at -v and the same rejected response
        let log = Log()
        let logger = LoggerPlugin(level: .heads, redactor: Redactor(secrets: []), validation: .success, sink: { log.add($0) })
        let notFound = Sample(status: 404, body: .text(Template("gone", mark: at(1, 1))), mark: at(1, 1))
        // WHEN the exchange runs
        _ = try await Exchange.perform(request, transport: stub(notFound), plugins: [logger])
        // THEN no body is logged
        XCTAssertFalse(log.all.joined().contains("gone"))
    }
}
