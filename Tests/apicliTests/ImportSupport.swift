import Foundation
import XCTest

/// Helpers of the import tests: the spec fixtures, and running imported files through the commands
/// that must accept them.
enum ImportFixtures {
    static let folder = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/import")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

extension XCTestCase {
    /// `apicli validate FILE`, `apicli check --stub` and `apicli call T --stub` for every target
    /// of the folder's `service` must all succeed (with `env` for the credentials' variables).
    func assertUsable(_ dir: URL, service: String, targets: [String], env: [String: String] = [:],
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let v = try CLI.run(["validate", "--targets", dir.path], env: env, cwd: dir)
        XCTAssertEqual(v.code, 0, "validate: \(v.stderr)", file: file, line: line)
        let c = try CLI.run(["check", "--stub", "--targets", dir.path], env: env, cwd: dir)
        XCTAssertEqual(c.code, 0, "check --stub: \(c.stdout)\(c.stderr)", file: file, line: line)
        for t in targets {
            let r = try CLI.run(["call", "\(service).\(t)", "--stub", "--targets", dir.path], env: env, cwd: dir)
            XCTAssertEqual(r.code, 0, "call \(t) --stub: \(r.stderr)", file: file, line: line)
        }
    }

    /// Runs `sh -c script` (or `program -c script`: bash for `$'…'`) with the built binary as
    /// `$APICLI`, in `cwd`; stdout and the exit code.
    func shell(_ script: String, cwd: URL, env: [String: String] = [:],
               program: String = "/bin/sh") throws -> (code: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = ["-c", script]
        p.currentDirectoryURL = cwd
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APICLI_") }
        environment["APICLI"] = CLI.binary.path
        environment.merge(env) { _, new in new }
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
