import Foundation
import XCTest
import APIImport

/// `LineDiff.unified` (import openapi --update --dry-run): its output is what `patch` needs to turn
/// the old text into the new, for random edits of every size, and a diff too large for Myers'
/// bounded trace is still a correct (whole-middle) one.
final class LineDiffTests: XCTestCase {
    func testPatchTurnsTheOldTextIntoTheNewOne() throws {
        var rng = SystemRandomNumberGenerator()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("linediff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<40 {
            let old = (0..<Int.random(in: 0...60, using: &rng)).map { _ in "line \(Int.random(in: 0...12, using: &rng))" }
            var new = old
            for _ in 0..<Int.random(in: 0...(round < 35 ? 8 : 6000), using: &rng) {
                let at = Int.random(in: 0...new.count, using: &rng)
                if Bool.random(using: &rng), at < new.count { new.remove(at: at) } else { new.insert("new \(Int.random(in: 0...5, using: &rng))", at: at) }
            }
            let a = old.map { $0 + "\n" }.joined(), b = new.map { $0 + "\n" }.joined()
            let diff = LineDiff.unified(a, b, from: "f", to: "f")
            XCTAssertEqual(diff.isEmpty, a == b)
            guard !diff.isEmpty else { continue }
            try Data(a.utf8).write(to: dir.appendingPathComponent("f"))
            try Data(diff.utf8).write(to: dir.appendingPathComponent("d"))
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "patch -s -p0 < d"]
            p.currentDirectoryURL = dir
            try p.run()
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, diff)
            XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("f"), encoding: .utf8), b, diff)
        }
    }
}
