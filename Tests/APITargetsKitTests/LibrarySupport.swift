import Foundation
import XCTest
import APITargetsKit

/// Paths and helpers the library's tests share.
enum Library {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The repository's own targets folder.
    static let targets = root.appendingPathComponent("targets")

    /// The built `apicli` next to the test bundle (this target depends on it).
    static let binary: URL = {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        return dir.appendingPathComponent("apicli")
    }()

    /// A new folder holding `files` (name → text), removed when the test ends.
    static func folder(_ files: [String: String], _ test: XCTestCase) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apitargetskit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        }
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// The local httpbin `make test` starts (APICLI_TEST_HTTPBIN); without it the test skips,
    /// unless APICLI_REQUIRE_LIVE=1 (as `make test` sets), where its absence is a failure.
    static func httpbin(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        if let url = ProcessInfo.processInfo.environment["APICLI_TEST_HTTPBIN"], !url.isEmpty { return url }
        if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
            XCTFail("APICLI_TEST_HTTPBIN is not set; run through `make test`", file: file, line: line)
        }
        throw XCTSkip("no local httpbin (APICLI_TEST_HTTPBIN)")
    }

    /// The error `body` throws, nil when it returns. (A `do`/`catch` with a pattern over the
    /// typed error of an async call crashes Swift 6.3.1's SILGen: "Found outside of lifetime use".)
    static func error<T>(_ body: () async throws -> T) async -> Error? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    /// Runs `apicli args…` in the package root with only PATH and HOME from the environment.
    static func apicli(_ args: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        process.currentDirectoryURL = root
        let env = ProcessInfo.processInfo.environment
        process.environment = ["PATH": env["PATH"] ?? "/usr/bin:/bin", "HOME": env["HOME"] ?? "/tmp"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }
}
