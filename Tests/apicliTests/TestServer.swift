import Foundation
import XCTest

/// One of the project's Python test servers (scripts/NAME: faults, flaky, transfers, …) on a free
/// 127.0.0.1 port. The server prints its port or its URL as its first line; `stop` ends it.
/// Every test that needs one starts it through here.
final class TestServer: @unchecked Sendable {
    let port: Int
    /// `http://127.0.0.1:PORT` (or `https://` when the server says so).
    let url: String
    private let process: Process

    /// Starts `scripts/<script>` with `arguments` (on `python`: the venv's for servers that need
    /// its packages); throws when it does not print a port or URL.
    init(_ script: String, _ arguments: [String] = [], python: String = "python3") throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, CLI.root.appendingPathComponent("scripts/\(script)").path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        if let port = Int(text) {
            (self.port, url) = (port, "http://127.0.0.1:\(port)")
        } else if let port = URLComponents(string: text)?.port, text.hasPrefix("http") {
            (self.port, url) = (port, text)
        } else {
            process.terminate()
            throw TestServerError.didNotStart(script, said: text)
        }
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    enum TestServerError: Error, CustomStringConvertible {
        case didNotStart(String, said: String)
        var description: String {
            switch self {
            case .didNotStart(let script, let said): return "scripts/\(script) did not start (it printed '\(said)')"
            }
        }
    }
}
