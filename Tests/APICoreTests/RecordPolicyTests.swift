import Foundation
import XCTest
@testable import APISupport
@testable import APISecrets
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APIRecord

/// What `record` never writes (`RecordedSample.Options(workspace:sent:)`) and what it cannot
/// record at all (`RecordedSample.unrecordable`).
final class RecordPolicyTests: XCTestCase {
    private func sent(_ headers: [HeaderField]) -> PreparedRequest {
        PreparedRequest(url: URL(string: "http://127.0.0.1/echo")!, method: "GET", headers: headers, body: nil, timeout: 5)
    }

    func testSecretVariablesByNameAndCredentialsSentAreNeverWritten() throws {
        // GIVEN a workspace with a secret variable (by its name), a plain one and an empty secret
        let workspace = Workspace(variables: ["API_TOKEN": "tok-12345", "USER_NAME": "bob-the-user", "EMPTY_KEY": ""])
        // and a request that sent a credential header of no variable, and a plain header
        let request = sent([HeaderField("Authorization", "Basic c2VjcmV0OnBhc3M="), HeaderField("X-Trace", "trace-77")])
        let options = RecordedSample.Options(masks: ["$.id"], keepHeaders: ["Date"], workspace: workspace, sent: request)
        XCTAssertEqual(options.masks, ["$.id"])
        XCTAssertEqual(options.keepHeaders, ["Date"])
        // THEN the secret variable is written as its reference, the credential whole as ••••, the rest as is
        XCTAssertEqual(options.secrets.map { "\($0.name)=\($0.value)" }, ["=Basic c2VjcmV0OnBhc3M=", "API_TOKEN=tok-12345"])
        let response = Response(status: 200, headers: [HeaderField("X-Echo", "tok-12345 bob-the-user trace-77")],
                                body: Data(#"{"auth":"Basic c2VjcmV0OnBhc3M=","user":"bob-the-user"}"#.utf8), duration: 0)
        let sample = RecordedSample(response, options: options)
        XCTAssertEqual(sample.headers.first { $0.name == "X-Echo" }?.value, "${API_TOKEN:-••••} bob-the-user trace-77")
        guard case .json(let body)? = sample.body else { return XCTFail("\(String(describing: sample.body))") }
        XCTAssertEqual(body.jsonText, #"{"auth":"••••","user":"bob-the-user"}"#)
    }

    func testACredentialHoldingANamedSecretShowsItsReference() {
        let workspace = Workspace(variables: ["API_TOKEN": "tok-12345"])
        let options = RecordedSample.Options(workspace: workspace, sent: sent([HeaderField("authorization", "Bearer tok-12345")]))
        // the header is not hidden whole: an echo of it still reads `Bearer ${API_TOKEN:-••••}`
        XCTAssertEqual(options.secrets.map(\.name), ["API_TOKEN"])
    }

    func testSecretsTheRunCollectedAreNeverWritten() throws {
        // GIVEN a secret the run captured (`secret: true`), which no variable holds
        let workspace = Workspace(variables: [:])
        workspace.hide("captured-session-id")
        let options = RecordedSample.Options(workspace: workspace, sent: sent([]))
        // THEN it is written as ••••, wherever it is met
        XCTAssertEqual(options.secrets.map { "\($0.name)=\($0.value)" }, ["=captured-session-id"])
        let response = Response(status: 200, headers: [], body: Data("id: captured-session-id".utf8), duration: 0)
        XCTAssertEqual(RecordedSample(response, options: options).body, .text("id: ••••"))
    }

    func testABinaryMessageCannotBeRecorded() {
        var response = Response(status: 101, headers: [], body: Data(), duration: 0)
        XCTAssertNil(RecordedSample.unrecordable(response))
        response.messages = [ReceivedMessage(text: "hi", at: 0)]
        XCTAssertNil(RecordedSample.unrecordable(response))
        response.messages?.append(ReceivedMessage(binary: true, data: Data([1, 2, 3]), at: 0.1))
        XCTAssertEqual(RecordedSample.unrecordable(response),
                       "a binary message came (3 bytes); a messages: sample holds text messages only")
    }
}
