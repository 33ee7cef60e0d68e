import XCTest
@testable import APIDiagnostics
@testable import APITargets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Target files larger than 16 MiB (or APICLI_MAX_TARGET_FILE_SIZE) are refused before they are read.
final class TargetFileSizeTests: XCTestCase {
    private var path = ""

    override func setUp() {
        path = NSTemporaryDirectory() + "apicli-size-\(UUID().uuidString).yaml"
    }

    override func tearDown() {
        unlink(path)
        unsetenv("APICLI_MAX_TARGET_FILE_SIZE")
    }

    private func message(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as APIError {
            guard case .invalidInput(let ds) = error, let d = ds.first else { return "\(error)" }
            return d.message + " | " + (d.hint ?? "")
        } catch { return "\(error)" }
        return nil
    }

    /// A 17 MiB file (sparse: a comment line, then zero bytes) is refused at its size, promptly.
    func testAFileOverTheDefaultIsRefusedBeforeItIsRead() throws {
        try Data("baseURL: http://127.0.0.1:9\n#".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(truncate(path, off_t(17 << 20)), 0)
        let start = Date()
        let text = try XCTUnwrap(message { _ = try TargetFile.load(path) })
        XCTAssertTrue(text.contains("the target file is \(17 << 20) bytes; target files are read up to \(16 << 20) bytes"), text)
        XCTAssertTrue(text.contains("APICLI_MAX_TARGET_FILE_SIZE"), text)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testTheVariableLowersOrRaisesTheLimit() throws {
        let text = "baseURL: http://127.0.0.1:9\ntargets:\n  a: { path: /a }\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(message { _ = try TargetFile.load(path) })
        setenv("APICLI_MAX_TARGET_FILE_SIZE", "20", 1)
        XCTAssertNotNil(message { _ = try TargetFile.load(path) }?.range(of: "read up to 20 bytes"))
        setenv("APICLI_MAX_TARGET_FILE_SIZE", "\(text.utf8.count)", 1)
        XCTAssertNil(message { _ = try TargetFile.load(path) })
        setenv("APICLI_MAX_TARGET_FILE_SIZE", "nonsense", 1)
        XCTAssertNil(message { _ = try TargetFile.load(path) })
    }
}
