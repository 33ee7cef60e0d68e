@testable import APITransport
import XCTest

/// The WHATWG "interpreting an event stream" rules, one test each, fed whole and byte by byte.
final class SSEParserTests: XCTestCase {
    /// Parses `text` fed in one chunk and fed one byte at a time; both must agree.
    private func parse(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [SSEEvent] {
        try parse(Array(text.utf8), file: file, line: line)
    }

    private func parse(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> [SSEEvent] {
        var whole = SSEParser()
        let once = try whole.feed(bytes)
        var split = SSEParser()
        var bytewise: [SSEEvent] = []
        for b in bytes { bytewise += try split.feed([b]) }
        XCTAssertEqual(once, bytewise, "byte-by-byte feeding differs", file: file, line: line)
        XCTAssertEqual(whole.retry, split.retry, file: file, line: line)
        return once
    }

    func testDataLinesJoinWithLineFeedAndTypeDefaultsToMessage() throws {
        XCTAssertEqual(try parse("data: a\ndata: b\n\n"), [SSEEvent(type: "message", data: "a\nb")])
    }

    func testEventFieldSetsTypeForOneEventOnly() throws {
        XCTAssertEqual(try parse("event: tick\ndata: 1\n\ndata: 2\n\n"),
                       [SSEEvent(type: "tick", data: "1"), SSEEvent(type: "message", data: "2")])
    }

    func testCRAndCRLFAndLFAllEndLines() throws {
        let expected = [SSEEvent(data: "x\ny"), SSEEvent(data: "z")]
        XCTAssertEqual(try parse("data: x\rdata: y\r\rdata: z\r\r"), expected)
        XCTAssertEqual(try parse("data: x\r\ndata: y\r\n\r\ndata: z\r\n\r\n"), expected)
        XCTAssertEqual(try parse("data: x\ndata: y\r\n\rdata: z\n\r\n"), expected)
    }

    func testCRAtEndOfChunkThenLFIsOneLineEnd() throws {
        var parser = SSEParser()
        XCTAssertEqual(try parser.feed(Array("data: a\r".utf8)), [])
        // The LF completes the CRLF; the following CR is the blank line that dispatches.
        XCTAssertEqual(try parser.feed(Array("\n\r".utf8)), [SSEEvent(data: "a")])
    }

    func testLeadingBOMIsDroppedOnceOnly() throws {
        XCTAssertEqual(try parse([0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)), [SSEEvent(data: "a")])
        // A second BOM is part of the line: the field is then "\u{FEFF}data", which is ignored.
        XCTAssertEqual(try parse([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("data: a\n\n".utf8)), [])
        // A partial BOM prefix that is not a BOM is kept as bytes of the line.
        XCTAssertEqual(try parse(Array("data: \u{00EF}\n\n".utf8)), [SSEEvent(data: "\u{00EF}")])
    }

    func testCommentsAreIgnored() throws {
        XCTAssertEqual(try parse(": hello\n:\ndata: a\n: between\n\n"), [SSEEvent(data: "a")])
        XCTAssertEqual(try parse(": only a comment\n\n"), [])
    }

    func testOneSpaceAfterColonIsStrippedNotMore() throws {
        XCTAssertEqual(try parse("data:a\n\ndata:  b\n\ndata: \n\n"),
                       [SSEEvent(data: "a"), SSEEvent(data: " b"), SSEEvent(data: "")])
    }

    func testFieldWithoutColonHasEmptyValue() throws {
        XCTAssertEqual(try parse("data\n\ndata\ndata\n\n"), [SSEEvent(data: ""), SSEEvent(data: "\n")])
        XCTAssertEqual(try parse("event\ndata: a\n\n"), [SSEEvent(type: "message", data: "a")])
    }

    func testValueKeepsLaterColons() throws {
        XCTAssertEqual(try parse("data: a: b:c\n\n"), [SSEEvent(data: "a: b:c")])
    }

    func testBlankLineWithoutDataDispatchesNothingAndResetsType() throws {
        XCTAssertEqual(try parse("event: x\n\ndata: a\n\n"), [SSEEvent(type: "message", data: "a")])
    }

    func testIdPersistsAcrossEventsAndNulIsIgnored() throws {
        XCTAssertEqual(try parse("id: 7\ndata: a\n\ndata: b\n\nid: 8\u{0}\ndata: c\n\nid\ndata: d\n\n"), [
            SSEEvent(data: "a", lastEventID: "7"), SSEEvent(data: "b", lastEventID: "7"),
            SSEEvent(data: "c", lastEventID: "7"), SSEEvent(data: "d", lastEventID: ""),
        ])
    }

    func testRetryCountsOnlyAllDigits() throws {
        var parser = SSEParser()
        _ = try parser.feed(Array("retry: 1500\n".utf8))
        XCTAssertEqual(parser.retry, 1500)
        for bad in ["retry: 15x\n", "retry: -1\n", "retry: \n", "retry:  2\n", "retry: 99999999999999999999999\n"] {
            _ = try parser.feed(Array(bad.utf8))
            XCTAssertEqual(parser.retry, 1500, bad)
        }
        XCTAssertEqual(try parse("retry: 10\ndata: a\n\n"), [SSEEvent(data: "a")])
    }

    func testUnknownFieldsAreIgnored() throws {
        XCTAssertEqual(try parse("foo: bar\ndata: a\nDATA: no\n\n"), [SSEEvent(data: "a")])
    }

    func testUnfinishedEventAtEndIsDiscarded() throws {
        var parser = SSEParser()
        XCTAssertEqual(try parser.feed(Array("data: a\n\ndata: b\n".utf8)), [SSEEvent(data: "a")])
        parser.finish()
        XCTAssertEqual(try parser.feed(Array("\n".utf8)), [])
    }

    func testInvalidUTF8BecomesReplacementCharacter() throws {
        XCTAssertEqual(try parse(Array("data: a".utf8) + [0xFF] + Array("\n\n".utf8)), [SSEEvent(data: "a\u{FFFD}")])
    }

    /// A line, and an event's data, past `maxEvent` bytes end the parse (a server's endless line is
    /// never held whole); up to it, all is as before. The data's size is its joined lines.
    func testALineOrAnEventPastTheLimitIsAnError() throws {
        var fits = SSEParser(maxEvent: 16)
        XCTAssertEqual(try fits.feed(Array("data: 0123456789\n\ndata: 0123456\ndata: 01234567\n\n".utf8)),
                       [SSEEvent(data: "0123456789"), SSEEvent(data: "0123456\n01234567")])
        let cases: [(String, SSEParser.TooLarge)] = [
            ("data: 01234567890\n", .init(line: true, limit: 16)),         // 17 bytes before the line ends
            (": " + String(repeating: "c", count: 100), .init(line: true, limit: 16)),  // a comment too; no line end needed
            ("data: 01234567\ndata: 01234567\n", .init(line: false, limit: 16)),  // two lines, 17 bytes joined
        ]
        for (text, expected) in cases {
            var whole = SSEParser(maxEvent: 16)
            XCTAssertThrowsError(try whole.feed(Array(text.utf8)), text) { XCTAssertEqual($0 as? SSEParser.TooLarge, expected, text) }
            var bytewise = SSEParser(maxEvent: 16)
            XCTAssertThrowsError(try Array(text.utf8).forEach { _ = try bytewise.feed([$0]) }, text)
        }
        XCTAssertEqual(SSEParser().maxEvent, 8 << 20, "the documented default")
        XCTAssertEqual(SSEParser.TooLarge(line: true, limit: 16).failure(host: "h:1").summary,
                       "network error: an event-stream line from h:1 is longer than 16 bytes (--max-event-size, or stream: { maxEventSize: } in the target)")
    }
}
