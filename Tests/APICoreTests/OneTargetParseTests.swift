import XCTest
@testable import APIYAML
@testable import APITargets
import APIDiagnostics

/// Every node's kind, tag, mark, plainness and text, depth first (the trees two ways of reading
/// a file give are compared by it: `SplitParseTests`, `OneTargetParseTests`).
func treeDump(_ node: Node?) -> String {
    guard let node else { return "nil" }
    var out = ""
    func walk(_ n: Node, _ indent: String) {
        out += "\(indent)\(n.mark) \(n.tag ?? "-") "
        switch n.content {
        case .scalar(let s): out += "\(s.isPlain ? "plain" : "text") \(s.value.debugDescription)\n"
        case .sequence(let items):
            out += "seq\n"
            for i in items { walk(i, indent + " ") }
        case .mapping(let pairs):
            out += "map\n"
            for p in pairs { walk(p.key, indent + " ?"); walk(p.value, indent + " :") }
        }
    }
    walk(node, "")
    return out
}

/// `OneTargetParse` reads only the named entry of `targets:` (with the root's other keys); whatever
/// tree it returns must be the tree a reading of the whole file gives for that target
/// (`YAMLParser.serial(_:onlyTarget:)`), and wherever that cannot be shown it must return nil.
final class OneTargetParseTests: XCTestCase {
    static func dump(_ node: Node?) -> String { treeDump(node) }

    private static func whole(_ bytes: [UInt8], _ target: String, limits: YAMLParser.Limits = .init()) -> Result<Node?, YAMLError> {
        Result { () throws(YAMLError) in try YAMLParser.serial(bytes, limits: limits, onlyTarget: target) }
    }

    /// Asserts the fast path is (or is not) taken for `target`, that its tree is the whole reading's,
    /// and that `YAMLParser.parse` gives the whole reading's tree or error either way.
    @discardableResult
    private func assertSame(_ text: String, _ target: String, fast expected: Bool?, limits: YAMLParser.Limits = .init(),
                            file: StaticString = #filePath, line: UInt = #line) -> Node? {
        let bytes = Array(text.utf8)
        let fast = OneTargetParse.parse(bytes, target: target, limits: limits)
        if let expected { XCTAssertEqual(fast != nil, expected, "fast path taken", file: file, line: line) }
        switch Self.whole(bytes, target, limits: limits) {
        case .success(let one):
            if let fast { XCTAssertEqual(Self.dump(fast), Self.dump(one), file: file, line: line) }
            XCTAssertEqual(Self.dump(try YAMLParser.parse(bytes, limits: limits, onlyTarget: target)), Self.dump(one), file: file, line: line)
        case .failure(let error):
            XCTAssertNil(fast, "a tree where one reading fails: \(error)", file: file, line: line)
            XCTAssertThrowsError(try YAMLParser.parse(bytes, limits: limits, onlyTarget: target), file: file, line: line) {
                XCTAssertEqual($0 as? YAMLError, error, file: file, line: line)
            }
        }
        return fast
    }

    static func generated(_ n: Int, head: String = "baseURL: http://127.0.0.1:9\nvalidate: success\n",
                          tail: String = "", entry: (Int) -> String = generatedEntry) -> String {
        head + "targets:\n" + (0..<n).map(entry).joined() + tail
    }

    /// bench/gen-targets.py's entry.
    static func generatedEntry(_ i: Int) -> String {
        "  t\(i):\n    path: /items/{id}/t\(i)\n    method: \(i % 3 == 0 ? "POST" : "GET")\n"
            + "    params: { id: \(i) }\n    task: { query: { page: \(i % 7), q: \"x\(i)\" } }\n"
            + "    expect: { status: 200, json: { \"$.id\": \(i) } }\n"
            + "    sample: { status: 200, json: { id: \(i) } }\n"
    }

    // MARK: The files the project has

    /// Every target of every target file under Tests/**/Fixtures and Examples/, and a generated
    /// file: where the fast path is taken its tree is the whole reading's; broken files give the
    /// whole reading's error.
    func testEveryTargetOfEveryFixtureReadsAsTheWholeFileDoes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var files: [String] = []
        for folder in ["Tests", "Examples"] {
            let base = root.appendingPathComponent(folder).path
            guard let walk = FileManager.default.enumerator(atPath: base) else { continue }
            for case let path as String in walk where (path.hasSuffix(".yaml") || path.hasSuffix(".yml"))
                && (folder == "Examples" || path.contains("Fixtures/")) {
                files.append(base + "/" + path)
            }
        }
        XCTAssertGreaterThan(files.count, 100)
        var taken = 0, targetFiles = 0, broken = 0
        for path in files {
            guard let data = FileManager.default.contents(atPath: path), data.count <= TargetFile.defaultMaxSize else { continue }
            let bytes = [UInt8](data)
            guard let whole = try? YAMLParser.serial(bytes) else {
                // Broken YAML: every name the scan sees gives the whole reading's error.
                if case .failure = Self.whole(bytes, "a"), let plan = scannedNames(bytes) {
                    broken += 1
                    for name in plan { assertSame(String(decoding: data, as: UTF8.self), name, fast: nil) }
                }
                continue
            }
            guard let targets = whole["targets"]?.pairs else { continue }
            targetFiles += 1
            let text = String(decoding: data, as: UTF8.self)
            for name in targets.compactMap(\.key.scalarText).prefix(200) where assertSame(text, name, fast: nil) != nil {
                taken += 1
            }
            // A name that is not there.
            XCTAssertNil(OneTargetParse.parse(bytes, target: "no-such-target", limits: .init()), path)
        }
        // (13 target files and 39 targets, every one read by the fast path, when this was written)
        XCTAssertGreaterThan(targetFiles, 10)
        XCTAssertGreaterThan(taken, 30, "the fast path is taken for the fixture targets")
        XCTAssertGreaterThan(broken, 0)
    }

    /// The entry names a line scan sees (for broken files, whose names one reading cannot give).
    private func scannedNames(_ bytes: [UInt8]) -> [String]? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.range(of: "\ntargets:\n") else { return nil }
        return text[start.upperBound...].split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let colon = line.firstIndex(of: ":") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 2)..<colon])
        }
    }

    func testAGeneratedFileOfTenThousandTargetsReadsEachAsTheWholeFileDoes() throws {
        let text = Self.generated(10_000, tail: "doc: after the targets\n")
        for name in ["t0", "t1", "t4999", "t5000", "t9998", "t9999"] {
            let tree = try XCTUnwrap(assertSame(text, name, fast: true))
            XCTAssertEqual(tree.keys, ["baseURL", "validate", "targets", "doc"])
            XCTAssertEqual(tree["targets"]?.keys, [name])
        }
        assertSame(text, "t10000", fast: false)
        // Shared blocks in `x-` entries among them, used by aliases.
        let shared = Self.generated(2_000) { i in
            i % 500 == 0 ? "  x-common\(i): &c\(i)\n    headers: { X-Run: \"\(i)\" }\n" : "  t\(i):\n    <<: *c\(i / 500 * 500)\n    path: /t\(i)\n"
        }
        for name in ["t1", "t777", "t1999"] { assertSame(shared, name, fast: true) }
    }

    // MARK: Hostile files

    func testLineBreaksCommentsAndTheEntrysPlace() {
        let crlf = Self.generated(50, tail: "doc: x\n").replacingOccurrences(of: "\n", with: "\r\n")
        assertSame(crlf, "t7", fast: true)
        assertSame(crlf, "t49", fast: true)
        // Comments at column 1 inside the mapping and inside an entry, blank lines, a comment after `targets:`.
        let comments = "baseURL: x\ntargets:   # all\n\n# first\n  a:\n    path: /a\n# between\n    method: POST\n\n  b: { path: /b }  # b\n# last\n"
        for name in ["a", "b"] { assertSame(comments, name, fast: true) }
        // The entry is the last line, without a line break.
        assertSame("baseURL: x\ntargets:\n  a: 1\n  b: { path: /b }", "b", fast: true)
        assertSame("targets:\n  a: 1\n  b: 2", "a", fast: true)
        // A lone CR, NEL, LS, PS break lines for libyaml: one reading.
        for odd in ["\r", "\u{85}", "\u{2028}", "\u{2029}"] {
            assertSame("baseURL: x\ntargets:\n  a: { doc: \"1\(odd)2\" }\n  b: 2\n", "b", fast: false)
        }
        // A byte-order mark.
        assertSame("\u{FEFF}baseURL: x\ntargets:\n  a: 1\n  b: 2\n", "b", fast: false)
    }

    func testIndentsTabsAndBlockScalars() {
        assertSame("baseURL: x\ntargets:\n  a:\n\tpath: /a\n  b: 2\n", "b", fast: false)
        assertSame("baseURL: x\ntargets:\n    a: 1\n  b: 2\n", "a", fast: false)
        // Block scalars, kept (`|+`) too: the entry's trailing blank lines and comments are read with it.
        let blocks = "baseURL: x\ntargets:\n  a:\n    doc: |\n      one\n\n      two\n\n\n  b:\n    doc: >-\n      folded\n      text\n\n"
            + "  c:\n    doc: |+\n      kept\n\n\n  d:\n    doc: |2\n       indented\n"
        assertSame(blocks, "a", fast: true)
        assertSame(blocks, "b", fast: true)
        assertSame(blocks, "c", fast: true)
        assertSame(blocks.replacingOccurrences(of: "\n\n\n  d:", with: "\n\n# d\n\n  d:"), "c", fast: true)
        assertSame(blocks + "doc: after\n", "d", fast: true)
        assertSame(blocks, "d", fast: true)
        // A block scalar whose lines look like entries and quotes.
        let inside = "baseURL: x\ntargets:\n  a:\n    doc: |\n      b: not an entry\n      x: [1, 2\n  b: 2\n"
        assertSame(inside, "b", fast: false)
        assertSame("baseURL: x\ntargets:\n  a:\n    doc: |\n      c: 3\n  b: 2\n", "b", fast: true)
    }

    func testQuotesAndFlowCollectionsOverSeveralLines() {
        // A multi-line flow mapping or quoted scalar in another target: its lines could be entries.
        assertSame("baseURL: x\ntargets:\n  a: { path: /a,\n  b: 2 }\n  b: 3\n", "b", fast: false)
        assertSame("baseURL: x\ntargets:\n  a:\n    doc: \"one\n  b: two\"\n  c: 3\n", "c", fast: false)
        assertSame("baseURL: x\ntargets:\n  a:\n    doc: 'it''s\n  b: x'\n  c: 3\n", "c", fast: false)
        assertSame("baseURL: x\ntargets:\n  a:\n    doc: \"ends with \\\n  b: x\"\n  c: 3\n", "c", fast: false)
        // The same in the named target.
        assertSame("baseURL: x\ntargets:\n  a: { path: /a,\n    method: GET }\n  b: 3\n", "a", fast: false)
        // Closed on their lines, with quotes, brackets and # inside: read.
        let closed = "baseURL: x\ntargets:\n  a: { path: '/a{id}', doc: \"a # b \\\" ] }\", q: [1, [2, {x: 'y'}]] }  # c\n"
            + "  b:\n    doc: it's a plain ] scalar with \"quotes\n    x: {\"k\":'v'}\n  c: 3\n"
        for name in ["a", "b", "c"] { assertSame(closed, name, fast: true) }
        // A quote that may or may not start a scalar, inside a flow collection: one reading.
        assertSame("baseURL: x\ntargets:\n  a: { d: it's, e: '}\n  b: 3\n", "b", fast: false)
        // `targets:` inside a quoted scalar before the real one.
        let quoted = "baseURL: x\ndoc: \"\ntargets:\n  a: 1\n\"\ntargets:\n  a: { path: /real }\n"
        assertSame(quoted, "a", fast: false)
        // Root keys before `targets:` over several lines: blocks are read, open quotes and flows not.
        assertSame("baseURL: x\ndoc: |\n  text\n  targets:\nheaders:\n  A: b\ntargets:\n  a: 1\n  b: 2\n", "b", fast: true)
        assertSame("baseURL: x\nheaders: { A: b,\n  C: d }\ntargets:\n  a: 1\n  b: 2\n", "b", fast: false)
        assertSame("baseURL: x\ndoc: \"a\ntargets:\n  a: 1\n  b: 2\n", "b", fast: false)
        // Flow `targets: {` and a sequence of targets.
        assertSame("baseURL: x\ntargets: {\n  a: 1,\n  b: 2 }\n", "b", fast: false)
        assertSame("baseURL: x\ntargets:\n  - a: 1\n  - b: 2\n", "b", fast: false)
    }

    func testAnchorsAndAliases() {
        // Anchored in the head, used in the target: read.
        let head = "baseURL: x\nheaders: &h { X-A: \"1\" }\ntargets:\n  a: { path: /a, headers: *h }\n  b: { path: /b, headers: { <<: *h, X-B: \"2\" } }\n"
        assertSame(head, "a", fast: true)
        assertSame(head, "b", fast: true)
        // An alias to an anchor in an `x-` entry (read with the target, left out of the tree).
        let shared = "baseURL: x\ntargets:\n  x-shared: &s { status: 200 }\n  a: { path: /a, sample: *s }\n  b: 1\n"
            + "  x-later: &l { X: y }\n  c:\n    headers: { <<: *l }\n    sample: *s\n"
        for name in ["a", "b", "c"] { assertSame(shared, name, fast: true) }
        assertSame(shared, "x-shared", fast: true)
        // An alias to another target's anchor: the anchor is left out, one reading.
        let other = "baseURL: x\ntargets:\n  b: &s { status: 200 }\n  a: { path: /a, sample: *s }\n"
        assertSame(other, "a", fast: false)
        // An `x-` entry whose YAML one reading with `onlyTarget` does not build (a duplicate key, not
        // anchored): read whole, it fails, so the file is read as one reading does.
        assertSame("baseURL: x\ntargets:\n  x-notes: { a: 1, a: 2 }\n  a: { path: /a }\n", "a", fast: false)
        // An anchor of the head written again in another target: the alias means that one.
        let again = "baseURL: x\nheaders: &h { X-A: \"1\" }\ntargets:\n  a: { path: /a, headers: &h { X-B: \"2\" } }\n  b: { path: /b, headers: *h }\n"
        assertSame(again, "b", fast: false)
        // An alias in the root keys after the mapping to an anchor in the target.
        assertSame("baseURL: x\ntargets:\n  a: { path: &p /a }\n  b: 2\ndoc: *p\n", "a", fast: true)
        assertSame("baseURL: x\ntargets:\n  a: { path: &p /a }\n  b: 2\ndoc: *p\n", "b", fast: false)
        // `<<` at the targets level.
        assertSame("baseURL: x\nd: &d { a: 1 }\ntargets:\n  <<: *d\n  b: 2\n", "b", fast: false)
    }

    func testDuplicatesMissingNamesAndDocumentMarkers() {
        // A duplicate among any entries: one reading's duplicate-key error.
        assertSame("baseURL: x\ntargets:\n  a: 1\n  b: 2\n  a: 3\n", "b", fast: false)
        assertSame("baseURL: x\ntargets:\n  a: 1\n  b: 2\n  b: 3\n", "b", fast: false)
        // Many short entries (the name set grows), with a duplicate far apart, and without.
        let short = Self.generated(5_000) { i in "  n\(i): \(i)\n" }
        assertSame(short, "n4321", fast: true)
        assertSame(short + "  n17: again\n", "n4321", fast: false)
        // A duplicate root key around the targets.
        assertSame("baseURL: x\ntargets:\n  a: 1\nbaseURL: y\n", "a", fast: false)
        assertSame("baseURL: x\ntargets:\n  a: 1\ntargets:\n  b: 1\n", "a", fast: false)
        // A quoted key that may equal another.
        assertSame("baseURL: x\ntargets:\n  \"a\": 1\n  a: 2\n", "a", fast: false)
        // The name is not there.
        assertSame("baseURL: x\ntargets:\n  a: 1\n", "b", fast: false)
        // Directives and document markers.
        assertSame("%YAML 1.1\n---\nbaseURL: x\ntargets:\n  a: 1\n", "a", fast: false)
        assertSame("baseURL: x\ntargets:\n  a: 1\n---\nx: 1\n", "a", fast: false)
        assertSame("baseURL: x\ntargets:\n  a: 1\n...\n", "a", fast: false)
        // A root that is not a mapping.
        assertSame("|\ntargets:\n  a: 1\n", "a", fast: false)
    }

    func testErrorsInTheReadPartsAreOneReadingsErrors() {
        for text in ["baseURL: [x\ntargets:\n  a: 1\n  b: 2\n",
                     "baseURL: x\ntargets:\n  a: 1\n  b: {c: d: e}\n",
                     "baseURL: x\ntargets:\n  a: 1\n  b: 2\nzz: [\n",
                     "baseURL: x\ntargets:\n  b: *nowhere\n"] {
            assertSame(text, "b", fast: false)
        }
        // Nested deeper than the limit, in another target: one reading's error.
        var limits = YAMLParser.Limits()
        limits.maxDepth = 8
        assertSame("targets:\n  a: " + String(repeating: "[", count: 20) + String(repeating: "]", count: 20) + "\n  b: 1\n",
                   "b", fast: false, limits: limits)
        assertSame("targets:\n  a:\n" + (1...10).map { String(repeating: " ", count: 2 + 2 * $0) + "k:\n" }.joined() + "  b: 1\n",
                   "b", fast: false, limits: limits)
    }

    /// What only a whole reading sees: a syntax error inside another target that leaves every
    /// line closed does not block this target (as a decoding mistake there does not).
    func testALineLocalErrorInAnotherTargetDoesNotBlockThisOne() throws {
        let text = "baseURL: x\ntargets:\n  a: { path: /a }\n  b:\n    doc: a: b\n  c: { path: /c }\n"
        XCTAssertThrowsError(try YAMLParser.serial(Array(text.utf8), onlyTarget: "c"))
        let tree = try XCTUnwrap(YAMLParser.parse(Array(text.utf8), onlyTarget: "c"))
        XCTAssertEqual(tree["targets"]?["c"]?["path"]?.scalarText, "/c")
        XCTAssertEqual(tree["targets"]?["c"]?.mark, Mark(line: 6, column: 6))
    }

    // MARK: Mutations

    /// Differential fuzzing: files mutated by a seeded generator must read as the whole file does
    /// for a target, or fail over to it; the only difference allowed is an error of the whole
    /// reading inside the lines of other targets (see the test above).
    func testMutatedFilesReadAsTheWholeFileDoes() throws {
        var rng = SplitMutator(seed: 0x1D_E40)
        let entries: [(Int) -> String] = [
            Self.generatedEntry,
            { i in "  t\(i): &a\(i)\n    doc: |\n      line \(i)\n    sample: { json: [1, \"\(i)\"] }\n" },
            { i in "  t\(i): { path: '/q', headers: { X: &h\(i) v, Y: *h\(i) } }  # note\n" },
            { i in "  t\(i):\n    - a\n    - { b: \"c\" }\n# c\n" },
        ]
        var taken = 0, same = 0, elsewhere = 0
        for round in 0..<1200 {
            let base = Self.generated(24, head: "baseURL: x\nh: &h { a: 1 }\n", tail: round % 2 == 0 ? "doc: end\n" : "",
                                      entry: entries[round % entries.count])
            let text = rng.mutate(base, edits: 1 + round % 3)
            let bytes = Array(text.utf8)
            let name = "t\(rng.next(24))"
            guard let fast = OneTargetParse.parse(bytes, target: name, limits: .init()) else { continue }
            taken += 1
            switch Self.whole(bytes, name) {
            case .success(let one):
                XCTAssertEqual(Self.dump(fast), Self.dump(one), "round \(round) \(name):\n\(text)")
                same += 1
            case .failure(let error):
                // Allowed only inside the lines of other targets, which were not read.
                let plan = try XCTUnwrap(OneTargetParse.plan(bytes, target: Array(name.utf8)))
                let line = error.mark.line - 1
                var gaps: [Range<Int>] = []
                var from = plan.targetsLine + 1
                for part in plan.parts {
                    gaps.append(from..<part.line)
                    from = part.endLine
                }
                gaps.append(from..<plan.tailLine)
                let skipped = gaps.contains { $0.contains(line) }
                XCTAssertTrue(skipped, "round \(round) \(name): \(error) at line \(line), plan \(plan):\n\(text)")
                elsewhere += 1
            }
        }
        XCTAssertGreaterThan(same, 300, "taken \(taken), same \(same), errors elsewhere \(elsewhere)")
    }

    // MARK: The target file

    /// A file just under the 16 MiB a target file may be: its last target is read by the scan
    /// (in the file's lines); one byte more and the file is refused before it is read, `only:` or not.
    func testAFileAtTheSizeLimit() throws {
        var text = Self.generated(72_000) + "  last:\n    path: /last\n"
        let limit = TargetFile.defaultMaxSize
        XCTAssertLessThan(text.utf8.count, limit)
        text += "# " + String(repeating: "x", count: limit - text.utf8.count - 3) + "\n"
        XCTAssertEqual(text.utf8.count, limit)
        let path = NSTemporaryDirectory() + "apicli-onetarget-\(UUID().uuidString).yaml"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let service = try TargetFile.load(path, only: "last")
        XCTAssertEqual(service.targets.map(\.name), ["last"])
        XCTAssertEqual(service.targets.first?.mark, Mark(line: 4 + 72_000 * 7, column: 3))
        XCTAssertEqual(service.targets.first?.path?.text, "/last")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("\n".utf8))
        handle.closeFile()
        do {
            _ = try TargetFile.load(path, only: "last")
            XCTFail("read")
        } catch {
            XCTAssertTrue("\(error)".contains("target files are read up to \(limit) bytes"), "\(error)")
        }
    }

    func testALoadedTargetsDiagnosticsAreAtTheFilesLines() throws {
        // GIVEN a file of 3,000 targets whose t2000 has a mistake
        let text = Self.generated(3_000) { i in i == 2000 ? "  t2000:\n    path: /x\n    method: 12 3\n" : Self.generatedEntry(i) }
        XCTAssertNotNil(OneTargetParse.plan(Array(text.utf8), target: Array("t2000".utf8)))
        // WHEN only it is decoded
        do {
            _ = try TargetFile.decode(Array(text.utf8), file: "big.yaml", defaultName: "big", only: "t2000")
            XCTFail("decoded")
        } catch {
            // THEN the diagnostic names its line in the file
            guard case .invalidInput(let diagnostics) = error else { return XCTFail("\(error)") }
            let line = 4 + 2000 * 7 + 2
            XCTAssertEqual(diagnostics.map { $0.mark }, [Mark(line: line, column: 13)])
        }
        // AND another target decodes
        let service = try TargetFile.decode(Array(text.utf8), file: "big.yaml", defaultName: "big", only: "t2999")
        XCTAssertEqual(service.targets.map(\.name), ["t2999"])
        XCTAssertEqual(service.targets.first?.mark, Mark(line: 4 + 2999 * 7 - 4, column: 3))  // t2000 has 3 lines, not 7
    }
}
