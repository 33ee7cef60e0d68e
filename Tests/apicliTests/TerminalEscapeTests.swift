import Foundation
import XCTest

/// Issue 26, item 10: text from target files, reports and servers reaches the terminal with its
/// control characters escaped (ESC, BEL, CR, C1 such as U+009B CSI), so it cannot retitle the window,
/// clear the screen or rewrite a line. The body on stdout stays the server's bytes.
final class TerminalEscapeTests: XCTestCase {
    func testControlCharactersFromFilesAndServersAreShownEscaped() throws {
        let dir = try CLI.folder(["targets/evil.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              t:
                doc: "title\\e]0;pwned\\aclear\\e[2J"
                sample: { status: 200, headers: { X-Evil: "a\\u009B31mb" }, body: "raw\\ebody" }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = try CLI.run(["list"], cwd: dir)
        XCTAssertEqual(list.code, 0, list.stderr)
        XCTAssertFalse(list.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, list.stdout)
        XCTAssertTrue(list.stdout.contains(#"title\x1B]0;pwned\x07clear\x1B[2J"#), list.stdout)
        let head = try CLI.run(["call", "evil.t", "--stub", "-i"], cwd: dir)
        XCTAssertTrue(head.stdout.contains(#"X-Evil: a\xC2\x9B31mb"#) || head.stdout.contains(#"X-Evil: a\x9B31mb"#), head.stdout)
        XCTAssertFalse(head.stdout.unicodeScalars.contains { $0.value == 0x9B }, head.stdout)
        // the body is the sample's bytes, unchanged
        XCTAssertTrue(head.stdout.hasSuffix("raw\u{1B}body"), head.stdout)
    }
}
