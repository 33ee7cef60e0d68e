import XCTest
@testable import APIYAML
@testable import APIDiagnostics
@testable import APITargets

/// A large file's targets are decoded as the parser reads them (`StreamedTargets`), each entry's
/// nodes let go once decoded: the service, or every problem, must be exactly what decoding the
/// file's tree gives, and where that cannot be shown the tree is decoded.
final class StreamedTargetsTests: XCTestCase {
    private func entries(_ n: Int, _ entry: ((Int) -> String?)? = nil) -> String {
        (0..<n).map { i in
            entry?(i) ?? "  t\(i):\n    path: /items/{id}/t\(i)\n    method: POST\n    params: { id: \(i) }\n"
                + "    task: { query: { page: \(i) } }\n    sample: { status: 200, json: { id: \(i) } }\n"
        }.joined()
    }

    /// The whole of a decoded service or of its problems, as text.
    private func outcome(_ decode: () throws -> Service) -> String {
        var text = ""
        do { dump(try decode(), to: &text) } catch { dump(error, to: &text) }
        return text
    }

    /// Asserts the streamed decoding equals the tree's, and whether it was streamed.
    private func assertSame(_ yaml: String, streamed expected: Bool?, room: Int = StreamedTargets.maximumRoom,
                            file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(yaml.utf8)
        var trees: [Node]? = []  // kept: decoded from the tree
        let tree = outcome { try TargetFile.decode(bytes, file: "/tmp/s/gen.yaml", defaultName: "gen", keeping: &trees) }
        var streamed: Bool?
        let stream = outcome {
            let decoded = StreamedTargets.decode(bytes, file: "/tmp/s/gen.yaml", defaultName: "gen", documents: [:], maximumRoom: room)
            streamed = decoded?.streamed
            if let decoded { return try decoded.result.get() }
            return try TargetFile.decode(bytes, file: "/tmp/s/gen.yaml", defaultName: "gen")
        }
        XCTAssertEqual(stream, tree, file: file, line: line)
        if let expected { XCTAssertEqual(streamed ?? false, expected, "streamed", file: file, line: line) }
        // Through the ordinary entry (no trees kept): the same again.
        XCTAssertEqual(outcome { try TargetFile.decode(bytes, file: "/tmp/s/gen.yaml", defaultName: "gen") }, tree, file: file, line: line)
    }

    func testAGeneratedFileIsStreamedWithTheSameTargets() throws {
        let yaml = "baseURL: http://127.0.0.1:9\nvalidate: success\ntargets:\n" + entries(2_000) + "timeout: 5s\n"
        assertSame(yaml, streamed: true)
        let decoded = try XCTUnwrap(StreamedTargets.decode(Array(yaml.utf8), file: "/tmp/s/gen.yaml", defaultName: "gen", documents: [:]))
        XCTAssertTrue(decoded.streamed)
        let service = try decoded.result.get()
        XCTAssertEqual(service.targets.map(\.name), (0..<2_000).map { "t\($0)" })
        XCTAssertEqual(service.timeout, 5)
        // Fewer targets than the decoder's two halves take, the service's name written before them, x- entries.
        assertSame("service: named\nbaseURL: http://x\ntargets:\n  x-shared: { a: 1 }\n" + entries(600) + "  x-last: 1\n", streamed: true)
    }

    func testProblemsWarningsAndFilesInTheTreesOrder() {
        let yaml = "baseURL: http://127.0.0.1:9\nheaders: 3\ntargets:\n" + entries(2_000) { i in
            switch i {
            case 5, 1_950: return "  t\(i): { pth: /x }\n"
            case 40, 1_800: return "  t\(i): { path: /x, method: FETCH }\n"
            case 60, 1_700: return "  t\(i): { path: /x, sample: { file: s\(i).json } }\n"
            case 900: return "  bad.name: { path: /x }\n"
            case 950, 1_990: return "  ? [k\(i)]\n  : { path: /x }\n"
            case 999, 1_000, 1_001: return "  t\(i): { path: /x, timeout: soon }\n"
            default: return nil
            }
        } + "rules: 7\n"
        assertSame(yaml, streamed: true)
        // Warnings and files alone: a service.
        assertSame("baseURL: http://127.0.0.1:9\ntargets:\n" + entries(2_000) { i in
            i == 3 || i == 1_999 ? "  t\(i): { path: /x, method: FETCH, sample: { file: s\(i).json } }\n" : nil
        }, streamed: true)
    }

    func testWhatStreamingCannotShowIsDecodedFromTheTree() {
        let body = entries(2_000)
        // The service's name written after the targets: the guess (the file's name) was wrong.
        assertSame("baseURL: http://x\ntargets:\n" + body + "service: late\n", streamed: nil)
        // `include:` (a shared block each part would read).
        assertSame("baseURL: http://x\ninclude: shared.inc.yaml\ntargets:\n" + body, streamed: nil)
        assertSame("baseURL: http://x\ntargets:\n  t: { path: /x, include: shared.inc.yaml }\n" + body, streamed: nil)
        // Aliases with problems (a shared node's problem is reported once per place it is used).
        let shared = "baseURL: http://x\nx-d: &d { path: /d, timeout: soon }\ntargets:\n  a: *d\n" + body + "  b: *d\n"
        assertSame(shared, streamed: nil)
        // Aliases without a problem stream (within a part: an alias to the other part's anchor is not split).
        assertSame("baseURL: http://x\ntargets:\n" + body + "  a: &d { path: /d }\n  b: *d\n", streamed: true)
        assertSame("baseURL: http://x\nx-d: &d { path: /d }\ntargets:\n  a: *d\n" + body + "  b: *d\n", streamed: false)
        // An anchor or a tag on the targets mapping: the tree keeps it.
        assertSame("baseURL: http://x\ntargets:\n  &all\n" + body, streamed: false)
        assertSame("baseURL: http://x\ntargets:\n  !!map\n" + body, streamed: false)
        assertSame("baseURL: http://x\ntargets: !!map\n" + body, streamed: nil)
    }

    func testErrorsOfTheReadingAreTheTrees() {
        let body = entries(2_000)
        // A target written in both parts, a syntax error late in the file, a `<<` among the targets.
        assertSame("baseURL: http://x\ntargets:\n" + body + "  t3: { path: /again }\n", streamed: false)
        assertSame("baseURL: http://x\ntargets:\n" + body + "  z: [unclosed\n", streamed: nil)
        assertSame("baseURL: http://x\nx-b: &b { zz: { path: /m } }\ntargets:\n  <<: *b\n" + body, streamed: false)
        // A duplicate within one part.
        assertSame("baseURL: http://x\ntargets:\n" + body + "  t1999: { path: /again }\n", streamed: nil)
    }

    func testEntriesCountedByLinesAndWhatDoesNotFit() throws {
        let yaml = "baseURL: x\ntargets:\n  # first\n" + entries(3_000) { i in "  t\(i):\n    doc: |\n      a\n\n    path: /p\n" }
        let counts = try XCTUnwrap(YAMLParser.targetEntryCounts(Array(yaml.utf8)))
        XCTAssertEqual(counts.first + counts.second, 3_000)
        // Targets past the room a part was given are kept in order all the same.
        var room = [Target](unsafeUninitializedCapacity: 1) { buffer, count in
            let sink = StreamedTargets.Sink(file: "/tmp/s/gen.yaml", service: "gen", documents: [:], room: buffer.baseAddress!, capacity: 1)
            for name in ["a", "b", "c"] {
                sink.entry(key: Node(content: .scalar(.init(value: name, isPlain: true)), mark: Mark(line: 1, column: 1)),
                           value: Node(content: .mapping([]), mark: Mark(line: 1, column: 4)))
            }
            XCTAssertEqual(sink.count, 1)
            XCTAssertEqual(sink.overflow.map(\.name), ["b", "c"])
            let all = sink.moveOut()
            XCTAssertEqual(all.map(\.name), ["a", "b", "c"])
            XCTAssertEqual(sink.count, 0)
            count = 0
        }
        room.removeAll()
        // Parts with less room than targets: the same service.
        assertSame("baseURL: http://x\ntargets:\n" + entries(2_000) + "timeout: 5s\n", streamed: true, room: 10)
    }
}
