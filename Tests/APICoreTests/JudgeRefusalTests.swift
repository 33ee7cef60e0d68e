import XCTest
@testable import APISupport
@testable import APITargets
@testable import APITransport
@testable import APIVerdict

/// `call` and `record` judge a response through `Judge.refusal`: the status by `validate:`, then
/// GraphQL errors when the target asks.
final class JudgeRefusalTests: XCTestCase {
    private func response(_ status: Int, body: String = "{}", httpVersion: String = "HTTP/1.1") -> Response {
        Response(status: status, headers: [], body: Data(body.utf8), duration: 0.01, httpVersion: httpVersion)
    }

    func testAStatusValidateRejectsIsRefusedWithItsReasonPhrase() {
        let refusal = Judge.refusal(response(404), validation: .success)
        XCTAssertEqual(refusal, .status("404 Not Found", .success))
        XCTAssertEqual(refusal?.message, "status 404 Not Found is not accepted by validate: success (200-299)")
        XCTAssertNil(Judge.refusal(response(204), validation: .success))
        XCTAssertNil(Judge.refusal(response(500), validation: .none))
        // a code without a reason phrase: the code alone
        XCTAssertEqual(Judge.refusal(response(599), validation: .success)?.message,
                       "status 599 is not accepted by validate: success (200-299)")
    }

    func testTheStatusIsTheSameOverHTTP2() {
        // The old message cut "HTTP/1.1 " (9 characters) off the status line: over HTTP/2 it read "4 Not Found".
        XCTAssertEqual(Judge.refusal(response(404, httpVersion: "HTTP/2"), validation: .success)?.message,
                       "status 404 Not Found is not accepted by validate: success (200-299)")
    }

    func testAWebSocketConversationHasNoStatusToRefuse() {
        var conversation = response(101)
        conversation.messages = [ReceivedMessage(text: "hi", at: 0)]
        XCTAssertTrue(Judge.accepts(.success, conversation))
        XCTAssertNil(Judge.refusal(conversation, validation: .success))
        XCTAssertFalse(Judge.accepts(.success, response(101)))
    }

    func testGraphQLErrorsOnlyWhenAskedAndHeld() {
        let body = #"{"data":null,"errors":[{"message":"no such field","path":["user","nick"]}]}"#
        XCTAssertNil(Judge.refusal(response(200, body: body), validation: .success))
        XCTAssertEqual(Judge.refusal(response(200, body: body), validation: .success, graphqlErrors: true),
                       .graphql("graphql errors: no such field (at user.nick)"))
        // the status is judged first
        XCTAssertEqual(Judge.refusal(response(500, body: body), validation: .success, graphqlErrors: true),
                       .status("500 Internal Server Error", .success))
        XCTAssertNil(Judge.refusal(response(200, body: #"{"data":{}}"#), validation: .success, graphqlErrors: true))
    }

    func testCheckJudgesTheStatusByTheSameRule() {
        var conversation = response(101)
        conversation.messages = []
        XCTAssertEqual(Judge.failures(nil, validation: .success, response: conversation), [])
        XCTAssertEqual(Judge.failures(nil, validation: .success, response: response(404)),
                       ["status 404 is not accepted by validate: success (200-299)"])
    }
}
