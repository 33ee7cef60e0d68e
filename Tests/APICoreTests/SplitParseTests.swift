import XCTest
@testable import APIYAML
@testable import APIEndpoint
@testable import APIImport

/// `SplitParse` reads a large file in two parts on two threads; whatever it returns must be the
/// tree one reading gives, and wherever that cannot be shown it must return nil (one reading then).
final class SplitParseTests: XCTestCase {
    private func dump(_ node: Node?) -> String { treeDump(node) }

    private func targets(_ n: Int, entry: (Int) -> String = { i in
        "  t\(i):\n    path: /items/{id}/t\(i)\n    params: { id: \(i) }\n    sample: { status: 200, json: { id: \(i) } }\n"
    }) -> String {
        (0..<n).map(entry).joined()
    }

    /// The split tree when the file is split; asserts it equals one reading's.
    @discardableResult
    private func assertSameTree(_ text: String, split expected: Bool, file: StaticString = #filePath, line: UInt = #line) throws -> Node? {
        let bytes = Array(text.utf8)
        let two = SplitParse.parse(bytes, limits: .init(), minimumSize: 0)
        XCTAssertEqual(two != nil, expected, "split or not", file: file, line: line)
        let one: Node?
        do { one = try YAMLParser.serial(bytes) } catch {
            // One reading's error: no split tree, and `parse` throws the same error.
            XCTAssertNil(two, file: file, line: line)
            XCTAssertThrowsError(try YAMLParser.parse(bytes), file: file, line: line) {
                XCTAssertEqual($0 as? YAMLError, error, file: file, line: line)
            }
            return nil
        }
        if let two { XCTAssertEqual(dump(two), dump(one), file: file, line: line) }
        // Whatever happens inside, `parse` gives one reading's tree.
        XCTAssertEqual(dump(try YAMLParser.parse(bytes)), dump(one), file: file, line: line)
        return two
    }

    func testAGeneratedFileIsSplitAndJoinsToTheSameTree() throws {
        let text = "baseURL: http://127.0.0.1:9\nvalidate: success\ntargets:\n" + targets(400) + "doc: after the targets\n"
        let tree = try assertSameTree(text, split: true)
        XCTAssertEqual(tree?.pairs?.map { $0.key.scalarText ?? "" }, ["baseURL", "validate", "targets", "doc"])
        XCTAssertEqual(tree?.pairs?[2].value.pairs?.count, 400)
    }

    func testLineBreaksCommentsAndBlockScalarsAroundTheCut() throws {
        let crlf = ("baseURL: x\r\ntargets:   # all of them\r\n" + targets(1000)).replacingOccurrences(of: "\n", with: "\r\n")
            .replacingOccurrences(of: "\r\r\n", with: "\r\n")
        try assertSameTree(crlf, split: true)
        let blocks = "baseURL: x\n# a comment\ntargets:\n\n  # first\n" + targets(1000) { i in
            "  t\(i):\n    doc: |+\n      line \(i)\n\n    sample:\n      body: >\n        folded\n        text\n\n\n"
        }
        try assertSameTree(blocks, split: true)
        // Lines that end with NEL or LS count as lines to libyaml: the marks must still agree.
        let nel = "baseURL: x\ntargets:\n" + targets(1000) { i in "  t\(i): { doc: \"a\u{2028}b\u{85}c\" }\n" }
        try assertSameTree(nel, split: true)
    }

    func testWhatOneReadingRejectsIsNotSplit() throws {
        let body = targets(1000)
        // A key of the second half written in the first: the duplicate is one reading's error.
        let dup = "baseURL: x\ntargets:\n" + body + "  t3: {}\n"
        XCTAssertNil(SplitParse.parse(Array(dup.utf8), limits: .init(), minimumSize: 0))
        XCTAssertThrowsError(try YAMLParser.parse(Array(dup.utf8))) { error in
            XCTAssertEqual(error as? YAMLError, Self.error(dup))
            XCTAssertEqual((error as? YAMLError)?.kind, .duplicateKey)
        }
        // A root key after the targets that is also before them.
        try assertSameTree("baseURL: x\ntargets:\n" + body + "baseURL: y\n", split: false)
        // An alias in the second half to an anchor of the first.
        try assertSameTree("baseURL: x\ntargets:\n  t: &a { path: /a }\n" + body + "  last: *a\n", split: false)
        // An alias to an anchor of its own half is fine.
        try assertSameTree("baseURL: x\ntargets:\n" + body + "  a: &a { path: /a }\n  b: *a\n", split: true)
        // `<<` in the targets mapping: a merged key gives way to a key written after it.
        try assertSameTree("baseURL: x\nbase: &b { zz: { path: /m } }\ntargets:\n  <<: *b\n" + body + "  zz: { path: /z }\n", split: false)
        // Directives and an explicit document end.
        try assertSameTree("%YAML 1.1\n---\nbaseURL: x\ntargets:\n" + body, split: false)
        try assertSameTree("---\nbaseURL: x\ntargets:\n" + body, split: true)
        // A quoted scalar open across the middle is an error of the first half alone.
        let quoted = "baseURL: x\ntargets:\n  q: \"" + String(repeating: "word\n  t: x\n", count: 20000) + "\"\n" + body
        try assertSameTree(quoted, split: false)
        // A flow mapping across the middle.
        try assertSameTree("baseURL: x\ntargets: {\n" + targets(1000) { i in "  t\(i): \(i),\n" } + "}\n", split: false)
        // Entries indented unevenly: the cut's line is not an entry.
        try assertSameTree("baseURL: x\ntargets:\n" + targets(1000) { i in "  t\(i):\n     a: \(i)\n     b: \(i)\n" }, split: true)
        // A second document after the targets.
        XCTAssertThrowsError(try YAMLParser.parse(Array(("baseURL: x\ntargets:\n" + body + "---\nx: 1\n").utf8))) { error in
            XCTAssertEqual((error as? YAMLError)?.kind, .multipleDocuments)
        }
    }

    func testErrorsInEitherHalfAreOneReadingsErrors() throws {
        let body = targets(1000)
        for text in ["baseURL: x\ntargets:\n" + body + "  bad: [\n",
                     "baseURL: x\ntargets:\n  bad: \"\n" + body,
                     "baseURL: x\ntargets:\n" + body + "  t1: {}\n",
                     "baseURL: x\ntargets:\n" + body + "  t: *nowhere\n"] {
            XCTAssertThrowsError(try YAMLParser.parse(Array(text.utf8))) { error in
                XCTAssertEqual(error as? YAMLError, Self.error(text))
            }
        }
    }

    func testSmallFilesAndFilesWithoutTargetsAreReadInOnePiece() throws {
        XCTAssertNil(SplitParse.parse(Array(("baseURL: x\ntargets:\n" + targets(3)).utf8), limits: .init()))
        XCTAssertNil(SplitParse.parse(Array(("baseURL: x\nother:\n" + targets(1000)).utf8), limits: .init(), minimumSize: 0))
        XCTAssertNil(SplitParse.parse(Array(("baseURL: x\ntargets:\n" + targets(1000) { i in "- t\(i)\n" }).utf8),
                                      limits: .init(), minimumSize: 0))
    }

    /// Differential fuzzing in the suite: files mutated around the cut by a seeded generator
    /// (bytes YAML gives meaning to, and cuts and copies of whole lines) must read the same split
    /// or in one piece, or fail with one reading's error. `make fuzz` stays below the split size.
    func testMutatedFilesReadAsOneReadingDoes() throws {
        var rng = SplitMutator(seed: 0x5EED_2026)
        let entries: [(Int) -> String] = [
            { i in "  t\(i):\n    path: /items/{id}/t\(i)\n    params: { id: \(i) }\n" },
            { i in "  t\(i): &a\(i)\n    doc: |\n      line \(i)\n    sample: { json: [1, \"\(i)\"] }\n" },
            { i in "  t\(i): { path: '/q', headers: { X: &h\(i) v, Y: *h\(i) } }  # note\n" },
            { i in "  t\(i):\n    - a\n    - ? b\n      : c\n" },
        ]
        var split = 0, rejected = 0
        for round in 0..<800 {
            let base = "baseURL: x\ntargets:\n" + targets(60, entry: entries[round % entries.count])
            let text = rng.mutate(base, edits: 1 + round % 4)
            let bytes = Array(text.utf8)
            if let two = SplitParse.parse(bytes, limits: .init(), minimumSize: 0) {
                split += 1
                // A split tree where one reading fails is a wrong join: `serial` throws and the test fails.
                let one = try YAMLParser.serial(bytes)
                XCTAssertEqual(dump(two), dump(one), "round \(round):\n\(text)")
            } else if Self.error(text) != nil {
                rejected += 1
            }
        }
        // The mutations leave enough files valid and splittable to test the join, and break enough.
        // (seed 0x5EED_2026: 160 split and joined, 638 rejected by one reading)
        XCTAssertGreaterThan(split, 80)
        XCTAssertGreaterThan(rejected, 80)
    }

    private static func error(_ text: String) -> YAMLError? {
        do { _ = try YAMLParser.serial(Array(text.utf8)); return nil } catch { return error }
    }
}

/// A seeded generator of small edits to YAML text: a byte YAML gives meaning to put in, a byte
/// taken out, or a line copied or dropped, anywhere in the file and often at and around the cut.
struct SplitMutator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }

    private static let pieces = [":", " ", "\n", "-", "&x", "*x", "|", ">", "\"", "'", "#", "{", "}", "[", "]",
                                 ",", "? ", "<<: *a1\n", "\t", "...\n", "---\n", "%YAML 1.1\n", "\r\n", "!tag ",
                                 "  t0: {}\n", "targets:\n", "\u{85}", "é"]

    mutating func mutate(_ text: String, edits: Int) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for _ in 0..<edits {
            // Half the edits near the middle, where the cut is looked for.
            let l = next(2) == 0 ? next(lines.count) : max(0, min(lines.count - 1, lines.count / 2 + next(12) - 4))
            switch next(4) {
            case 0:
                var chars = Array(lines[l])
                chars.insert(contentsOf: Self.pieces[next(Self.pieces.count)], at: next(chars.count + 1))
                lines[l] = String(chars)
            case 1:
                var chars = Array(lines[l])
                if !chars.isEmpty { chars.remove(at: next(chars.count)) }
                lines[l] = String(chars)
            case 2: lines.insert(lines[next(lines.count)], at: l)
            default: if lines.count > 3 { lines.remove(at: l) }
            }
        }
        return lines.joined(separator: "\n")
    }
}
