@testable import APITransport
import XCTest

/// The WHATWG "interpreting an event stream" rules, one test each, fed whole and byte by byte.
final class SSEParserTests: XCTestCase {
    /// Parses `text` fed in one chunk and fed one byte at a time; both must agree.
    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [SSEEvent] {
        parse(Array(text.utf8), file: file, line: line)
    }

    private func parse(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> [SSEEvent] {
        var whole = SSEParser()
        let once = whole.feed(bytes)
        var split = SSEParser()
        var bytewise: [SSEEvent] = []
        for b in bytes { bytewise += split.feed([b]) }
        XCTAssertEqual(once, bytewise, "byte-by-byte feeding differs", file: file, line: line)
        XCTAssertEqual(whole.retry, split.retry, file: file, line: line)
        return once
    }

    func testDataLinesJoinWithLineFeedAndTypeDefaultsToMessage() {
        XCTAssertEqual(parse("data: a\ndata: b\n\n"), [SSEEvent(type: "message", data: "a\nb")])
    }

    func testEventFieldSetsTypeForOneEventOnly() {
        XCTAssertEqual(parse("event: tick\ndata: 1\n\ndata: 2\n\n"),
                       [SSEEvent(type: "tick", data: "1"), SSEEvent(type: "message", data: "2")])
    }

    func testCRAndCRLFAndLFAllEndLines() {
        let expected = [SSEEvent(data: "x\ny"), SSEEvent(data: "z")]
        XCTAssertEqual(parse("data: x\rdata: y\r\rdata: z\r\r"), expected)
        XCTAssertEqual(parse("data: x\r\ndata: y\r\n\r\ndata: z\r\n\r\n"), expected)
        XCTAssertEqual(parse("data: x\ndata: y\r\n\rdata: z\n\r\n"), expected)
    }

    func testCRAtEndOfChunkThenLFIsOneLineEnd() {
        var parser = SSEParser()
        XCTAssertEqual(parser.feed(Array("data: a\r".utf8)), [])
        // The LF completes the CRLF; the following CR is the blank line that dispatches.
        XCTAssertEqual(parser.feed(Array("\n\r".utf8)), [SSEEvent(data: "a")])
    }

    func testLeadingBOMIsDroppedOnceOnly() {
        XCTAssertEqual(parse([0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)), [SSEEvent(data: "a")])
        // A second BOM is part of the line: the field is then "\u{FEFF}data", which is ignored.
        XCTAssertEqual(parse([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)), [])
        // A partial BOM prefix that is not a BOM is kept as bytes of the line.
        XCTAssertEqual(parse(Array("data: \u{00EF}\n\n".utf8)), [SSEEvent(data: "\u{00EF}")])
    }

    func testCommentsAreIgnored() {
        XCTAssertEqual(parse(": hello\n:\ndata: a\n: between\n\n"), [SSEEvent(data: "a")])
        XCTAssertEqual(parse(": only a comment\n\n"), [])
    }

    func testOneSpaceAfterColonIsStrippedNotMore() {
        XCTAssertEqual(parse("data:a\n\ndata:  b\n\ndata: \n\n"),
                       [SSEEvent(data: "a"), SSEEvent(data: " b"), SSEEvent(data: "")])
    }

    func testFieldWithoutColonHasEmptyValue() {
        XCTAssertEqual(parse("data\n\ndata\ndata\n\n"), [SSEEvent(data: ""), SSEEvent(data: "\n")])
        XCTAssertEqual(parse("event\ndata: a\n\n"), [SSEEvent(type: "message", data: "a")])
    }

    func testValueKeepsLaterColons() {
        XCTAssertEqual(parse("data: a: b:c\n\n"), [SSEEvent(data: "a: b:c")])
    }

    func testBlankLineWithoutDataDispatchesNothingAndResetsType() {
        XCTAssertEqual(parse("event: x\n\ndata: a\n\n"), [SSEEvent(type: "message", data: "a")])
    }

    func testIdPersistsAcrossEventsAndNulIsIgnored() {
        XCTAssertEqual(parse("id: 7\ndata: a\n\ndata: b\n\nid: 8\u{0}\ndata: c\n\nid\ndata: d\n\n"), [
            SSEEvent(data: "a", lastEventID: "7"), SSEEvent(data: "b", lastEventID: "7"),
            SSEEvent(data: "c", lastEventID: "7"), SSEEvent(data: "d", lastEventID: ""),
        ])
    }

    func testRetryCountsOnlyAllDigits() {
        var parser = SSEParser()
        _ = parser.feed(Array("retry: 1500\n".utf8))
        XCTAssertEqual(parser.retry, 1500)
        for bad in ["retry: 15x\n", "retry: -1\n", "retry: \n", "retry:  2\n", "retry: 99999999999999999999999\n"] {
            _ = parser.feed(Array(bad.utf8))
            XCTAssertEqual(parser.retry, 1500, bad)
        }
        XCTAssertEqual(parse("retry: 10\ndata: a\n\n"), [SSEEvent(data: "a")])
    }

    func testUnknownFieldsAreIgnored() {
        XCTAssertEqual(parse("foo: bar\ndata: a\nDATA: no\n\n"), [SSEEvent(data: "a")])
    }

    func testUnfinishedEventAtEndIsDiscarded() {
        var parser = SSEParser()
        XCTAssertEqual(parser.feed(Array("data: a\n\ndata: b\n".utf8)), [SSEEvent(data: "a")])
        parser.finish()
        XCTAssertEqual(parser.feed(Array("\n".utf8)), [])
    }

    func testInvalidUTF8BecomesReplacementCharacter() {
        XCTAssertEqual(parse(Array("data: a".utf8) + [0xFF] + Array("\n\n".utf8)), [SSEEvent(data: "a\u{FFFD}")])
    }
}
