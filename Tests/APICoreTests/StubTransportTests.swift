import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APISchema
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APIImport

/// `StubTransport`: a target's sample as the response — status, headers, body, error, delay.
final class StubTransportTests: XCTestCase {

    private func request(timeout: Double = 10) -> PreparedRequest {
        PreparedRequest(url: URL(string: "https://api.test/zen")!, method: "GET", headers: [], body: nil, timeout: timeout)
    }

    private func send(_ sample: Sample, bindings: Bindings = Bindings(), timeout: Double = 10) async throws(APIError) -> Response {
        try await StubTransport(sample: sample, bindings: bindings, file: inlineFile).send(request(timeout: timeout))
    }

    /// The error `send` throws, or nil and a failure.
    private func sendError(_ sample: Sample, timeout: Double = 10,
                           file: StaticString = #filePath, line: UInt = #line) async -> APIError? {
        do {
            let response = try await send(sample, timeout: timeout)
            XCTFail("expected an error, got status \(response.status)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func contractSample(_ target: String, _ name: String? = nil) throws -> Sample {
        let service = try TargetFile.load(Fixtures.path("catalog/github.yaml"))
        return try XCTUnwrap(service.requireTarget(target).sample(named: name))
    }

    // MARK: Responses

    func testTextSampleReturnsStatusHeadersAndBody() async throws {
        // GIVEN the contract's zen sample
        let sample = try contractSample("zen")
        // WHEN sent
        let response = try await send(sample)
        // THEN its status, headers and body come back as declared
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers, [HeaderField("Content-Type", "text/plain")])
        XCTAssertEqual(response.body.utf8Text, "Design for failure.")
        XCTAssertEqual(response.statusLine, "HTTP/1.1 200 OK")
    }

    func testJSONSampleGetsAJSONContentType() async throws {
        // GIVEN the contract's notFound sample (JSON, no headers)
        let sample = try contractSample("userProfile", "notFound")
        // WHEN sent
        let response = try await send(sample)
        // THEN the body is the JSON text and the content type is added
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(response.headers, [HeaderField("Content-Type", "application/json")])
        XCTAssertEqual(response.body.utf8Text, #"{"message":"Not Found"}"#)
        XCTAssertEqual(response.statusLine, "HTTP/1.1 404 Not Found")
    }

    func testDeclaredContentTypeIsKeptForJSONSamples() async throws {
        // GIVEN a JSON sample that declares its own content type (in another case)
        let sample = Sample(status: 201, headers: [Header(name: "content-type", value: Template("application/hal+json", mark: at(1, 1)))],
                            body: .json(.object([.init(key: "id", value: .number("1"))])), mark: at(1, 1))
        // WHEN sent
        let response = try await send(sample)
        // THEN no second Content-Type is added
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.headers, [HeaderField("content-type", "application/hal+json")])
        XCTAssertEqual(response.body.utf8Text, #"{"id":1}"#)
    }

    func testSampleTemplatesExpandWithTheBindings() async throws {
        // GIVEN a sample whose header, text body and JSON body use params and variables
        let text = Sample(headers: [Header(name: "X-User", value: Template("{name}", mark: at(1, 1)))],
                          body: .text(Template("hello {name}, {unknown} ${HOME}", mark: at(2, 1))), mark: at(1, 1))
        let json = Sample(body: .json(.object([.init(key: "login", value: .string(Template("{name}", mark: at(3, 1))))])), mark: at(1, 1))
        let bindings = Bindings(params: ["name": "moya"], environment: ["HOME": "/home/moya"])
        // WHEN sent
        let textResponse = try await send(text, bindings: bindings)
        let jsonResponse = try await send(json, bindings: bindings)
        // THEN known names expand, unknown braces in text stay
        XCTAssertEqual(textResponse.headers, [HeaderField("X-User", "moya")])
        XCTAssertEqual(textResponse.body.utf8Text, "hello moya, {unknown} /home/moya")
        XCTAssertEqual(jsonResponse.body.utf8Text, #"{"login":"moya"}"#)
    }

    func testFileSampleReturnsTheFilesBytes() async throws {
        // GIVEN the files fixture, whose upload sample is user.json
        let service = try TargetFile.load(Fixtures.path("files/files.yaml"))
        let sample = try XCTUnwrap(service.requireTarget("upload").sample)
        // WHEN sent
        let response = try await send(sample)
        // THEN the body is the file as it is, with no content type added
        XCTAssertEqual(response.body.utf8Text, "{\"login\":\"moya\",\"id\":13662162}\n")
        XCTAssertEqual(response.headers, [])
    }

    func testMissingSampleFileIsADiagnostic() async {
        // GIVEN a sample naming a file that has gone
        let sample = Sample(body: .file("/nonexistent-dir/user.json", mark: at(4, 21)), mark: at(4, 13))
        // WHEN sent
        let error = await sendError(sample)
        // THEN it says which file could not be read, where it was declared
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: inlineFile, mark: at(4, 21),
                                                        message: "cannot read sample file /nonexistent-dir/user.json")]))
    }

    func testEmptySampleIsA200WithNoBody() async throws {
        // GIVEN a sample with nothing declared
        let response = try await send(Sample(mark: at(1, 1)))
        // THEN it is an empty 200
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers, [])
        XCTAssertEqual(response.body, Data())
    }

    // MARK: Errors and delays

    func testErrorSampleThrowsANetworkError() async throws {
        // GIVEN the contract's offline sample
        let sample = try contractSample("userProfile", "offline")
        // WHEN sent
        let error = await sendError(sample)
        // THEN it fails as the network would, with the sample's message
        XCTAssertEqual(error, .network(.stubbed("The Internet connection appears to be offline.")))
    }

    func testDelayIsHonoured() async throws {
        // GIVEN a sample delayed by 0.3 s
        let sample = Sample(body: .text(Template("late", mark: at(1, 1))), delay: 0.3, mark: at(1, 1))
        // WHEN sent
        let start = Date()
        let response = try await send(sample)
        let elapsed = Date().timeIntervalSince(start)
        // THEN the answer took at least the delay (and not absurdly longer)
        XCTAssertGreaterThanOrEqual(elapsed, 0.29)
        XCTAssertLessThan(elapsed, 5)
        XCTAssertGreaterThanOrEqual(response.duration, 0.29)
        XCTAssertEqual(response.body.utf8Text, "late")
    }

    func testContractSlowSampleWaitsItsDelay() async throws {
        // GIVEN the contract's slow sample (1.5 s)
        let sample = try contractSample("userProfile", "slow")
        // WHEN sent
        let start = Date()
        let response = try await send(sample)
        let elapsed = Date().timeIntervalSince(start)
        // THEN it waited, then answered with its JSON
        XCTAssertGreaterThanOrEqual(elapsed, 1.49)
        XCTAssertLessThan(elapsed, 8)
        XCTAssertEqual(response.body.utf8Text, "{}")
    }

    func testDelayLongerThanTheTimeoutTimesOutAtTheTimeout() async {
        // GIVEN a 3 s delay and a 0.2 s request timeout
        let sample = Sample(delay: 3, mark: at(1, 1))
        // WHEN sent
        let start = Date()
        let error = await sendError(sample, timeout: 0.2)
        let elapsed = Date().timeIntervalSince(start)
        // THEN it times out after the timeout, not after the delay
        XCTAssertEqual(error, .timedOut(0.2))
        XCTAssertGreaterThanOrEqual(elapsed, 0.19)
        XCTAssertLessThan(elapsed, 2.5)
    }

    func testDelayBeforeAnErrorSample() async {
        // GIVEN an error sample with a delay
        let sample = Sample(error: "connection reset", delay: 0.2, mark: at(1, 1))
        // WHEN sent
        let start = Date()
        let error = await sendError(sample)
        // THEN it fails after the delay
        XCTAssertEqual(error, .network(.stubbed("connection reset")))
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.19)
    }
}
