import Foundation
import XCTest
@testable import APIDiagnostics
@testable import APITransport
@testable import APISupport

/// Where downloads land: `PartialFile` (temporary name, commit, discard) and `--download` names.
final class DownloadFileTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-df-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    private func entries(_ folder: String? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder ?? dir.path)) ?? []).sorted()
    }

    func testBytesGoToAHiddenTemporaryFileUntilCommitReplacesTheDestination() throws {
        // GIVEN an existing destination
        try Data("old".utf8).write(to: URL(fileURLWithPath: path("out.bin")))
        let file = try PartialFile.create(for: path("out.bin"))
        try file.write(Data("new ".utf8))
        try file.write(Data("body".utf8))
        // WHILE receiving: the old file is intact, the bytes are in .apicli-XXXXXX next to it
        XCTAssertEqual(try String(contentsOfFile: path("out.bin"), encoding: .utf8), "old")
        XCTAssertEqual(entries().count, 2)
        XCTAssertTrue((file.temporaryPath as NSString).lastPathComponent.hasPrefix(".apicli-"))
        XCTAssertEqual(file.bytesWritten, 8)
        XCTAssertEqual(file.prefix(3).utf8Text, "new")
        // WHEN committed THEN the destination holds the new body and nothing else is left
        try file.commit()
        XCTAssertEqual(try String(contentsOfFile: path("out.bin"), encoding: .utf8), "new body")
        XCTAssertEqual(entries(), ["out.bin"])
    }

    func testDiscardLeavesTheExistingFileUntouchedAndLaterWritesFail() throws {
        try Data("old".utf8).write(to: URL(fileURLWithPath: path("out.bin")))
        let file = try PartialFile.create(for: path("out.bin"))
        try file.write(Data("partial".utf8))
        file.discard()
        XCTAssertEqual(entries(), ["out.bin"])
        XCTAssertEqual(try String(contentsOfFile: path("out.bin"), encoding: .utf8), "old")
        // A transport still streaming after a timeout is stopped by its next write
        XCTAssertEqual(expectAPIError { () throws(APIError) in try file.write(Data("more".utf8)) },
                       .network(.other("the transfer to \(path("out.bin")) was stopped")))
        file.discard()  // twice is fine
    }

    func testASignalRemovesEveryOpenTemporaryFileAndTheFoldersMadeForThem() throws {
        // What SignalExit.leave does before it exits (a signal handler: it reads the registered
        // paths without a lock): the open temporary files go, a committed one stays.
        let a = try PartialFile.create(for: path("a"))
        let b = try PartialFile.create(for: path("b"))
        let c = try PartialFile.create(for: path("d1/d2/c"), createFolders: true)
        try a.write(Data("x".utf8))
        try c.write(Data("y".utf8))
        try b.commit()
        XCTAssertEqual(entries().count, 3)
        SignalExit.removeRegistered()
        XCTAssertEqual(entries(), ["b"])
        // Removed already: discarding afterwards is harmless, and the slots are used again.
        a.discard()
        c.discard()
        let d = try PartialFile.create(for: path("d"))
        d.discard()
        XCTAssertEqual(entries(), ["b"])
    }

    func testMissingFoldersAreMadeOnRequestAndRemovedWhenTheTransferFails() throws {
        let nested = path("d1/d2/file.bin")
        let failed = try PartialFile.create(for: nested, createFolders: true)
        XCTAssertEqual(entries(path("d1/d2")).count, 1)
        failed.discard()
        XCTAssertEqual(entries(), [], "the folders made for a failed download are removed again")
        let kept = try PartialFile.create(for: nested, createFolders: true)
        try kept.write(Data("z".utf8))
        try kept.commit()
        XCTAssertEqual(try String(contentsOfFile: nested, encoding: .utf8), "z")
    }

    func testWithoutCreateFoldersAMissingFolderIsAnOutputError() {
        XCTAssertEqual(expectAPIError { () throws(APIError) in try PartialFile.create(for: path("no/such/file")) },
                       .output("cannot write \(path("no/such/file")): No such file or directory"))
    }

    func testAFolderIsNotADestination() {
        XCTAssertEqual(expectAPIError { () throws(APIError) in try PartialFile.create(for: dir.path) },
                       .output("cannot write \(dir.path): Is a directory"))
        XCTAssertEqual(entries(), [])
    }

    func testNamedCommitRefusesToReplaceAnExistingFile() throws {
        // GIVEN a folder destination (--download) and a file of the name the server picks
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path("report.pdf")))
        let file = try PartialFile.create(inFolder: dir.path)
        try file.write(Data("theirs".utf8))
        // WHEN committed under that name without replacing THEN exit-5 error, my file intact, no temp left
        XCTAssertEqual(expectAPIError { () throws(APIError) in try file.commit(as: "report.pdf", replace: false) },
                       .output("\(path("report.pdf")) already exists; apicli does not replace a file named by the server "
                               + "(remove it, or choose the name with -o)"))
        XCTAssertEqual(try String(contentsOfFile: path("report.pdf"), encoding: .utf8), "mine")
        XCTAssertEqual(entries(), ["report.pdf"])
        // AND a free name is taken
        let second = try PartialFile.create(inFolder: dir.path)
        try second.write(Data("theirs".utf8))
        try second.commit(as: "report (1).pdf", replace: false)
        XCTAssertEqual(entries(), ["report (1).pdf", "report.pdf"])
    }

    func testCommittedFilesGetTheModeANewFileWouldGet() throws {
        let file = try PartialFile.create(for: path("mode.bin"))
        try file.commit()
        let mask = umask(0)
        umask(mask)
        let mode = (try FileManager.default.attributesOfItem(atPath: path("mode.bin"))[.posixPermissions] as? Int) ?? 0
        XCTAssertEqual(mode, 0o666 & ~Int(mask))
    }

    // MARK: --download names

    func testNamesFromContentDisposition() {
        let url = URL(string: "https://x.test/files/42?x=1")!
        XCTAssertEqual(DownloadName.derive(contentDisposition: #"attachment; filename="report 2024.pdf""#, url: url), "report 2024.pdf")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename=plain.txt", url: url), "plain.txt")
        XCTAssertEqual(DownloadName.derive(contentDisposition: #"attachment; filename="a.txt"; filename*=UTF-8''na%C3%AFve%20x.txt"#,
                                           url: url), "naïve x.txt")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename*=iso-8859-1'en'caf%E9.txt", url: url), "café.txt")
        XCTAssertEqual(DownloadName.derive(contentDisposition: #"attachment; filename="q\"uote.txt""#, url: url), "q\"uote.txt")
    }

    func testServerNamesCannotLeaveTheFolderOrHide() {
        let url = URL(string: "https://x.test/")!
        XCTAssertEqual(DownloadName.derive(contentDisposition: #"attachment; filename="../../etc/passwd""#, url: url), "passwd")
        XCTAssertEqual(DownloadName.derive(contentDisposition: #"attachment; filename="..\..\boot.ini""#, url: url), "boot.ini")
        XCTAssertEqual(DownloadName.derive(contentDisposition: #"attachment; filename=".bashrc""#, url: url), "bashrc")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename=\"a\u{7}b\"", url: url), "ab")
        XCTAssertEqual(DownloadName.derive(contentDisposition: #"attachment; filename="..""#, url: url), "download")
    }

    /// C1 controls (U+009B is a terminal's CSI) and bidi overrides (`evil\u{202E}txt.exe` shows as
    /// `evilexe.txt`) are removed from a server's name, in either header form and from the URL.
    func testServerNamesLoseC1AndBidiControls() {
        let url = URL(string: "https://x.test/")!
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename*=UTF-8''evil%E2%80%AEtxt.exe", url: url),
                       "eviltxt.exe")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename=\"a\u{9B}2Jb\u{85}c\"", url: url), "a2Jbc")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename=\"\u{2067}x\u{200F}y\u{061C}.txt\u{2069}\"",
                                           url: url), "xy.txt")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename*=iso-8859-1''a%9Bb.txt", url: url), "ab.txt")
        XCTAssertEqual(DownloadName.derive(contentDisposition: nil, url: URL(string: "https://x.test/r%E2%80%AEfdp.exe")!), "rfdp.exe")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename*=UTF-8''%E2%80%AE", url: url), "download")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "attachment; filename=\"caf\u{E9} \u{05D0}.txt\"", url: url),
                       "caf\u{E9} \u{05D0}.txt")
    }

    func testNamesFromTheURLWhenTheServerGivesNone() {
        XCTAssertEqual(DownloadName.derive(contentDisposition: nil, url: URL(string: "https://x.test/a/b/data%20set.csv?v=2")!),
                       "data set.csv")
        XCTAssertEqual(DownloadName.derive(contentDisposition: "inline", url: URL(string: "https://x.test/bytes/100")!), "100")
        XCTAssertEqual(DownloadName.derive(contentDisposition: nil, url: URL(string: "https://x.test")!), "download")
        XCTAssertEqual(DownloadName.derive(contentDisposition: nil, url: URL(string: "https://x.test/..")!), "download")
    }
}
