import XCTest
import Crypto
@testable import APISupport
@testable import APITargets
@testable import APITransport
@testable import APISend
@testable import APIImport

/// AWS's published Signature Version 4 test suite (Fixtures/aws4_testsuite, see its SOURCE.txt):
/// for every request, the canonical request, the string to sign and the `Authorization` are
/// byte-equal to the suite's.
final class SigV4SignerTests: XCTestCase {
    static let credentials = AWSCredentials(accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                            region: "us-east-1", service: "service")

    /// One `.req` file: `METHOD path?query HTTP/1.1`, headers (a line starting with a space
    /// continues the previous one), a blank line, the body.
    struct Vector {
        var name: String
        var method: String
        var path: String
        var query: String?
        var headers: [HeaderField]
        var body: Data
        var stamp: String { headers.first { $0.name.lowercased() == "x-amz-date" }?.value ?? "" }
    }

    static func vectors() throws -> [(Vector, dir: String)] {
        let root = Fixtures.path("aws4_testsuite")
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var out: [(Vector, String)] = []
        for case let relative as String in walker where relative.hasSuffix(".req") {
            let file = root + "/" + relative
            let name = (relative as NSString).lastPathComponent.replacingOccurrences(of: ".req", with: "")
            // Signed after the token is added in the suite's "after" variant: apicli signs the token, as botocore does.
            if name == "post-sts-header-after" { continue }
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let (head, body) = text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
            var lines = head.components(separatedBy: "\n")
            let first = lines.removeFirst()
            let method = String(first.prefix { $0 != " " })
            var target = String(first.dropFirst(method.count + 1))
            if target.hasSuffix(" HTTP/1.1") { target.removeLast(" HTTP/1.1".count) }
            let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            var headers: [HeaderField] = []
            for line in lines {
                if line.first == " " || line.first == "\t", let last = headers.popLast() {
                    headers.append(HeaderField(last.name, last.value + "\n" + line))
                } else if let colon = line.firstIndex(of: ":") {
                    headers.append(HeaderField(String(line[..<colon]), String(line[line.index(after: colon)...])))
                }
            }
            out.append((Vector(name: name, method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil,
                               headers: headers, body: Data(body.utf8)), (file as NSString).deletingLastPathComponent))
        }
        return out.sorted { $0.0.name < $1.0.name }
    }

    func testEveryVectorOfTheSuite() throws {
        let all = try Self.vectors()
        XCTAssertGreaterThanOrEqual(all.count, 32, "the suite's .req files are in the test bundle")
        for (v, dir) in all {
            func expected(_ ext: String) throws -> String {
                try String(contentsOfFile: "\(dir)/\(v.name).\(ext)", encoding: .utf8)
            }
            var credentials = Self.credentials
            var headers = v.headers
            if v.name == "get-vanilla-with-session-token" {
                // The suite's .req leaves the header out; its .creq shows the token signed.
                credentials.sessionToken = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267"
                headers.append(HeaderField("X-Amz-Security-Token", credentials.sessionToken!))
            }
            let signer = SigV4Signer(credentials)
            let hash = SigV4Signer.hex(SHA256.hash(data: v.body))
            let (canonical, _) = signer.canonicalRequest(method: v.method, path: v.path, query: v.query, headers: headers, payloadHash: hash)
            XCTAssertEqual(canonical, try expected("creq"), "\(v.name): canonical request")
            let scope = "\(v.stamp.prefix(8))/us-east-1/service/aws4_request"
            XCTAssertEqual(signer.stringToSign(canonical, stamp: v.stamp, scope: scope), try expected("sts"), "\(v.name): string to sign")
            XCTAssertEqual(signer.authorization(method: v.method, path: v.path, query: v.query, headers: headers, payloadHash: hash,
                                                stamp: v.stamp), try expected("authz"), "\(v.name): Authorization")
        }
    }

    /// `sign` as the transport calls it: from a URL (Host from it), the date formatted, the
    /// headers it adds, an `Authorization` already there replaced.
    func testSignAddsDateHostTokenAndAuthorization() throws {
        let url = try XCTUnwrap(URL(string: "https://example.amazonaws.com/?Param2=value2&Param1=value1"))
        let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
        let signed = SigV4Signer(Self.credentials).sign(method: "GET", url: url, headers: [HeaderField("Authorization", "Bearer old")],
                                                        payloadHash: SigV4Signer.hex(SHA256.hash(data: Data())), date: date)
        XCTAssertEqual(signed.map(\.name), ["X-Amz-Date", "Authorization"])
        XCTAssertEqual(signed[0].value, "20150830T123600Z")
        let authz = try String(contentsOfFile: Fixtures.path("aws4_testsuite/get-vanilla-query-order-key-case/get-vanilla-query-order-key-case.authz"),
                               encoding: .utf8)
        XCTAssertEqual(signed[1].value, authz)

        var withToken = Self.credentials
        withToken.sessionToken = "TOKEN"
        let host = try XCTUnwrap(URL(string: "http://127.0.0.1:8080/a%20b/../c?x=1"))
        let second = SigV4Signer(withToken).sign(method: "GET", url: host, headers: [], payloadHash: "UNSIGNED-PAYLOAD", date: date)
        XCTAssertEqual(second.map(\.name), ["X-Amz-Date", "X-Amz-Security-Token", "Authorization"])
        XCTAssertTrue(second[2].value.contains("SignedHeaders=host;x-amz-date;x-amz-security-token,"), second[2].value)
        let (canonical, _) = SigV4Signer(withToken).canonicalRequest(method: "GET", path: "/a%20b/../c", query: "x=1",
                                                                     headers: [HeaderField("host", SigV4Signer.host(host))], payloadHash: "h")
        XCTAssertEqual(canonical, "GET\n/c\nx=1\nhost:127.0.0.1:8080\n\nhost\nh")
    }

    /// Non-S3 services sign the path as sent encoded once more; S3 signs it as sent.
    func testPathEncodedTwiceExceptForS3() {
        XCTAssertEqual(SigV4Signer.canonicalPath("/my%20file.txt", encodeTwice: true), "/my%2520file.txt")
        XCTAssertEqual(SigV4Signer.canonicalPath("/my%20file.txt", encodeTwice: false), "/my%20file.txt")
        XCTAssertEqual(SigV4Signer.canonicalPath("", encodeTwice: false), "/")
        XCTAssertEqual(SigV4Signer.canonicalQuery("b=2&a=%7E&a=1&c"), "a=1&a=~&b=2&c=")
    }

    /// `X-Amz-Date` by arithmetic: FoundationEssentials has no "UTC" TimeZone by name (the
    /// Calendar form trapped once apicli stopped linking ICU).
    func testTimestampsWithoutACalendar() {
        XCTAssertEqual(SigV4Signer.timestamp(Date(timeIntervalSince1970: 0)), "19700101T000000Z")
        XCTAssertEqual(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1440938160.75)), "20150830T123600Z")
        XCTAssertEqual(SigV4Signer.timestamp(Date(timeIntervalSince1970: 1709251199)), "20240229T235959Z")
        XCTAssertEqual(SigV4Signer.timestamp(Date(timeIntervalSince1970: 951868800)), "20000301T000000Z")
        XCTAssertEqual(SigV4Signer.timestamp(Date(timeIntervalSince1970: 4102444800)), "21000101T000000Z")
        XCTAssertEqual(SigV4Signer.timestamp(Date(timeIntervalSince1970: -1)), "19691231T235959Z")
    }
}
