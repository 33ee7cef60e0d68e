import Foundation
import XCTest

/// A test case whose tests make temporary target folders (`folder(_:)`), removed after each test.
class FolderTestCase: XCTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        for f in folders { try? FileManager.default.removeItem(at: f) }
        folders = []
        super.tearDown()
    }

    /// A fresh folder with `files` (name → text), removed when the test ends.
    func folder(_ files: [String: String] = [:]) throws -> URL {
        let dir = try CLI.folder(files)
        folders.append(dir)
        return dir
    }
}
