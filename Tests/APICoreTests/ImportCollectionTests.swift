import XCTest
@testable import APITargets
@testable import APIImport

/// What `import postman` and `import insomnia` share: variables → `${NAME}` with literal text
/// around them, defaults only for harmless values, URLs cut outside `{{ }}`, auth without secrets.
final class ImportCollectionTests: XCTestCase {
    func testVariableNames() {
        XCTAssertEqual(CollectionVariables.name("baseUrl"), "BASE_URL")
        XCTAssertEqual(CollectionVariables.name("base_url"), "BASE_URL")
        XCTAssertEqual(CollectionVariables.name("base-url"), "BASE_URL")
        XCTAssertEqual(CollectionVariables.name("$randomInt"), "RANDOM_INT")
        XCTAssertEqual(CollectionVariables.name("2fa code"), "_2FA_CODE")
        XCTAssertEqual(CollectionVariables.name("ünï"), "N")
        XCTAssertEqual(CollectionVariables.name("--"), "VAR")
    }

    func testPostmanTextIsLiteralAroundVariables() {
        var v = CollectionVariables(syntax: .postman, values: ["server": "api.example.com", "token": "abc", "odd": "a}b", "home": "x"])
        v.prefix = "SVC"
        XCTAssertEqual(v.text("https://{{server}}/x"), "https://${SERVER:-api.example.com}/x")
        XCTAssertEqual(v.text("Bearer {{token}}"), "Bearer ${SVC_TOKEN}")             // a secret: prefixed, its value no default
        XCTAssertEqual(v.text("{{odd}}"), "${ODD}")                                     // `}` cannot be in a default
        XCTAssertEqual(v.text("{id} ${HOME} {{home}}"), "${{}id} $${HOME} ${SVC_HOME:-x}")
        XCTAssertEqual(v.text("{{ }} {{unclosed"), "{{ }} {{unclosed")
        XCTAssertEqual(v.text("$ {{server}}"), "$ ${SERVER:-api.example.com}")
        XCTAssertEqual(v.text("a${{server}}"), "a${SERVER:-api.example.com}")               // the `$` cannot stay: warned
        XCTAssertEqual(v.warnings, ["a '$' right before {{server}} cannot be written before a variable; it is left out"])
        XCTAssertEqual(v.notes, ["Set before calling (export, or in targets/.env): ${SVC_TOKEN}, ${ODD}.",
                                 "With defaults from the input's values: ${SERVER}, ${SVC_HOME}."])
    }

    func testInsomniaVariablesAndInlining() {
        var v = CollectionVariables(syntax: .insomnia, values: ["base_url": "{{ scheme }}://{{ _.h }}", "scheme": "https", "h": "x.io",
                                                                "loop": "{{ loop }}"])
        XCTAssertEqual(v.inlined("{{ _.base_url }}/p"), "{{ scheme }}://{{ _.h }}/p")
        XCTAssertEqual(v.resolved("{{ _.base_url }}/p"), "https://x.io/p")
        XCTAssertNil(v.resolved("{{ missing }}"))
        XCTAssertNil(v.resolved("{{ loop }}"))                                          // a cycle ends
        XCTAssertEqual(v.text("{{ _.h }} {% uuid %} {{ x | upper }}"), "${H:-x.io} {% uuid %} {{ x | upper }}")
        XCTAssertEqual(v.warnings, ["Insomnia template tags ({% … %}) have no apicli equivalent; they are sent as written"])
    }

    /// Issue 34 item 6: `{{GITHUB_TOKEN}}` was `${GITHUB_TOKEN}`, so `call` sent the user's own
    /// token to the collection's host. A variable the input does not define, and a secret-named
    /// one, get the service's prefix; a defined, harmless one stays as the input names it.
    func testUndeclaredAndSecretVariablesArePrefixed() {
        var postman = CollectionVariables(syntax: .postman, values: ["baseUrl": "https://api.example.com", "AWS_SECRET_ACCESS_KEY": "abc"])
        postman.prefix = "SHOP"
        XCTAssertEqual(postman.text("token {{GITHUB_TOKEN}}"), "token ${SHOP_GITHUB_TOKEN}")
        XCTAssertEqual(postman.text("{{AWS_SECRET_ACCESS_KEY}}"), "${SHOP_AWS_SECRET_ACCESS_KEY}")
        XCTAssertEqual(postman.text("{{userId}}"), "${SHOP_USER_ID}")                        // not defined by the input
        XCTAssertEqual(postman.text("{{baseUrl}}/x"), "${BASE_URL:-https://api.example.com}/x")
        XCTAssertEqual(postman.text("{{SHOP_ID}}"), "${SHOP_ID}")                               // prefixed already
        var insomnia = CollectionVariables(syntax: .insomnia, values: [:])
        insomnia.prefix = "DEMO"
        XCTAssertEqual(insomnia.text("{{ _.NPM_TOKEN }}"), "${DEMO_NPM_TOKEN}")
    }

    func testSecretsAndDefaults() {
        XCTAssertTrue(CollectionVariables.isSecret(name: "apiKey", value: "x"))
        XCTAssertTrue(CollectionVariables.isSecret(name: "session_id", value: "x"))
        XCTAssertTrue(CollectionVariables.isSecret(name: "anything", value: "eyJhbGciOi.x.y"))
        XCTAssertFalse(CollectionVariables.isSecret(name: "baseUrl", value: "https://x"))
        XCTAssertFalse(CollectionVariables.isDefaultable("a\r\nb"))
        XCTAssertFalse(CollectionVariables.isDefaultable("${HOME}"))
        XCTAssertTrue(CollectionVariables.isDefaultable("https://a.b/c?d=e"))
    }

    func testURLCutOutsideBraces() {
        let a = CollectionURL("{{base}}/users/:id?x=1&y&z=a%20b#frag")
        XCTAssertEqual(a.origin, "{{base}}")
        XCTAssertEqual(a.path, "/users/:id")
        XCTAssertEqual(a.query.map(\.key), ["x", "y", "z"])
        XCTAssertEqual(a.query.map(\.value), ["1", nil, "a b"])
        XCTAssertEqual(a.pathVariables, ["id"])
        let b = CollectionURL("{{scheme}}://{{host/with/slash}}:8080/a?b={{c?d}}")
        XCTAssertEqual(b.origin, "{{scheme}}://{{host/with/slash}}:8080")
        XCTAssertEqual(b.path, "/a")
        XCTAssertEqual(b.query.first?.value, "{{c?d}}")
        XCTAssertEqual(CollectionURL.segment("a%20b"), "a b")
        XCTAssertEqual(CollectionURL.segment("a%2Fb"), "a%2Fb")                        // an escaped `/` stays escaped
        XCTAssertEqual(CollectionURL.segment("100%"), "100%")
        let c = CollectionURL("localhost:4010/graphql")
        XCTAssertEqual(c.origin, "http://localhost:4010")
        XCTAssertEqual(c.path, "/graphql")
    }

    func testAuthNeverWritesALiteralSecret() {
        var v = CollectionVariables(syntax: .postman, values: [:])
        v.prefix = "SVC"
        let bearer = CollectionAuth.map(.bearer(token: "s3cr3t"), prefix: "SVC", variables: &v)
        XCTAssertEqual(bearer.auth, .map([.pair("bearer", .string("${SVC_TOKEN}"))]))
        XCTAssertEqual(bearer.notes, ["The input's token is not written: set ${SVC_TOKEN}."])
        let fromVariable = CollectionAuth.map(.bearer(token: "{{myToken}}"), prefix: "SVC", variables: &v)
        XCTAssertEqual(fromVariable.auth, .map([.pair("bearer", .string("${SVC_MY_TOKEN}"))]))
        let key = CollectionAuth.map(.apiKey(name: "Bad Name", value: "k", inQuery: false), prefix: "SVC", variables: &v)
        XCTAssertNil(key.auth)
        XCTAssertEqual(key.warnings.count, 1)
        XCTAssertEqual(key.notes, [])
        let oauth = CollectionAuth.map(.oauth2(grant: "client_credentials", tokenURL: "https://a/token", clientId: "app", scope: "r w"),
                                       prefix: "SVC", variables: &v)
        XCTAssertEqual(oauth.auth, .map([.pair("oauth2", .map([
            .pair("tokenURL", .string("https://a/token")), .pair("clientId", .string("app")),
            .pair("clientSecret", .string("${SVC_CLIENT_SECRET}")), .pair("scope", .string("r w")),
            .pair("grant", .string("client_credentials"))]))]))
    }

    func testStatusAssertedByATestScript() {
        XCTAssertEqual(PostmanMapper.assertedStatus("pm.test('x', () => { pm.response.to.have.status(201); })"), 201)
        XCTAssertNil(PostmanMapper.assertedStatus("pm.response.to.have.status(code)"))
        XCTAssertNil(PostmanMapper.assertedStatus("pm.response.to.have.status(99999999999999999999)"))
    }
}
