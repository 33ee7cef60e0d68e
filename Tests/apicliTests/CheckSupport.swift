import Foundation
import TestServers
import XCTest

/// Helpers for the `apicli check` end-to-end tests.
enum CheckSupport {
    /// Times vary: `   12 ms` becomes ` T ms`, and runs of spaces one space.
    static func normalized(_ text: String) -> String {
        let timed = text.replacingOccurrences(of: "[0-9]+ ms", with: "T ms", options: .regularExpression)
        return timed.replacingOccurrences(of: " +", with: " ", options: .regularExpression)
    }

    /// The JSON report at `url` as a dictionary.
    static func report(_ url: URL, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
    }

    static func results(_ report: [String: Any]) -> [[String: Any]] {
        report["results"] as? [[String: Any]] ?? []
    }

    /// Runs xmllint against the committed JUnit XSD; returns its exit code and output.
    static func xmllint(_ xml: URL) throws -> (Int32, String) {
        let candidates = ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
                XCTFail("xmllint is missing: `make deps` installs libxml2-utils")
            }
            throw XCTSkip("xmllint is missing (Debian: libxml2-utils)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = ["--noout", "--schema", CLI.root.appendingPathComponent("Tests/junit-10.xsd").path, xml.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: out, as: UTF8.self))
    }
}

/// Tests/Servers/flaky-server.py on a free 127.0.0.1 port, for the life of one test.
final class FlakyServer {
    private let server: TestServer
    var url: String { server.url }

    init() throws {
        server = try TestServer("flaky-server.py", ["--lifetime", "60"])
    }

    func stop() { server.stop() }
}
