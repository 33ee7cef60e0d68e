import Foundation
import XCTest

/// Issue 34 item 25: a port above 65535 is refused where a URL is read — in a target file with
/// exit 2 at its line (validate, check, call, load alike), on the command line with exit 64 —
/// and never reaches a socket address (which traps).
final class PortRangeTests: FolderTestCase {
    /// A targets folder whose one service has `base` for its baseURL.
    private func service(_ base: String) throws -> (dir: URL, targets: String) {
        let dir = try folder(["targets/svc.yaml": "baseURL: \(base)\ntargets:\n  hello: { path: /hello }\n"])
        return (dir, dir.appendingPathComponent("targets").path)
    }

    func testAPortAbove65535InAFileIsRefusedAtItsLine() throws {
        let (dir, targets) = try service("http://127.0.0.1:99999")
        let junit = dir.appendingPathComponent("r.xml").path
        for args in [["validate", "--targets", targets], ["check", "--targets", targets, "--junit", junit],
                     ["call", "--targets", targets, "svc.hello"], ["load", "--targets", targets, "-q", "--requests", "1"]] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.code, 2, "\(args[0]): " + r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains("svc.yaml:1:10"), "\(args[0]): " + r.stderr)
            XCTAssertTrue(r.stderr.contains("has port 99999: a port is 1 to 65535"), "\(args[0]): " + r.stderr)
        }
    }

    func testAPortAbove65535OnTheCommandLineIsAUsageError() throws {
        let (_, targets) = try service("http://127.0.0.1:8080")
        for args in [["call", "http://127.0.0.1:99999/"], ["call", "--targets", targets, "svc.hello", "--base-url", "http://127.0.0.1:99999"],
                     ["check", "--targets", targets, "--base-url", "http://127.0.0.1:70000"]] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.code, 64, args.joined(separator: " ") + ": " + r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains("a port is 1 to 65535"), r.stderr)
        }
    }

    /// A placeholder in the base URL is expanded only when the call is built: still exit 2, not a trap.
    func testAPortFromAPlaceholderIsRefusedBeforeAnySocket() throws {
        let (_, targets) = try service(#""http://127.0.0.1:{port}""#)
        let r = try CLI.run(["call", "--targets", targets, "svc.hello", "-p", "port=99999"])
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("a port is 1 to 65535"), r.stderr)
    }
}
