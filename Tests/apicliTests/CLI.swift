import Foundation
import XCTest

/// Runs the built `apicli` binary as a user would and captures what it prints.
struct CLI {
    struct Result {
        var code: Int32
        var stdout: String
        var stderr: String
        var stdoutData: Data
        var seconds: Double
    }

    /// The package root (for the shipped targets/).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The binary next to the test bundle: `swift test` builds it because this target depends on it.
    static let binary: URL = {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        return dir.appendingPathComponent("apicli")
    }()

    /// Runs `apicli args…` (or another `executable`) in `cwd` (the package root by default) with a
    /// clean environment plus `env`. Kills it after `timeout` seconds so a hang fails the test instead
    /// of the suite. `wrapper`: a command (found on PATH) that runs apicli, given as its last arguments
    /// (`wrapper + [apicli] + args`).
    static func run(_ args: [String], env: [String: String] = [:], cwd: URL = root, timeout: Double = 30,
                    stdout: String? = nil, wrapper: [String] = [], executable: URL? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let process = Process()
        if wrapper.isEmpty {
            process.executableURL = executable ?? binary
            process.arguments = args
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper + [(executable ?? binary).path] + args
        }
        process.currentDirectoryURL = cwd
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APICLI_") && !ciVariables.contains($0.key) }
        environment.merge(env) { _, new in new }
        process.environment = environment
        let tmp = FileManager.default.temporaryDirectory
        let outURL = tmp.appendingPathComponent("apicli-out-\(UUID().uuidString)")
        let errURL = tmp.appendingPathComponent("apicli-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        process.standardOutput = try stdout.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) }
            ?? FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        let killer = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        process.waitUntilExit()
        killer.cancel()
        let seconds = Date().timeIntervalSince(start)
        if process.terminationReason == .uncaughtSignal {
            XCTFail("apicli \(args.joined(separator: " ")) died by signal \(process.terminationStatus) after \(seconds) s",
                    file: file, line: line)
        }
        let out = (try? Data(contentsOf: outURL)) ?? Data()
        let err = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(code: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self), stdoutData: out, seconds: seconds)
    }

    /// What the CI running the tests sets and `check` reads (annotations, step summary, `--shard auto`):
    /// never passed on, so that the tests behave the same in CI as on a laptop.
    static let ciVariables: Set<String> = [
        "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE", "CI_NODE_INDEX", "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX",
        "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", "JOB_COMPLETION_INDEX",
    ]

    /// The `User-Agent` apicli sends when nothing names another: `apicli/` and what `--version` prints.
    static let defaultUserAgent: String = {
        let version = (try? run(["--version"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        return "apicli/" + version
    }()

    /// Skips (or fails under APICLI_REQUIRE_LIVE=1) when `binary`, of Debian's `package`, is missing.
    static func require(_ binary: String, _ package: String) throws {
        if FileManager.default.isExecutableFile(atPath: binary) { return }
        if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
            XCTFail("\(binary) is not installed: `make deps` installs \(package)")
        }
        throw XCTSkip("\(binary) is not installed (make deps)")
    }

    /// The local httpbin started by `make test`. Without it the live tests skip, unless
    /// APICLI_REQUIRE_LIVE=1 (as `make test` sets), where its absence is a failure.
    static func httpbin() throws -> String {
        if let url = ProcessInfo.processInfo.environment["APICLI_TEST_HTTPBIN"], !url.isEmpty { return url }
        if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
            XCTFail("APICLI_TEST_HTTPBIN is not set; run the live tests through `make test`")
        }
        throw XCTSkip("no local httpbin (APICLI_TEST_HTTPBIN); `make test` starts one")
    }

    /// apicli started with `args` in `cwd` and left running (to be signalled, waited for): its
    /// stderr in a pipe, its stdout discarded.
    static func started(_ args: [String], cwd: URL = root) throws -> (process: Process, stderr: Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        process.currentDirectoryURL = cwd
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    /// A fresh folder with `files` (name → YAML text), removed by the caller's teardown.
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-t-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir
    }
}

/// Decodes httpbin's echo.
struct Echo: Decodable {
    var args: [String: JSONAny]?
    var data: String?
    var form: [String: JSONAny]?
    var json: JSONAny?
    var headers: [String: String]
    var method: String?
    var url: String?

    static func decode(_ r: CLI.Result, file: StaticString = #filePath, line: UInt = #line) throws -> Echo {
        do {
            return try JSONDecoder().decode(Echo.self, from: r.stdoutData)
        } catch {
            XCTFail("not an httpbin echo (exit \(r.code)): \(r.stdout.prefix(300)) / \(r.stderr)", file: file, line: line)
            throw error
        }
    }
}

/// Any JSON value, compared structurally.
enum JSONAny: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONAny]), object([String: JSONAny])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONAny].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONAny].self)) }
    }
}
