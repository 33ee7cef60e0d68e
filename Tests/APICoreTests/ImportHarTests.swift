import XCTest
@testable import APISecrets
@testable import APIImport

/// The HAR import's judgements: which path segments are ids, which names hold credentials.
final class ImportHarTests: XCTestCase {
    func testIDsInPaths() {
        for id in ["42", "0", "123e4567-e89b-12d3-a456-426614174000", "5f1d7c2ab3e4f5a6b7c8d9e0", "AbC123dEf456GhI789jKl0"] {
            XCTAssertTrue(HarService.isID(id), id)
        }
        for word in ["users", "v2", "me", "2fa", "deadbeef", "checkout-session", "abcdefabcdefabcdef", "a_very_long_resource_name"] {
            XCTAssertFalse(HarService.isID(word), word)
        }
        let t = HarService.template("/api/users/42/orders/5f1d7c2ab3e4f5a6b7c8d9e0/%7Bx%7D")
        XCTAssertEqual(t.path, "/api/users/{id}/orders/{id2}/%7Bx%7D")
        XCTAssertEqual(t.route, "/api/users/{id}/orders/{id2}/{x}")
        XCTAssertEqual(t.params, [.pair("id", .string("42")), .pair("id2", .string("5f1d7c2ab3e4f5a6b7c8d9e0"))])
        // a literal brace in a segment stays literal text
        XCTAssertEqual(HarService.template("/a/{b}").path, "/a/${{}b}")
    }

    func testCredentialNames() {
        for name in ["Authorization", "access_token", "X-Api-Key", "apikey", "PHPSESSID", "sessionid", "sig", "client_secret",
                     "X-CSRF-Token", "password", "x-auth"] {
            XCTAssertTrue(Credentials.isSecretName(name), name)
        }
        for name in ["page", "sort", "signal", "q", "Accept", "X-Trace", "user", "author", "design", "config.setDiscoveredCookie"] {
            XCTAssertFalse(Credentials.isSecretName(name), name)
        }
        XCTAssertTrue(Credentials.isSecretName("request-signature") && Credentials.isSecretName("GITHUB_TOKEN"))
        XCTAssertEqual(ImportSecrets(service: "shop-eu").variable("access_token"), "SHOP_EU_ACCESS_TOKEN")
        XCTAssertEqual(ImportSecrets(service: "local").variable("sid"), "LOCAL_SID_SECRET")
        XCTAssertTrue(HarSecrets.isNoise(":authority") && HarSecrets.isNoise("Sec-Fetch-Mode") && !HarSecrets.isNoise("Accept"))
    }
}
