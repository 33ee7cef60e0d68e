import Foundation
import XCTest

/// `apicli call URL`: a one-off request without a target file, read as the same curl command would
/// be, sent through the one send path (retries, -v, redaction, exit codes), and `--save` writing it
/// as a target that `call` and `check` then run.
final class AdHocCallTests: XCTestCase {
    var base = ""
    var dir: URL!

    override func setUpWithError() throws {
        base = try CLI.httpbin()
        dir = try CLI.folder([:])
    }

    override func tearDownWithError() throws {
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    func testAURLIsCalledWithHeadersAndABodyAsCurlWouldSendThem() throws {
        // GIVEN no target file WHEN a URL is called with -H and --json
        let r = try CLI.run(["call", "\(base)/post", "-H", "X-Trace: 7", "--json", #"{"a":1}"#], cwd: dir)
        // THEN httpbin saw a POST with the JSON body and both headers
        XCTAssertEqual(r.code, 0, r.stderr)
        let echo = try Echo.decode(r)
        XCTAssertEqual(echo.data, #"{"a":1}"#)
        XCTAssertEqual(echo.headers["Content-Type"], "application/json")
        XCTAssertEqual(echo.headers["X-Trace"], "7")
        // AND -X with -d sends that method and form data
        let put = try CLI.run(["call", "\(base)/put", "-X", "PUT", "-d", "x=1", "-d", "y=two words"], cwd: dir)
        XCTAssertEqual(try Echo.decode(put).form, ["x": .string("1"), "y": .string("two words")])
    }

    func testSecretsAreRedactedAndExitCodesAreTheTargets() throws {
        let r = try CLI.run(["call", "\(base)/status/503", "-v", "-H", "Authorization: Bearer s3cret-value-1", "--retries", "1"],
                            cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)  // no validate: in a one-off call: the response is printed as it is
        XCTAssertEqual(r.stderr.components(separatedBy: "> GET ").count - 1, 2, "a 503 is retried: \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("s3cret-value-1"), r.stderr)
        XCTAssertTrue(r.stderr.contains("> Authorization: ••••"), r.stderr)
        let refused = try CLI.run(["call", "http://127.0.0.1:9/x"], cwd: dir)
        XCTAssertEqual(refused.code, 3, refused.stderr)
        // -X and friends go with a URL only
        let misuse = try CLI.run(["call", "svc.t", "-X", "POST"], cwd: dir)
        XCTAssertEqual(misuse.code, 64)
        XCTAssertTrue(misuse.stderr.contains("Unknown option '-X'"), misuse.stderr)
        let badName = try CLI.run(["call", "\(base)/get", "--save", "no-dot"], cwd: dir)
        XCTAssertEqual(badName.code, 64, badName.stderr)
        XCTAssertTrue(badName.stderr.contains("--save takes service.target"), badName.stderr)
    }

    func testSaveWritesATargetThatCallAndCheckRunWithoutTheSecret() throws {
        // WHEN two requests to one API are saved
        let first = try CLI.run(["call", "\(base)/anything/items", "-X", "POST", "--json", #"{"n":1}"#,
                                 "-H", "Authorization: Bearer s3cret-value-2", "--save", "hb.create"], cwd: dir)
        XCTAssertEqual(first.code, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("written as ${HB_TOKEN} in hb.yaml"), first.stderr)
        let second = try CLI.run(["call", "\(base)/get", "--save", "hb.read", "-q"], cwd: dir)
        XCTAssertEqual(second.code, 0, second.stderr)
        // THEN one service file holds both, without the token, and validates
        let text = try String(contentsOf: dir.appendingPathComponent("targets/hb.yaml"), encoding: .utf8)
        XCTAssertFalse(text.contains("s3cret-value-2"), text)
        XCTAssertTrue(text.contains("create:") && text.contains("read:") && text.contains("${HB_TOKEN}"), text)
        XCTAssertEqual(try CLI.run(["validate"], cwd: dir).code, 0)
        // AND call runs the saved target with the variable set
        let again = try CLI.run(["call", "hb.create"], env: ["HB_TOKEN": "t-42"], cwd: dir)
        XCTAssertEqual(again.code, 0, again.stderr)
        XCTAssertEqual(try Echo.decode(again).headers["Authorization"], "Bearer t-42")
        XCTAssertEqual(try Echo.decode(again).data, #"{"n":1}"#)
        // AND a URL outside the file's baseURL is refused, the file untouched
        let other = try CLI.run(["call", "http://127.0.0.1:9/elsewhere", "--save", "hb.other", "--dry-run"], cwd: dir)
        XCTAssertEqual(other.code, 2, other.stderr)
        XCTAssertTrue(other.stderr.contains("is not under this file's baseURL"), other.stderr)
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("targets/hb.yaml"), encoding: .utf8), text)
    }
}
