import XCTest
@testable import APIEndpoint
@testable import APITransport
@testable import APIDiagnostics

/// Issue 34 items 18 and 19: the jar is bounded as curl bounds it (per domain, in all, the
/// `Cookie` header), oldest out; a cookie file with a control character is the file's error.
final class CookieJarLimitTests: XCTestCase {
    private let url = URL(string: "http://127.0.0.1:8080/set")!

    func testANewBigCookieOnEveryResponseKeepsTheJarAndTheHeaderBounded() throws {
        let jar = CookieJar()
        let value = String(repeating: "v", count: 4000)
        for i in 0..<300 {
            jar.store(["c\(i)=\(value); Path=/"], from: url, now: 1000)
            let header = try XCTUnwrap(jar.header(for: url, now: 1000))
            XCTAssertLessThanOrEqual(header.utf8.count, CookieJar.maxHeaderBytes, "after \(i + 1) responses")
            XCTAssertTrue(header.hasSuffix("c\(i)=\(value)"), "the newest cookie is sent")
        }
        let kept = jar.all(now: 1000)
        XCTAssertEqual(kept.count, CookieJar.maxPerDomain)
        XCTAssertEqual(kept.first?.name, "c150", "the oldest went first")
        XCTAssertEqual(kept.last?.name, "c299")
        // small cookies: at most 150 sent, the newest
        let small = CookieJar()
        small.store((0..<200).map { "s\($0)=1; Path=/" }, from: url, now: 1000)
        let sent = try XCTUnwrap(small.header(for: url, now: 1000)).components(separatedBy: "; ")
        XCTAssertEqual(sent.count, CookieJar.maxSentCookies)
        XCTAssertEqual(sent.first, "s50=1")
        // a cookie over 4096 bytes is not kept; one with a control character neither
        small.store(["big=" + String(repeating: "x", count: 4094), "ctl=a\u{1}b"], from: url, now: 1000)
        XCTAssertFalse(small.all(now: 1000).contains { $0.name == "big" || $0.name == "ctl" })
    }

    func testTheJarInAllIsBoundedOldestOut() {
        let jar = CookieJar()
        for host in 0..<25 {
            let at = URL(string: "http://h\(host).test/")!
            jar.store((0..<150).map { "k\($0)=1" }, from: at, now: 1000)
        }
        let all = jar.all(now: 1000)
        XCTAssertEqual(all.count, CookieJar.maxCookies)
        XCTAssertEqual(all.first?.domain, "h5.test", "the first five hosts' cookies, the oldest, went")
        XCTAssertEqual(all.last?.domain, "h24.test")
    }

    func testAControlCharacterInACookieFileNamesTheLineAndColumn() {
        let text = "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tab\u{7}c\n"
        XCTAssertThrowsError(try CookieJarFile.parse(text, file: "jar.txt")) { error in
            guard let e = error as? APIError, case .invalidInput(let all) = e, let d = all.first else { return XCTFail("\(error)") }
            XCTAssertEqual(d.mark?.line, 2)
            XCTAssertEqual(d.mark?.column, 33)
            XCTAssertTrue(d.message.contains("control character (0x07)"), d.message)
        }
    }
}
