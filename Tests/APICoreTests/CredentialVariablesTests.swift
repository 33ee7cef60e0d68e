import XCTest
@testable import APIYAML
@testable import APISecrets

/// `call --save`: the credential of a saved `auth:` becomes a `${VAR}` named after the service.
final class CredentialVariablesTests: XCTestCase {
    func testABearerTokenBecomesTheServicesTokenVariable() {
        let (auth, replaced) = CredentialVariables.replace(.map([.pair("bearer", .string("abc.def"))]), service: "my-api")
        XCTAssertEqual(auth, .map([.pair("bearer", .string("${MY_API_TOKEN}"))]))
        XCTAssertEqual(replaced, .init(what: "the bearer token", variable: "MY_API_TOKEN"))
        XCTAssertTrue(Secrets.isSecretName(replaced!.variable))
    }

    func testABasicPasswordBecomesAVariableAndTheUserStays() {
        let basic = YAMLOut.map([.pair("basic", .map([.pair("user", .string("bob")), .pair("password", .string("hunter2"))]))])
        let (auth, replaced) = CredentialVariables.replace(basic, service: "shop")
        XCTAssertEqual(auth, .map([.pair("basic", .map([.pair("user", .string("bob")), .pair("password", .string("${SHOP_PASSWORD}"))]))]))
        XCTAssertEqual(replaced, .init(what: "the password", variable: "SHOP_PASSWORD"))
        XCTAssertTrue(Secrets.isSecretName(replaced!.variable))
    }

    func testOtherAuthAndNoneStayAsTheyAre() {
        let digest = YAMLOut.map([.pair("digest", .map([.pair("user", .string("u"))]))])
        XCTAssertEqual(CredentialVariables.replace(digest, service: "s").auth, digest)
        XCTAssertNil(CredentialVariables.replace(digest, service: "s").replaced)
        XCTAssertNil(CredentialVariables.replace(nil, service: "s").auth)
        XCTAssertNil(CredentialVariables.replace(nil, service: "s").replaced)
    }
}
