import Foundation
import XCTest

/// Flaky checks, GitHub Actions annotations and step summary, and the HTML report in a real browser.
final class CheckCISurfacesTests: FolderTestCase {

    private let env = CheckShardMergeTests.noEngine

    // MARK: flaky

    func testAPassOnARetryIsFlakyInEveryReport() throws {
        // GIVEN a server whose /flaky/1/… paths answer 503 once, then 200
        _ = try CLI.httpbin()
        let server = try FlakyServer()
        defer { server.stop() }
        let yaml = { (tag: String) in """
            baseURL: http://127.0.0.1:9
            validate: success
            targets:
              once: { path: /flaky/1/\(tag), task: { query: { after: 0 } } }
              fine: { path: /ok/\(tag) }
              broken: { path: /flaky/9/\(tag), task: { query: { after: 0 } } }
            """ }
        let dir = try folder(["f.yaml": yaml("a")])
        let json = dir.appendingPathComponent("r.json"), junit = dir.appendingPathComponent("r.xml")
        // WHEN checked with two retries
        let r = try CLI.run(["check", "--targets", dir.path, "--base-url", server.url, "--retries", "2",
                             "--json", json.path, "--junit", junit.path], env: env)
        // THEN the one that recovered passed, flagged flaky, in the line, the summary, JSON and JUnit
        XCTAssertEqual(r.code, 1, r.stderr)
        let lines = CheckSupport.normalized(r.stdout).split(separator: "\n")
        XCTAssertEqual(lines.first, "PASS f.once 200 T ms (2 attempts, flaky)")
        XCTAssertEqual(lines.last, "2 passed, 1 failed, 1 flaky")
        let report = try CheckSupport.report(json)
        XCTAssertEqual(report["summary"] as? [String: Int], ["passed": 2, "failed": 1, "skipped": 0, "flaky": 1])
        XCTAssertEqual(CheckSupport.results(report).map { $0["flaky"] as? Bool }, [true, false, false])
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains("""
            <testcase name="once" classname="f" time="
            """), xml)
        let flakyElements = xml.components(separatedBy: "<flakyFailure ").count - 1
        XCTAssertEqual(flakyElements, 1, xml)
        XCTAssertTrue(xml.contains("<flakyFailure message=\"attempt 1: status 503\" type=\"status\"><stackTrace>attempt 1 of 2: status 503, "),
                      xml)
        let (lint, output) = try CheckSupport.xmllint(junit)
        XCTAssertEqual(lint, 0, output)
        // AND the HTML report, opened in Chromium and filtered to flaky checks, shows that one
        let html = dir.appendingPathComponent("r.html")
        let merged = try CLI.run(["report", "merge", json.path, "--report-html", html.path], env: env)
        XCTAssertEqual(merged.code, 1, merged.stderr)
        let browser = try Chromium()
        defer { try? FileManager.default.removeItem(at: browser.profile) }
        let dom = try browser.dumpDOM(html, fragment: "flaky")
        XCTAssertTrue(dom.contains("<p id=\"showing\">showing 1 of 3 (flaky)</p>"), dom)
        XCTAssertTrue(dom.contains("<tr class=\"check\" data-status=\"flaky\"><td class=\"verdict flaky\">FLAKY</td><td>f.once</td>"), dom)

        // AND with --fail-on-flaky a run whose only blemish is a flaky check exits 1
        let onlyFlaky = try folder(["g.yaml": "baseURL: http://127.0.0.1:9\nvalidate: success\ntargets:\n"
                                   + "  once: { path: /flaky/1/b, task: { query: { after: 0 } } }\n"])
        let strict = try CLI.run(["check", "--targets", onlyFlaky.path, "--base-url", server.url, "--retries", "1", "--fail-on-flaky"],
                                 env: env)
        XCTAssertEqual(strict.code, 1, strict.stdout)
        XCTAssertEqual(CheckSupport.normalized(strict.stdout).split(separator: "\n").last, "1 passed, 0 failed, 1 flaky")
        let lenient = try CLI.run(["check", "--targets", onlyFlaky.path, "--base-url", server.url, "--retries", "1"], env: env)
        XCTAssertEqual(lenient.code, 0, lenient.stdout)  // the path answers 200 at once now: no longer flaky
        XCTAssertEqual(CheckSupport.normalized(lenient.stdout).split(separator: "\n").last, "1 passed, 0 failed")
    }

    // MARK: GitHub Actions

    private let ghTargets = """
        baseURL: http://127.0.0.1:9
        targets:
          fine: { sample: { status: 200 } }
          missing:
            path: /x
            expect: { status: 200, json: { "$.a": 1 } }
            sample: { status: 404, json: { a: "50%, b:c" } }
          pipes: { expect: { json: { "$.t": "|<b>x</b>|" } }, sample: { json: { t: "a|b" } } }
        """

    func testUnderGitHubActionsFailuresAreAnnotatedAndSummarised() throws {
        // GIVEN a workspace with a target file, and a step summary file that an earlier step wrote to
        let workspace = try folder(["targets/gh.yaml": ghTargets])
        let summary = workspace.appendingPathComponent("summary.md")
        try Data("earlier step\n".utf8).write(to: summary)
        let gh = env.merging(["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path, "GITHUB_WORKSPACE": workspace.path]) { _, n in n }
        // WHEN checked there
        let r = try CLI.run(["check", "--stub", "--targets", workspace.appendingPathComponent("targets").path], env: gh)
        // THEN each failure is an ::error at its target's line, relative to the workspace, escaped
        XCTAssertEqual(r.code, 1)
        let annotations = r.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        XCTAssertEqual(annotations, [
            "::error file=targets/gh.yaml,line=4,title=gh.missing failed::status 404, expected 200%0A$.a is \"50%25, b:c\", expected 1",
            "::error file=targets/gh.yaml,line=8,title=gh.pipes failed::$.t is \"a|b\", expected \"|<b>x</b>|\"",
        ])
        // AND the summary is appended after what was there, as Markdown with nothing unescaped
        XCTAssertEqual(try String(contentsOf: summary, encoding: .utf8), """
            earlier step
            ### apicli check: 1 passed, 2 failed

            | result | check | status | time | failed expectations |
            | --- | --- | --- | --- | --- |
            | ❌ failed | gh.missing | 404 | \(try time(of: "missing", in: r.stdout)) | status 404, expected 200<br>$.a is "50%, b:c", expected 1 |
            | ❌ failed | gh.pipes | 200 | \(try time(of: "pipes", in: r.stdout)) | $.t is "a\\|b", expected "\\|&lt;b&gt;x&lt;/b&gt;\\|" |


            """)
        // AND outside GitHub Actions there is neither
        let plain = try CLI.run(["check", "--stub", "--targets", workspace.appendingPathComponent("targets").path],
                                env: env.merging(["GITHUB_STEP_SUMMARY": summary.path]) { _, n in n })
        XCTAssertFalse(plain.stdout.contains("::error"), plain.stdout)
        XCTAssertTrue(try String(contentsOf: summary, encoding: .utf8).hasSuffix("|\n\n"))
        XCTAssertEqual(try String(contentsOf: summary, encoding: .utf8).components(separatedBy: "### apicli check").count, 2)
    }

    func testNoReportHoldsASecretHeaderValue() throws {
        // GIVEN a failed expectation on a response's Set-Cookie, whose value is a secret
        let dir = try folder(["s.yaml": """
            baseURL: http://127.0.0.1:9
            targets:
              login:
                expect: { headers: { Set-Cookie: "~other" } }
                sample: { headers: { Set-Cookie: "session=s3cr3t-cookie" } }
            """])
        let summary = dir.appendingPathComponent("summary.md")
        let outputs = ["r.json", "r.xml", "r.html"].map { dir.appendingPathComponent($0) }
        // WHEN every report is written, under GitHub Actions
        let r = try CLI.run(["check", "--stub", "--targets", dir.path, "--json", outputs[0].path, "--junit", outputs[1].path,
                             "--report-html", outputs[2].path],
                            env: env.merging(["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path]) { _, n in n })
        // THEN the failure is in each, the value in none
        XCTAssertEqual(r.code, 1)
        for text in [r.stdout, r.stderr] + (try (outputs + [summary]).map { try String(contentsOf: $0, encoding: .utf8) }) {
            XCTAssertTrue(text.isEmpty || text.contains("value hidden"), text)
            XCTAssertFalse(text.contains("s3cr3t"), text)
        }
    }

    /// The time the text line of `target` shows (`12 ms`), as the summary shows it too.
    private func time(of target: String, in stdout: String) throws -> String {
        let line = try XCTUnwrap(stdout.split(separator: "\n").first { $0.contains("gh.\(target) ") })
        let range = try XCTUnwrap(line.range(of: "[0-9]+ ms", options: .regularExpression))
        return String(line[range])
    }

    // MARK: HTML report

    private let htmlTargets = """
        baseURL: http://127.0.0.1:9
        targets:
          ok1: { sample: { status: 200 } }
          ok2: { sample: { status: 200 } }
          ok3: { sample: { status: 200 } }
          evil:
            expect: { json: { "$.name": safe } }
            sample: { json: { name: "<img src=x onerror=\\"document.title='owned'\\">" } }
          bad: { expect: { status: 201 }, sample: { status: 200 } }
          nosample: { path: /n }
        """

    func testTheHTMLReportRendersItsRowsAndFiltersThemInChromium() throws {
        // GIVEN an HTML report of 3 passes, 2 failures (one with markup in its message) and a skip
        let browser = try Chromium()
        defer { try? FileManager.default.removeItem(at: browser.profile) }
        let dir = try folder(["h.yaml": htmlTargets])
        let html = dir.appendingPathComponent("report.html")
        let r = try CLI.run(["check", "--stub", "--targets", dir.path, "--report-html", html.path], env: env)
        XCTAssertEqual(r.code, 1, r.stderr)
        let page = try String(contentsOf: html, encoding: .utf8)
        XCTAssertNil(page.range(of: "(src|href)=\"(https?:)?//", options: .regularExpression), "the page loads something from outside")

        // WHEN Chromium opens it filtered to the failures
        let dom = try browser.dumpDOM(html, fragment: "failed")
        // THEN its script ran: only the failed rows are visible, the markup is text, not an element
        XCTAssertTrue(dom.contains("<p id=\"showing\">showing 2 of 6 (failed)</p>"), dom)
        let rows = dom.components(separatedBy: "<tr class=\"check\"").dropFirst()
        XCTAssertEqual(rows.count, 6)
        let visible = rows.filter { !$0.prefix(60).contains("hidden") }
        XCTAssertEqual(visible.map { $0.hasPrefix(" data-status=\"failed\">") }, [true, true], dom)
        XCTAssertFalse(dom.contains("<img"), dom)
        XCTAssertTrue(dom.contains("&lt;img src=x onerror="), dom)
        XCTAssertFalse(dom.contains("<title>owned"), dom)

        // AND its screenshots show one coloured result cell per visible row
        let colours = ["passed": "2e7d32", "failed": "c62828", "skipped": "5c6bc0"]
        let all = try browser.bands(html, fragment: "all", colours: Array(colours.values))
        XCTAssertEqual(all, [colours["passed"]!: 3, colours["failed"]!: 2, colours["skipped"]!: 1])
        let failedOnly = try browser.bands(html, fragment: "failed", colours: Array(colours.values))
        XCTAssertEqual(failedOnly, [colours["passed"]!: 0, colours["failed"]!: 2, colours["skipped"]!: 0])
        let passedOnly = try browser.bands(html, fragment: "passed", colours: Array(colours.values))
        XCTAssertEqual(passedOnly, [colours["passed"]!: 3, colours["failed"]!: 0, colours["skipped"]!: 0])
    }
}

/// Debian's headless Chromium, for the HTML report test. `make deps` installs it; missing, the test
/// skips, unless APICLI_REQUIRE_LIVE=1 (`make test`), where it fails.
struct Chromium {
    let path: String
    let profile: URL

    init() throws {
        guard let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            if ProcessInfo.processInfo.environment["APICLI_REQUIRE_LIVE"] == "1" {
                XCTFail("chromium is missing: `make deps` installs it (Debian package chromium)")
            }
            throw XCTSkip("chromium is missing (Debian: chromium)")
        }
        path = found
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("apicli-chromium-\(UUID().uuidString)")
    }

    func run(_ args: [String]) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                       "--user-data-dir=\(profile.path)"] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let killer = DispatchWorkItem { p.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        killer.cancel()
        XCTAssertEqual(p.terminationStatus, 0, "chromium \(args)")
        return data
    }

    func dumpDOM(_ file: URL, fragment: String) throws -> String {
        String(decoding: try run(["--dump-dom", file.absoluteString + "#" + fragment]), as: UTF8.self)
    }

    /// Screenshot of the page, then the bands of each colour in it (Tests/Servers/png-bands.py).
    func bands(_ file: URL, fragment: String, colours: [String], size: String = "900,700") throws -> [String: Int] {
        let png = profile.deletingLastPathComponent().appendingPathComponent("apicli-shot-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        _ = try run(["--window-size=\(size)", "--screenshot=\(png.path)", file.absoluteString + "#" + fragment])
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", CLI.root.appendingPathComponent("Tests/Servers/png-bands.py").path, png.path] + colours
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Int])
    }
}
