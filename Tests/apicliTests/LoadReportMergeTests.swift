import Foundation
import XCTest

/// Issue 34 item 15: `report merge` reads load reports that may be forged. Every number read is
/// range-checked and named when refused (exit 2), and what is added up cannot overflow when the
/// merged report is written (`--json`, `--report-html`).
final class LoadReportMergeTests: FolderTestCase {
    /// A load report as `apicli load --json` writes it, with `extra` members replacing or adding to it.
    private func report(_ extra: String = "", requests: String = "1", bucket: String = "1") -> String {
        """
        {"kind":"apicli-load","version":1,"model":"closed","load":"1 user","startedAt":1700000000,"elapsed":1,"scheduled":0,
         "targets":[{"name":"s.a","requests":\(requests),"bytes":10,"errors":{},"histogram":[[1000,\(bucket)]]}],
         "lag":[],"timeline":[{"requests":1,"errors":0,"histogram":[[1000,1]]}]\(extra)}
        """
    }

    func testForgedNumbersAreRefusedByName() throws {
        let cases: [(String, String)] = [
            (report(#","scheduled":1e30"#), "scheduled is not a whole number"),
            (report(#","merged":1e300"#), "merged is not a whole number"),
            (report(#","shard":{"index":1e300,"count":2}"#), "shard.index is not a whole number"),
            (report(#","shard":{"index":3,"count":2}"#), "shard 3/2 is not a shard"),
            (report(#","elapsed":1e300"#), "elapsed is not a number of seconds"),
            (report(requests: "-1"), "targets[0].requests is not a whole number"),
            (report(bucket: "9007199254740992"), "its counts add up beyond"),
        ]
        for (i, (text, needle)) in cases.enumerated() {
            let dir = try folder(["r.json": text])
            let r = try CLI.run(["report", "merge", dir.appendingPathComponent("r.json").path,
                                 "--json", dir.appendingPathComponent("m.json").path], cwd: dir)
            XCTAssertEqual(r.code, 2, "case \(i): " + r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains(needle), "case \(i): " + r.stderr)
        }
    }

    /// Bucket counts that each pass but add up beyond 2^64 across buckets and reports: refused, not a trap.
    func testCountsThatWouldOverflowWhenAddedUpAreRefused() throws {
        let big = "4503599627370496"  // 2^52: two of them reach the limit
        let buckets = (1...40).map { "[\($0 * 1000),\(big)]" }.joined(separator: ",")
        let wide = report().replacingOccurrences(of: "[[1000,1]]}],", with: "[\(buckets)]}],")
        let dir = try folder(["a.json": wide, "b.json": report(bucket: big), "c.json": report(bucket: big), "d.json": report(bucket: big)])
        for files in [["a.json"], ["b.json", "c.json", "d.json"]] {
            let r = try CLI.run(["report", "merge"] + files + ["--json", "m.json", "--report-html", "m.html"], cwd: dir)
            XCTAssertEqual(r.code, 2, "\(files): " + r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains("add up beyond 9007199254740992"), "\(files): " + r.stderr)
        }
        let good = try CLI.run(["report", "merge", "b.json", "--json", "m.json", "--report-html", "m.html"], cwd: dir)
        XCTAssertEqual(good.code, 0, good.stdout + good.stderr)
    }
}
