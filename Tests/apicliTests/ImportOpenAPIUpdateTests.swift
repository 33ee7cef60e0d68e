import Foundation
import XCTest

/// `apicli import openapi NEWSPEC --update` on two published versions of one real description
/// (the Train Travel API 1.0.0 and 1.2.0: Fixtures/specs/train-travel/SOURCE.txt): the user's
/// edits are kept, the description's changes and new operations arrive, a removed operation's
/// target is kept and marked, the report names each, and `--dry-run` writes nothing.
final class ImportOpenAPIUpdateTests: FolderTestCase {
    static let specs = CLI.root.appendingPathComponent("Tests/apicliTests/Fixtures/specs/train-travel")
    static let v1 = specs.appendingPathComponent("v1.0.0/openapi.yaml").path
    static let v2 = specs.appendingPathComponent("v1.2.0/openapi.yaml").path

    /// The user's edits, each as the text replaced and its replacement (every one must survive).
    static let edits: [(what: String, old: String, new: String)] = [
        ("an expect block", "      schema: { openapi: train.openapi/openapi.yaml, operation: get-stations }\n",
         "      schema: { openapi: train.openapi/openapi.yaml, operation: get-stations }\n      json: { $.data: { exists: true } }   # my own check\n"),
        ("a doc", "    doc: Get available train trips\n", "    doc: Trips, the way our team says it\n"),
        ("an added key", "    path: /trips\n", "    path: /trips\n    timeout: 5\n"),
        ("a sample recorded into samples:", "          links:\n            booking: https://api.example.com/bookings/1725ff48-ab45-4bb5-9d02-88745177dedb\n    x-import:\n      operation: create-booking-payment\n",
         "          links:\n            booking: https://api.example.com/bookings/1725ff48-ab45-4bb5-9d02-88745177dedb\n"
            + "      recorded: { status: 200, headers: { Content-Type: application/json }, json: { status: succeeded } }\n"
            + "    x-import:\n      operation: create-booking-payment\n"),
        ("an added target", "targets:\n", "targets:\n  health:\n    doc: our load balancer's probe\n    path: /health\n\n"),
    ]

    /// Imports v1 into a fresh folder and makes the edits (and a sample edit, which needs the
    /// sample's own text); the folder.
    private func importedAndEdited() throws -> URL {
        let dir = try folder()
        let r = try CLI.run(["import", "openapi", Self.v1, "--service", "train"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let file = dir.appendingPathComponent("targets/train.yaml")
        var text = try String(contentsOf: file, encoding: .utf8)
        for e in Self.edits {
            XCTAssertTrue(text.contains(e.old), "the v1 import no longer has the text to edit for \(e.what)")
            text = text.replacingOccurrences(of: e.old, with: e.new)
        }
        // A sample: getBookings' sample replaced by one recorded from the user's server.
        let sample = try XCTUnwrap(text.range(of: "  getBookings:\n"))
        let start = try XCTUnwrap(text.range(of: "    sample:\n", range: sample.upperBound..<text.endIndex))
        let end = try XCTUnwrap(text.range(of: "\n    x-import:", range: start.upperBound..<text.endIndex))
        text.replaceSubrange(start.lowerBound..<end.lowerBound, with: Self.mySample)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, "the edited v1 file: \(v.stderr)")
        return dir
    }

    /// Whether every line an edit wrote is in `text` (the lines around it are the description's).
    static func keeps(_ text: String, _ edit: (what: String, old: String, new: String)) -> Bool {
        let old = Set(edit.old.split(separator: "\n"))
        return edit.new.split(separator: "\n").filter { !old.contains($0) }.allSatisfy { text.contains("\n" + $0 + "\n") }
    }

    static let mySample = "    sample:\n      json: { data: [], links: { self: \"https://api.example.com/bookings\" } }   # recorded"

    func testUpdateKeepsEveryEditAndAddsTheNewOperations() throws {
        // GIVEN the v1 import, edited by hand
        let dir = try importedAndEdited()
        let file = dir.appendingPathComponent("targets/train.yaml")
        // WHEN it is updated with v1.2.0
        let r = try update(Self.v2, dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: file, encoding: .utf8)
        // THEN every edit is there as written
        for e in Self.edits { XCTAssertTrue(Self.keeps(text, e), "\(e.what) was lost:\n\(text)") }
        XCTAssertTrue(text.contains(Self.mySample), "the edited sample was lost")
        // AND the new operations have targets, the description's changes arrived
        for name in ["getBooking:", "deleteBooking:", "operation: get-booking", "operation: delete-booking",
                     "# page: 1   # optional: The page number to return",          // v1.2.0's new query parameters
                     "mockServer: { baseURL:",                                      // its new servers
                     "doc: Train Travel API 1.2.0"] {
            XCTAssertTrue(text.contains(name), "no \(name) after the update:\n\(text)")
        }
        XCTAssertFalse(text.contains("doc: Train Travel API 1.0.0"))
        // AND the report names what was added, changed and kept
        for line in ["apicli: updated targets/train.yaml: 2 added,", "  added    getBooking (get-booking)", "  added    deleteBooking (delete-booking)",
                     "  changed  the file's baseURL, doc, environments added", "  changed  getTrips: task.query, sample.json, samples added",
                     "  changed  createBookingPayment: notes, task.json, sample.json, samples.bank, samples.400 added,",
                     "  kept     getStations: expect.json (added)", "  kept     getTrips: doc (edited), timeout (added)",
                     "  kept     getBookings: sample.json (edited)", "  kept     createBookingPayment: samples.recorded (added)",
                     "  kept     health (yours)"] {
            XCTAssertTrue(r.stderr.contains(line), "the report has no '\(line)':\n\(r.stderr)")
        }
        // AND the result is a valid file whose every target builds and meets its samples
        try assertUsable(dir.appendingPathComponent("targets"), service: "train",
                         targets: ["getStations", "getTrips", "getBookings", "getBooking", "deleteBooking"])
        // AND the copy of the description the contracts name is v1.2.0's
        let copy = try String(contentsOf: dir.appendingPathComponent("targets/train.openapi/openapi.yaml"), encoding: .utf8)
        XCTAssertEqual(copy, try String(contentsOfFile: Self.v2, encoding: .utf8))
        // AND updating again with the same description changes nothing
        try assertUpdate(Self.v2, dir, says: "train.yaml: 0 added, 0 changed, 0 removed", leaves: text)
    }

    func testARemovedOperationIsKeptAndMarkedAndComesBack() throws {
        // GIVEN a file updated to v1.2.0 (with get-booking and delete-booking)
        let dir = try importedAndEdited()
        let file = dir.appendingPathComponent("targets/train.yaml")
        XCTAssertEqual(try update(Self.v2, dir).code, 0)
        let atV2 = try String(contentsOf: file, encoding: .utf8)
        // WHEN it is updated with a description without them (v1.0.0)
        let r = try update(Self.v1, dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN their targets are still there, marked, and the file is valid
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(r.stderr.contains("  removed  getBooking (get-booking: marked, kept)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("  removed  deleteBooking (delete-booking: marked, kept)"), r.stderr)
        XCTAssertTrue(text.contains("  # Not in the description (openapi.yaml) any more (import openapi --update): kept; delete it when you no longer need it.\n  getBooking:\n"), text)
        XCTAssertTrue(text.contains("removed: openapi.yaml"))
        for e in Self.edits { XCTAssertTrue(Self.keeps(text, e), "\(e.what) was lost") }
        let v = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stderr)
        // AND when they come back, the file is what it was at v1.2.0, byte for byte
        try assertUpdate(Self.v2, dir, says: "  changed  getBooking: expect, back in the description", leaves: atV2)
    }

    func testDryRunPrintsADiffAndWritesNothing() throws {
        // GIVEN the edited v1 import
        let dir = try importedAndEdited()
        // (and the same, updated for real, to compare with)
        let copy = try folder()
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: dir.appendingPathComponent("targets"), to: copy)
        XCTAssertEqual(try CLI.run(["import", "openapi", Self.v2, "--service", "train", "--update", "--targets", copy.path], cwd: dir).code, 0)
        let before = try snapshot(dir)
        // WHEN the update is a dry run
        let r = try update(Self.v2, dir, ["--dry-run"])
        // THEN nothing in the folder changed (no staging folder left either)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try snapshot(dir), before)
        XCTAssertTrue(r.stderr.contains("apicli: dry run: updated targets/train.yaml: 2 added,"), r.stderr)
        // AND stdout is a unified diff that patch(1) applies to give the file the update writes
        XCTAssertTrue(r.stdout.hasPrefix("--- targets/train.yaml\n+++ targets/train.yaml\n@@ -"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\n+  getBooking:\n"))
        try r.stdout.write(to: dir.appendingPathComponent("update.diff"), atomically: true, encoding: .utf8)
        let patched = try shell("patch -s -p0 < update.diff", cwd: dir)
        XCTAssertEqual(patched.code, 0, patched.stderr)
        let diffed = try String(contentsOf: dir.appendingPathComponent("targets/train.yaml"), encoding: .utf8)
        XCTAssertEqual(diffed, try String(contentsOf: copy.appendingPathComponent("train.yaml"), encoding: .utf8))
    }

    func testARenamedTargetInACRLFFileIsStillUpdated() throws {
        // GIVEN the v1 import with CRLF line ends, getStations renamed and a comment of the user's between its keys
        let dir = try folder()
        XCTAssertEqual(try CLI.run(["import", "openapi", Self.v1, "--service", "train"], cwd: dir).code, 0)
        let file = dir.appendingPathComponent("targets/train.yaml")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "  getStations:\n    doc: Get a list of train stations\n    path: /stations\n",
                                         with: "  stations:\n    doc: Get a list of train stations\n    path: /stations\n    # we call it stations\n")
        try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: file)
        // WHEN updated with v1.2.0
        let r = try update(Self.v2, dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN the renamed target got v1.2.0's query parameters, no getStations was added, the
        // comment is there, and every line still ends in CRLF
        let updated = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(r.stderr.contains("  changed  stations: task added, samples added"), r.stderr)
        XCTAssertFalse(updated.contains("getStations:"))
        XCTAssertTrue(updated.contains("  stations:\r\n    doc: Get a list of train stations\r\n    path: /stations\r\n    task:\r\n"), updated)
        XCTAssertTrue(updated.contains("    # we call it stations\r\n    expect:\r\n"), updated)
        XCTAssertTrue(updated.contains("        # page: 1   # optional: The page number to return\r\n"))
        XCTAssertFalse(updated.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a line without its CR")
        XCTAssertEqual(try CLI.run(["validate"], cwd: dir).code, 0)
    }

    func testADescriptionUnderTheTargetsFolderIsUpdatedWhereItIs() throws {
        // GIVEN v1 imported from targets/contracts/openapi.yaml (referenced where it is, not copied)
        let dir = try folder(["targets/contracts/openapi.yaml": try String(contentsOfFile: Self.v1, encoding: .utf8)])
        let spec = "targets/contracts/openapi.yaml"
        XCTAssertEqual(try CLI.run(["import", "openapi", spec, "--service", "train"], cwd: dir).code, 0)
        // WHEN the description there is replaced by v1.2.0 and the file updated
        try FileManager.default.removeItem(at: dir.appendingPathComponent(spec))
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.v2), to: dir.appendingPathComponent(spec))
        let r = try update(spec, dir)
        // THEN the new operations are there, with contracts naming the description in place, and no staging folder is left
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("targets/train.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("schema: { openapi: contracts/openapi.yaml, operation: get-booking }"), text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("targets").path).sorted(),
                       [".apicli-targets.schema.json", "contracts", "train-webhooks.yaml", "train.yaml"])
        XCTAssertEqual(try CLI.run(["validate"], cwd: dir).code, 0)
    }

    func testAKeptKeyTheNewSamplesDisagreeWithIsAWarning() throws {
        // GIVEN the v1 import whose getStations expects no status any more (the user's edit)
        let dir = try folder()
        XCTAssertEqual(try CLI.run(["import", "openapi", Self.v1, "--service", "train"], cwd: dir).code, 0)
        let file = dir.appendingPathComponent("targets/train.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "    expect:\n      status: 200\n      headers: { Content-Type: \"~json\" }\n      schema: { openapi: train.openapi/openapi.yaml, operation: get-stations }",
                                               with: "    expect:\n      headers: { Content-Type: \"~json\" }\n      schema: { openapi: train.openapi/openapi.yaml, operation: get-stations }")
        XCTAssertNotEqual(edited, text)
        try edited.write(to: file, atomically: true, encoding: .utf8)
        // WHEN updated with v1.2.0, whose new error samples (expectFailure: true) that expect: now passes
        let r = try update(Self.v2, dir)
        // THEN the update is written, the edit kept, and each disagreement is a warning at its sample
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("apicli: warning: the update is written, but validate finds 5 problems where keys you kept and keys the description changed disagree"), r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: sample '400' of train.getStations has expectFailure: true but passes its expectations"), r.stderr)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("  getStations:\n    doc: Get a list of train stations\n    path: /stations\n    task:"))
    }

    func testBadUses() throws {
        let dir = try folder()
        // nothing to update: exit 5, nothing written
        let none = try update(Self.v2, dir)
        XCTAssertEqual(none.code, 5, none.stderr)
        XCTAssertTrue(none.stderr.contains("targets/train.yaml does not exist: nothing to update"), none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("targets").path))
        // a file that is not YAML: exit 2 at its place, nothing written
        let broken = "service: train\nbaseURL: https://api.example.com\ntargets:\n  a: [\n"
        let bad = try folder(["targets/train.yaml": broken])
        let b = try CLI.run(["import", "openapi", Self.v2, "--service", "train", "--update"], cwd: bad)
        XCTAssertEqual(b.code, 2, b.stderr)
        XCTAssertTrue(b.stderr.contains("targets/train.yaml:"), b.stderr)
        XCTAssertEqual(try String(contentsOf: bad.appendingPathComponent("targets/train.yaml"), encoding: .utf8), broken)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: bad.appendingPathComponent("targets").path), ["train.yaml"])
        // flags that contradict it: exit 64
        for flags in [["--update", "--force"], ["--update", "-o", "-"], ["--dry-run"]] {
            let r = try CLI.run(["import", "openapi", Self.v2] + flags, cwd: dir)
            XCTAssertEqual(r.code, 64, "\(flags): \(r.stderr)")
        }
    }

    /// `import openapi SPEC --service train --update` (and `extra`) run in `dir`.
    private func update(_ spec: String, _ dir: URL, _ extra: [String] = []) throws -> CLI.Result {
        try CLI.run(["import", "openapi", spec, "--service", "train", "--update"] + extra, cwd: dir)
    }

    /// `update`: exit 0, the report says `says`, and targets/train.yaml is then `text`.
    private func assertUpdate(_ spec: String, _ dir: URL, says: String, leaves text: String, line: UInt = #line) throws {
        let r = try update(spec, dir)
        XCTAssertEqual(r.code, 0, r.stderr, line: line)
        XCTAssertTrue(r.stderr.contains(says), r.stderr, line: line)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("targets/train.yaml"), encoding: .utf8), text, line: line)
    }

    /// Every file under `dir` (path → bytes), folders as empty entries.
    private func snapshot(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(atPath: dir.path)
        while let p = e?.nextObject() as? String {
            let full = dir.appendingPathComponent(p).path
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDir)
            out[p] = isDir.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: full))
        }
        return out
    }
}
