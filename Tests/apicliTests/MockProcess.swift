import Foundation
import XCTest

/// `apicli mock …` running in the background on a free loopback port: its URL (the first line it
/// prints), its stderr so far, and a clean stop by a signal.
final class MockProcess: @unchecked Sendable {
    let url: String
    let process: Process
    private let errURL: URL
    let stdout: Pipe

    init(_ args: [String], cwd: URL = CLI.root, env: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["mock", "--port", "0"] + args
        process.currentDirectoryURL = cwd
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APICLI_") }
        environment.merge(env) { _, new in new }
        process.environment = environment
        errURL = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-mock-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try stdout.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        url = String(decoding: line, as: UTF8.self)
        guard url.hasPrefix("http://127.0.0.1:") else {
            process.waitUntilExit()
            throw MockError.didNotStart(code: process.terminationStatus, stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
        }
    }

    deinit { try? FileManager.default.removeItem(at: errURL) }

    /// Waits (up to `seconds`) until stderr holds `text` `count` times.
    func waitForStderr(_ text: String, count: Int, seconds: Double = 5) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if stderr.components(separatedBy: text).count - 1 >= count { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Waits (up to `seconds`) until stderr holds `text`.
    func waitForStderr(_ text: String, seconds: Double = 5) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if stderr.contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Sends `signal` and waits for the exit; its status.
    @discardableResult
    func stop(_ signal: Int32 = SIGINT) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let end = Date().addingTimeInterval(10)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    enum MockError: Error { case didNotStart(code: Int32, stderr: String) }
}

/// A test case with `apicli mock` serving one targets file (`targets/api.yaml`) in a folder of its
/// own; both go when the test ends.
class MockFolderTestCase: XCTestCase {
    var dir: URL!
    var mock: MockProcess!

    /// Writes `yaml`, then `files` (given the folder), and starts the mock there with `args`.
    func serve(_ yaml: String, _ args: [String], files: (URL) throws -> Void = { _ in }) throws {
        dir = try CLI.folder(["targets/api.yaml": yaml])
        try files(dir)
        mock = try MockProcess(args, cwd: dir)
    }

    override func tearDownWithError() throws {
        mock?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }
}

/// A plain HTTP exchange by curl: status, headers (lower-cased names) and body.
struct Curl {
    var status: Int
    var headers: [String: String]
    var body: String
    var code: Int32
    /// Everything curl printed (-i: the head, then the body).
    var raw = ""

    static func run(_ args: [String]) throws -> Curl {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["curl", "-s", "-i", "--max-time", "10"] + args
        var env = ProcessInfo.processInfo.environment
        env["NO_PROXY"] = "127.0.0.1,localhost"
        env["no_proxy"] = "127.0.0.1,localhost"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else {
            return Curl(status: 0, headers: [:], body: text, code: p.terminationStatus, raw: text)
        }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Curl(status: status, headers: headers, body: String(text[split.upperBound...]), code: p.terminationStatus, raw: text)
    }
}
