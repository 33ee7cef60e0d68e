import XCTest
@testable import APITargets
@testable import APISend

/// RFC 7616 §3.9.1's and RFC 2617 §3.5's worked examples, and the challenge parser.
final class DigestChallengeTests: XCTestCase {
    func testRFC7616ExamplesMD5AndSHA256() {
        let login = DigestLogin(user: "Mufasa", password: "Circle of Life")
        let header = #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=%@, "#
            + #"nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#
        for (algorithm, response) in [("MD5", "8ca523f5e9506fed4657c9700eebdbec"),
                                      ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")] {
            let parsed = DigestChallenge.parse([header.replacingOccurrences(of: "%@", with: algorithm)])
            XCTAssertEqual(parsed.count, 1)
            guard let challenge = parsed.first else { continue }
            XCTAssertEqual(challenge.algorithm.rawValue, algorithm)
            let value = challenge.authorization(login, method: "GET", uri: "/dir/index.html", nc: 1,
                                                cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
            XCTAssertTrue(value.contains(#"response="\#(response)""#), value)
            XCTAssertTrue(value.contains(#"nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ""#), value)
            XCTAssertTrue(value.hasSuffix(#"opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#), value)
        }
    }

    func testRFC2617Example() {
        let challenge = DigestChallenge.parse([#"Digest realm="testrealm@host.com", qop="auth,auth-int", "#
            + #"nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#])
        let value = challenge.first?.authorization(DigestLogin(user: "Mufasa", password: "Circle Of Life"), method: "GET",
                                                   uri: "/dir/index.html", nc: 1, cnonce: "0a4f113b") ?? ""
        XCTAssertTrue(value.contains(#"response="6629fae49393a05397450978507c4ef1""#), value)
    }

    func testSHA256IsPreferredAndOtherSchemesSkipped() {
        let parsed = DigestChallenge.parse([#"Basic realm="x", Digest realm="r", nonce="n1", algorithm=MD5"#,
                                            #"Digest realm="r", nonce="n2", algorithm=SHA-256, qop="auth", stale=TRUE"#,
                                            #"Digest realm="r", nonce="n3", algorithm=SHA-512-256"#,
                                            #"Digest realm="r", nonce="n4", qop="auth-int""#])
        XCTAssertEqual(parsed.map(\.nonce), ["n2", "n1"])
        XCTAssertEqual(parsed.first?.stale, true)
        XCTAssertEqual(parsed.last?.qopAuth, false)
    }

    func testWithoutQopTheRFC2069FormIsUsedAndNcCounts() {
        let c = DigestChallenge(realm: "r", nonce: "n", opaque: nil, algorithm: .md5Session, qopAuth: false)
        let value = c.authorization(DigestLogin(user: "u\"q", password: "p"), method: "GET", uri: "/", nc: 0x1f, cnonce: "c")
        XCTAssertFalse(value.contains("qop="), value)
        XCTAssertTrue(value.hasPrefix(#"Digest username="u\"q", realm="r", nonce="n", uri="/", algorithm=MD5-sess, response=""#), value)
        let q = DigestChallenge(realm: "r", nonce: "n", opaque: nil, algorithm: .md5, qopAuth: true)
        XCTAssertTrue(q.authorization(DigestLogin(user: "u", password: "p"), method: "GET", uri: "/", nc: 0x1f, cnonce: "c")
                        .contains("nc=0000001f"))
    }
}
