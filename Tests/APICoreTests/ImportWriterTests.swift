import XCTest
@testable import APIYAML
@testable import APIImport

/// The YAML writer: what it writes reads back, through the project's own YAML layer, as the same data.
final class ImportWriterTests: XCTestCase {
    /// Strings that look like other types, hold indicators, or need escapes.
    static let awkward = [
        "", " ", "true", "False", "null", "~", "yes", "no", "on", "1", "-1", "0x1F", "1e3", ".5", "+1",
        "a: b", "a #b", "#x", "- x", "x:", "{a}", "/pets/{id}", "[1]", "a,b", "*ref", "&a", "!tag", "|", ">",
        "'q'", "\"q\"", "line\nbreak", "tab\there", "ü", "${VAR}", "@at", "%p", "`b`", "a\\b", "trailing ",
        "https://example.com/x?y=1", "\u{7f}", "\u{1}", "\u{85}", "a\u{2028}b", "\u{feff}x", "é\u{301}",
        "a" + String(Unicode.Scalar(0xfffe)!) + "b", String(Unicode.Scalar(0xffff)!), "\u{9b}2J",
        String(Unicode.Scalar(0xfdd0)!) + String(Unicode.Scalar(0x1fffe)!),
    ]

    func testEveryStringReadsBackAsTheSameText() throws {
        // GIVEN awkward strings as keys and values, in block and flow positions
        let value = YAMLOut.blockMap(Self.awkward.enumerated().map { i, s in
            .pair("k\(i)", .map([.pair(s.isEmpty ? "empty" : s, .string(s)), .pair("list", .list([.string(s)]))]))
        } + Self.awkward.enumerated().map { i, s in .pair("b\(i)", .string(s)) })
        // WHEN written and read back
        let text = YAMLWriter.document(value)
        let node = try XCTUnwrap(try YAMLParser.parse(Array(text.utf8)))
        // THEN it is the same data
        XCTAssertEqual(YAMLOut(node), Self.plain(value), text)
    }

    /// The same value with every mapping in flow form (how `YAMLOut(node)` reads any mapping).
    static func plain(_ v: YAMLOut) -> YAMLOut {
        switch v {
        case .list(let items): return .list(items.map(plain))
        case .map(let e), .blockMap(let e):
            return .map(e.compactMap { if case .pair(let k, let x) = $0 { return .pair(k, plain(x)) } else { return nil } })
        default: return v
        }
    }

    func testShortCollectionsAreFlowLongOnesAndCommentsAreBlocks() {
        let value = YAMLOut.blockMap([
            .comment("a note"),
            .pair("params", .map([.pair("id", .number("1")), .pair("name", .string("x y"))])),
            .pair("query", .map([.comment("page: 2   # optional")])),
            .pair("task", .map([.pair("query", .map([.pair("q", .string("a")), .comment("b: 1")]))])),
            .pair("long", .list((0..<30).map { .number(String($0)) })),
            .pair("parts", .list([.map([.pair("name", .string(String(repeating: "n", count: 90))), .pair("value", .null)])])),
        ])
        XCTAssertEqual(YAMLWriter.document(value, header: ["top"]), """
            # top
            # a note
            params: { id: 1, name: x y }
            query: {}
              # page: 2   # optional
            task:
              query:
                q: a
                # b: 1
            long:
              - 0
              - 1
              - 2
              - 3
              - 4
              - 5
              - 6
              - 7
              - 8
              - 9
              - 10
              - 11
              - 12
              - 13
              - 14
              - 15
              - 16
              - 17
              - 18
              - 19
              - 20
              - 21
              - 22
              - 23
              - 24
              - 25
              - 26
              - 27
              - 28
              - 29
            parts:
              - name: \(String(repeating: "n", count: 90))
                value: null

            """)
    }
}
