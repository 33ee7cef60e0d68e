import Foundation
import XCTest

/// Issue 26, item 9: a huge duration (`timeout: 1e20`, `delay: 10000000000`, `--timeout 1e20`) used
/// to pass validate and crash show, call, check and mock (Int64 overflow). Every duration is
/// range-checked where it is read: at most a day, exit 2 at the key or 64 on the command line.
final class DurationLimitTests: XCTestCase {
    func testHugeDurationsAreRefusedWhereTheyAreWritten() throws {
        let dir = try CLI.folder(["targets/big.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              slow: { path: /a, timeout: 1e20 }
              late: { path: /b, sample: { status: 200, delay: 10000000000 } }
              poll: { path: /c, until: { expect: { status: 200 }, within: 1e300 } }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let slow = "targets/big.yaml:3:30: error: timeout must be at most a day (86400 s), not '1e20'"
        let late = "targets/big.yaml:4:51: error: sample delay must be at most a day (86400 s), not '10000000000'"
        let poll = "targets/big.yaml:5:63: error: until within must be at most a day (86400 s), not '1e300'"
        let cases: [([String], [String])] = [
            (["validate"], [slow, late, poll]), (["check", "--stub"], [slow, late, poll]), (["mock", "--port", "0"], [slow, late, poll]),
            (["show", "big.slow"], [slow]), (["call", "big.late", "--stub"], [late]),
        ]
        for (command, lines) in cases {
            let r = try CLI.run(command, cwd: dir, timeout: 10)
            XCTAssertEqual(r.code, 2, "\(command): \(r.stderr)")
            for line in lines { XCTAssertTrue(r.stderr.contains(line), "\(command): \(r.stderr)") }
        }
        let flag = try CLI.run(["call", "big.slow", "--timeout", "1e20"], cwd: dir)
        XCTAssertEqual(flag.code, 64, flag.stderr)
        XCTAssertTrue(flag.stderr.contains("--timeout takes a positive number of seconds, at most 86400 (a day), got 1e+20"), flag.stderr)
    }
}
