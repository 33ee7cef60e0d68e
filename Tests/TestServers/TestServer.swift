import Foundation

/// One of the project's Python test servers (Tests/Servers/NAME: faults, flaky, transfers, …) on a free
/// 127.0.0.1 port. The server prints its port or its URL as its first line; `stop` ends it.
/// Every test (both test targets) that needs one starts it through here.
public final class TestServer: @unchecked Sendable {
    public let port: Int
    /// `http://127.0.0.1:PORT` (or `https://` when the server says so).
    public let url: String
    private let process: Process

    /// Starts `Tests/Servers/<script>` with `arguments` on `python` (by default the project's venv,
    /// `make venv`, where every package a server imports lives; the system python3 when there is no
    /// venv); throws when it does not print a port or URL.
    public init(_ script: String, _ arguments: [String] = [], python: String? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python ?? Self.python, Self.root.appendingPathComponent("Tests/Servers/\(script)").path] + arguments
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

    /// The venv's python when `make venv` made one, else the system's.
    public static var python: String {
        let venv = root.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }

    /// The repository's root (Tests/Servers/ is under it), from this file's place in the tree.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// SIGTERM, then SIGKILL after 2 s: a child can inherit a blocked SIGTERM from the test
    /// process's thread that started it, and would then live until its `--lifetime`.
    public func stop() {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public enum TestServerError: Error, CustomStringConvertible {
        case didNotStart(String, said: String)
        public var description: String {
            switch self {
            case .didNotStart(let script, let said): return "Tests/Servers/\(script) did not start (it printed '\(said)')"
            }
        }
    }
}
