import Foundation
import TestServers
import XCTest
@testable import APISupport
@testable import APIYAML
@testable import APIDiagnostics
@testable import APITargets
@testable import APIImport

/// Shared helpers for the APICore unit tests: fixture paths, decoding inline YAML, and pulling the
/// diagnostics out of an `APIError` so tests can compare them exactly.
enum Fixtures {
    /// The copied `Fixtures/` folder inside the test bundle.
    static let root: URL = {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("Fixtures/ is missing from the test bundle; check Package.swift's resources")
        }
        return url
    }()

    /// Absolute path of `relative` inside `Fixtures/`.
    static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }
}

/// Parses inline YAML text with the YAML layer.
func parseYAML(_ text: String, limits: YAMLParser.Limits = YAMLParser.Limits()) throws(YAMLError) -> Node? {
    try YAMLParser.parse(Array(text.utf8), limits: limits)
}

/// The YAML error `bytes` produce, or nil (and a test failure) when they parse.
func yamlError(_ bytes: [UInt8], limits: YAMLParser.Limits = YAMLParser.Limits(),
               file: StaticString = #filePath, line: UInt = #line) -> YAMLError? {
    do {
        _ = try YAMLParser.parse(bytes, limits: limits)
        XCTFail("expected a YAML error, but the text parsed", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

func yamlError(_ text: String, limits: YAMLParser.Limits = YAMLParser.Limits(),
               file: StaticString = #filePath, line: UInt = #line) -> YAMLError? {
    yamlError(Array(text.utf8), limits: limits, file: file, line: line)
}

/// The file name inline target files are decoded as, so diagnostics name it.
let inlineFile = "targets/demo.yaml"

/// Decodes an inline target file; fails the test (and rethrows) when it has diagnostics.
func decodeService(_ yaml: String, file: String = inlineFile, defaultName: String = "demo",
                   sourceFile: StaticString = #filePath, line: UInt = #line) throws -> Service {
    do {
        return try TargetFile.decode(Array(yaml.utf8), file: file, defaultName: defaultName)
    } catch {
        XCTFail("expected the target file to decode, got \(error)", file: sourceFile, line: line)
        throw error
    }
}

/// The diagnostics an inline target file produces; fails the test when it decodes cleanly.
func decodeDiagnostics(_ yaml: String, file: String = inlineFile, defaultName: String = "demo",
                       sourceFile: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
    do {
        let service = try TargetFile.decode(Array(yaml.utf8), file: file, defaultName: defaultName)
        XCTFail("expected diagnostics, but '\(service.name)' decoded", file: sourceFile, line: line)
        return []
    } catch {
        guard case .invalidInput(let diagnostics) = error else {
            XCTFail("expected invalidInput, got \(error)", file: sourceFile, line: line)
            return []
        }
        return diagnostics
    }
}

/// The diagnostics in `error`, or a test failure when it is another kind of `APIError`.
func diagnostics(of error: APIError, file: StaticString = #filePath, line: UInt = #line) -> [Diagnostic] {
    guard case .invalidInput(let diagnostics) = error else {
        XCTFail("expected invalidInput, got \(error)", file: file, line: line)
        return []
    }
    return diagnostics
}

/// Runs `body`, expecting it to throw an `APIError`; returns that error (nil and a failure otherwise).
func expectAPIError<T>(_ body: () throws(APIError) -> T, file: StaticString = #filePath, line: UInt = #line) -> APIError? {
    do {
        let value = try body()
        XCTFail("expected an APIError, got \(value)", file: file, line: line)
        return nil
    } catch {
        return error
    }
}

/// Shorthand for a 1-based mark.
func at(_ line: Int, _ column: Int) -> Mark {
    Mark(line: line, column: column)
}

extension Node {
    /// The value of the first pair whose key is the scalar `key`.
    subscript(key: String) -> Node? {
        pairs?.first { $0.key.scalarText == key }?.value
    }

    /// The scalar keys of a mapping, in order.
    var keys: [String] {
        (pairs ?? []).compactMap { $0.key.scalarText }
    }

    var isPlainScalar: Bool? {
        if case .scalar(let s) = content { return s.isPlain }
        return nil
    }
}

extension Service {
    /// The target named `name`, or a test failure.
    func requireTarget(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Target {
        try XCTUnwrap(target(named: name), "no target '\(name)' in \(targets.map(\.name))", file: file, line: line)
    }
}

extension Data {
    var utf8Text: String { String(decoding: self, as: UTF8.self) }
}

/// The local httpbin `make test` starts (APICLI_TEST_HTTPBIN). Without it a live test skips, unless
/// APICLI_REQUIRE_LIVE=1 (as `make test` sets), where its absence is a failure.
func localHTTPBin(file: StaticString = #filePath, line: UInt = #line) throws -> String {
    if let url = ProcessInfo.processInfo.environment["APICLI_TEST_HTTPBIN"], !url.isEmpty { return url }
    if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
        XCTFail("APICLI_TEST_HTTPBIN is not set; run through `make test`", file: file, line: line)
    }
    throw XCTSkip("no local httpbin (APICLI_TEST_HTTPBIN)")
}

/// A test case with a fresh temporary folder (`dir`) for each test, removed after it.
class TemporaryFolderTestCase: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-\(type(of: self))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
        try super.tearDownWithError()
    }

    /// Writes `text` into `name` in the folder; its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}

/// httpbin over h2c (Tests/Servers/h2c-httpbin.py: the venv's hypercorn, which answers HTTP/2 prior
/// knowledge and HTTP/1.1 on one port), one for the test process, stopped when it exits: the
/// engine's h2c connector runs the same contract cases as the others against it.
enum H2CHTTPBin {
    private static let server = Locked<Result<TestServer, Error>?>(nil)

    static func url() throws -> String {
        try server.withLock { server in
            if server == nil {
                server = Result {
                    try TestServer("h2c-httpbin.py", ["--lifetime", "900"],
                                   python: TestServer.root.appendingPathComponent(".venv/bin/python").path)
                }
                atexit { H2CHTTPBin.server.withLock { (try? $0?.get())?.stop() } }
            }
            return try server!.get().url
        }
    }
}
