import XCTest
@testable import APISupport
import Foundation

/// `HugePageRead` gives a regular file's bytes exactly (in memory of its own), and nil where the
/// caller must read the file its usual way.
final class HugePageReadTests: XCTestCase {
    func testALargeFilesBytesAreTheFiles() throws {
        let path = NSTemporaryDirectory() + "apicli-hugepage-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // GIVEN a file of 3 MB and a few bytes (more than one 2 MiB page, not a multiple of one)
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(3 << 20) + 17).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // WHEN it is read
        let read = HugePageRead.withFile(path) { Array($0) }
        // THEN every byte is the file's
        XCTAssertEqual(read?.count, bytes.count)
        XCTAssertTrue(read == bytes)
    }

    func testWhatIsNotAReadableRegularFileIsNil() throws {
        let folder = NSTemporaryDirectory() + "apicli-hugepage-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let empty = folder + "/empty"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertNil(HugePageRead.withFile(folder) { $0.count })
        XCTAssertNil(HugePageRead.withFile(folder + "/missing") { $0.count })
        XCTAssertNil(HugePageRead.withFile(empty) { $0.count })
        let small = folder + "/small"
        XCTAssertTrue(FileManager.default.createFile(atPath: small, contents: Data("targets:\n".utf8)))
        XCTAssertEqual(HugePageRead.withFile(small) { String(decoding: $0, as: UTF8.self) }, "targets:\n")
    }
}
