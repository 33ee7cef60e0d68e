import Foundation
import XCTest

/// `apicli call --stub`, `list` and `show`: no network at all.
final class StubCallTests: XCTestCase {
    func testEveryShippedTargetAnswersFromItsSample() throws {
        let list = try CLI.run(["list", "--json"])
        XCTAssertEqual(list.code, 0, list.stderr)
        let names = try JSONDecoder().decode([[String: String]].self, from: list.stdoutData).compactMap { $0["name"] }
        XCTAssertEqual(names.count, 12)
        for name in names {
            let r = try CLI.run(["call", name, "--stub"])
            XCTAssertEqual(r.code, 0, "\(name): \(r.stderr)")
        }
    }

    func testZenSampleIsPrintedExactly() throws {
        let r = try CLI.run(["call", "github.zen", "--stub"])
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.stdout, "Design for failure.")
        XCTAssertEqual(r.stderr, "")
    }

    func testJSONSampleWithIncludeHasStatusAndContentType() throws {
        let r = try CLI.run(["call", "github.userProfile", "--stub", "-i"])
        XCTAssertEqual(r.code, 0)
        XCTAssertTrue(r.stdout.hasPrefix("HTTP/1.1 200 OK\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Content-Type: application/json"), r.stdout)
        XCTAssertTrue(r.stdout.contains(#""login":"moya""#), r.stdout)
    }

    func testNamedSampleRunsTheSameValidationAsALiveResponse() throws {
        // GIVEN validate: success and a 404 sample WHEN stubbed THEN rejected, exit 1, body still printed
        let r = try CLI.run(["call", "github.userProfile", "--stub", "--sample", "notFound"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stdout.hasPrefix(#"{"message":"Not Found""#), r.stdout)
        XCTAssertEqual(r.stderr, "apicli: github.userProfile: rejected: status 404 Not Found is not accepted by validate: success (200-299)\n")
    }

    func testErrorSampleFailsAsANetworkError() throws {
        let r = try CLI.run(["call", "github.userProfile", "--stub", "--sample", "offline"])
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stdout, "")
        XCTAssertEqual(r.stderr, "apicli: github.userProfile: network error: The Internet connection appears to be offline.\n")
    }

    func testDelayedSampleWaits() throws {
        let r = try CLI.run(["call", "github.userProfile", "--stub", "--sample", "slow"])
        XCTAssertEqual(r.code, 0)
        XCTAssertGreaterThanOrEqual(r.seconds, 1.5)
        XCTAssertLessThan(r.seconds, 10)
        // a delay beyond the timeout fires the timeout, as a live call would
        let t = try CLI.run(["call", "github.userProfile", "--stub", "--sample", "slow", "--timeout", "0.2"])
        XCTAssertEqual(t.code, 4)
        XCTAssertEqual(t.stderr, "apicli: github.userProfile: timed out after 200 ms\n")
    }

    func testParamsExpandInThePathAndShowPrintsTheResolvedEndpoint() throws {
        let r = try CLI.run(["show", "github.userProfile", "-p", "name=octo cat"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\nGET https://api.github.com/users/octo%20cat\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\nvalidate  success (200-299)\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\ntimeout   30 s\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("samples   sample (200), notFound (404), offline (error), slow (200, after 1.50 s)"), r.stdout)
    }

    func testStubWritesOutputFileAtomically() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("zen.txt").path
        let r = try CLI.run(["call", "github.zen", "--stub", "-o", file])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "Design for failure.")
        let bad = try CLI.run(["call", "github.zen", "--stub", "-o", dir.appendingPathComponent("missing/dir/x").path])
        XCTAssertEqual(bad.code, 5)
        XCTAssertTrue(bad.stderr.hasPrefix("apicli: github.zen: cannot write \(dir.path)/missing/dir/x: "), bad.stderr)
    }

    func testListShowsEveryTargetWithMethodAndURL() throws {
        let r = try CLI.run(["list"])
        XCTAssertEqual(r.code, 0)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 12)
        XCTAssertTrue(lines[0].hasPrefix("github.zen "), String(lines[0]))
        XCTAssertTrue(lines[0].contains(" GET   https://api.github.com/zen "), String(lines[0]))
        XCTAssertTrue(lines[0].hasSuffix(" A random line of GitHub's design philosophy"), String(lines[0]))
        XCTAssertTrue(r.stdout.contains("https://api.github.com/users/{name}"))
    }

    func testTargetsFolderFromEnvironmentAndBaseURLOverrideInList() throws {
        let dir = try CLI.folder(["api.yaml": "baseURL: https://example.test\ntargets: { ping: { path: /ping } }\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["list", "--base-url", "http://127.0.0.1:1"], env: ["APICLI_TARGETS": dir.path])
        XCTAssertEqual(r.stdout, "api.ping  GET  http://127.0.0.1:1/ping\n")
    }

    func testCompletionScriptOffersTargetNames() throws {
        let script = try CLI.run(["--generate-completion-script", "bash"])
        XCTAssertEqual(script.code, 0)
        XCTAssertTrue(script.stdout.contains("call"))
        // argument-parser asks the binary itself for custom completions
        // (the shape the generated bash script uses: word index, cursor index, then the words)
        let r = try CLI.run(["---completion", "call", "--", "positional@0", "2", "8", "apicli", "call", "github.u"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").map(String.init), ["github.userProfile", "github.userRepositories"])
    }
}
