import Foundation
import XCTest

/// Issue 26, item 5: a file apicli replaces (record's target file, import curl --to, call -o) keeps
/// its mode: a 0600 file stayed readable by its owner only until apicli made it 0644.
final class FileModeTests: XCTestCase {
    func mode(_ url: URL) throws -> Int {
        try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    func testReplacedFilesKeepTheirMode() throws {
        let base = try CLI.httpbin()
        let dir = try CLI.folder(["targets/hb.yaml": """
            baseURL: \(base)
            targets:
              get:
                path: /get
            """, "out.json": "old"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("targets/hb.yaml"), out = dir.appendingPathComponent("out.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: out.path)
        // WHEN record rewrites the target file, import adds to it, and call -o replaces the output
        XCTAssertEqual(try CLI.run(["record", "hb.get"], cwd: dir).code, 0)
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try CLI.run(["import", "curl", "--to", "targets/hb.yaml", "--name", "ip", "curl \(base)/ip"], cwd: dir).code, 0)
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try CLI.run(["call", "hb.get", "-o", "out.json"], cwd: dir).code, 0)
        // THEN each keeps its mode; a new file gets the umask's
        XCTAssertEqual(try mode(out), 0o640)
        XCTAssertEqual(try CLI.run(["call", "hb.get", "-o", "new.json"], cwd: dir).code, 0)
        XCTAssertEqual(try mode(dir.appendingPathComponent("new.json")) & 0o600, 0o600)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8).contains("sample:"), true)
    }
}
