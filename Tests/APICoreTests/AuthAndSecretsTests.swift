import Foundation
import XCTest
@testable import APISupport
@testable import APISecrets
@testable import APITargets
@testable import APIEndpoint
@testable import APISend
@testable import APIImport

/// `auth:` decoding and resolution, the auth plugin, secret collection, redaction and `--curl`.
final class AuthAndSecretsTests: XCTestCase {
    private func resolve(_ yaml: String, _ name: String, env: [String: String] = [:]) throws -> Endpoint {
        let service = try decodeService(yaml)
        return try EndpointResolver(environment: env).endpoint(for: try service.requireTarget(name), in: service)
    }

    private let yaml = """
        baseURL: https://api.test
        auth: { bearer: "${GITHUB_TOKEN}" }
        targets:
          repos: { path: /repos }
          login: { path: /login, auth: none }
          basic: { auth: { basic: { user: "{user}", password: "${PW}" } }, params: { user: ann } }
          custom: { auth: { header: X-API-Key, value: "${API_KEY}" } }
        """
    private let env = ["GITHUB_TOKEN": "ghp_1", "PW": "pw 2", "API_KEY": "k3"]

    func testServiceAuthTargetAuthAndNone() throws {
        // GIVEN a service-wide bearer token, a target with auth: none and targets with their own auth
        // THEN each target resolves to its credential
        XCTAssertEqual(try resolve(yaml, "repos", env: env).credential, .bearer("ghp_1"))
        XCTAssertNil(try resolve(yaml, "login", env: env).credential)
        XCTAssertEqual(try resolve(yaml, "basic", env: env).credential, .basic(user: "ann", password: "pw 2"))
        XCTAssertEqual(try resolve(yaml, "custom", env: env).credential, .header(name: "X-API-Key", value: "k3"))
    }

    func testAuthPluginAddsTheHeaderUnlessOneIsSet() {
        // GIVEN a request with and without an Authorization header
        let bare = PreparedRequest(url: URL(string: "https://api.test")!, method: "GET", headers: [], body: nil, timeout: 1)
        var set = bare
        set.headers = [HeaderField("authorization", "mine")]
        // THEN each credential becomes its header, and a header already there wins
        XCTAssertEqual(AuthPlugin(.bearer("t")).prepare(bare).headers, [HeaderField("Authorization", "Bearer t")])
        XCTAssertEqual(AuthPlugin(.basic(user: "user", password: "passwd")).prepare(bare).headers,
                       [HeaderField("Authorization", "Basic dXNlcjpwYXNzd2Q=")])
        XCTAssertEqual(AuthPlugin(.header(name: "X-API-Key", value: "k")).prepare(bare).headers, [HeaderField("X-API-Key", "k")])
        XCTAssertEqual(AuthPlugin(.bearer("t")).prepare(set).headers, [HeaderField("authorization", "mine")])
    }

    func testBadAuthBlocksAreDiagnosed() {
        // GIVEN auth blocks that are not one of the forms
        let d = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              a: { auth: sometimes }
              b: { auth: { bearer: x, basic: { user: u, password: p } } }
              c: { auth: { beare: x } }
            """)
        // THEN each is reported where it stands
        XCTAssertEqual(d.map(\.message), ["unknown auth 'sometimes' in target 'a'",
                                          "auth of target 'b' takes one of bearer:, basic:, digest:, aws:, oauth2:, or header: with value:",
                                          "unknown key 'beare' in auth of target 'c'",
                                          "auth of target 'c' takes one of bearer:, basic:, digest:, aws:, oauth2:, or header: with value:"])
        XCTAssertEqual(d.map(\.mark), [at(3, 14), at(4, 14), at(5, 16), at(5, 14)])
        XCTAssertEqual(d[2].hint, "did you mean 'bearer'?")
    }

    func testSecretVariablesAreCollectedOthersAreNot() throws {
        // GIVEN headers and a query from variables, some named like secrets
        let endpoint = try resolve("""
            baseURL: https://api.test
            headers: { X-App: "${APP_NAME}", X-Auth: "${Auth_Token}" }
            targets:
              a: { task: { query: { s: "${CLIENT_SECRET}", p: "${DB_PASSWORD:-hunter2}", k: "${apikey}" } } }
            """, "a", env: ["APP_NAME": "demo", "Auth_Token": "t1", "CLIENT_SECRET": "c2", "apikey": "k3"])
        // THEN only the secret-named values are recorded, defaults included
        XCTAssertEqual(Set(endpoint.secrets), ["t1", "c2", "hunter2", "k3"])
    }

    func testRedactorHidesCredentialHeadersAndSecretValuesInAnyForm() {
        // GIVEN a redactor for a secret with characters a URL escapes
        let redactor = Redactor(secrets: ["a b&c"])
        // THEN credential headers, the value as written and as percent-encoded are hidden; off shows all
        XCTAssertEqual(redactor.header(HeaderField("Cookie", "x=1")), HeaderField("Cookie", "••••"))
        XCTAssertEqual(redactor.header(HeaderField("X-Key", "pre a b&c")), HeaderField("X-Key", "pre ••••"))
        XCTAssertEqual(redactor.text("https://h/p?k=a%20b%26c&z=1"), "https://h/p?k=••••&z=1")
        XCTAssertEqual(Redactor(secrets: [#"q"t"#]).text(#"{"k":"q\"t"}"#), #"{"k":"••••"}"#)
        XCTAssertEqual(Redactor.off.header(HeaderField("Cookie", "x=1")), HeaderField("Cookie", "x=1"))
    }

    func testSecretNamesInAnyCaseAndURLsKeptAsTheyAreWhenNothingIsHidden() {
        // GIVEN names as variables and query parameters have them
        // THEN a name is a secret's when it holds TOKEN, SECRET, PASSWORD or KEY in any case, non-ASCII too
        for name in ["API_TOKEN", "api_key", "X-Token", "client_secret", "Password", "monkey", "ſecret", "tökenKEY"] {
            XCTAssertTrue(Secrets.isSecretName(name), name)
        }
        for name in ["", "i", "id", "page", "tok", "kez", "pass_word", "sécret"] {
            XCTAssertFalse(Secrets.isSecretName(name), name)
        }
        XCTAssertTrue(Secrets.isSecretName("x-api-key"[...]), "a Substring")
        // AND a URL with nothing to hide comes back as it was, one with a credential parameter masked
        let redactor = Redactor(secrets: [])
        XCTAssertEqual(redactor.url("http://h/p?i=1&&x&page=2"), "http://h/p?i=1&&x&page=2")
        XCTAssertEqual(redactor.url("http://h/p?i=1&api%5Fkey=k&x&authorization=b"), "http://h/p?i=1&api%5Fkey=••••&x&authorization=••••")
    }

    func testURLsAreToldByTheirBytesOnlyWhenTheBytesAreTheCharacters() {
        // GIVEN URLs whose query parameters a redactor hides by name, in any case, or not
        let redactor = Redactor(secrets: [])
        func hidesNone(_ url: String) -> Bool {
            url.utf8.withContiguousStorageIfAvailable(Redactor.hidesNoParameter) ?? false
        }
        // THEN a URL with nothing to hide is told so by its bytes, and comes back as it was
        for url in ["http://h/p", "http://h/p?", "http://h/p?i=1", "http://h/p?i=1&&x&=&page=2&", "http://h/p?tok=1&kez=2&cookies=3"] {
            XCTAssertTrue(hidesNone(url), url)
            XCTAssertEqual(redactor.url(url), url)
        }
        // AND one with a credential parameter (any case), an escaped name, a CR or non-ASCII is left
        // to the character-wise path, which masks what it always masked
        let cases = [
            ("http://h/p?i=1&API_KEY=k", "http://h/p?i=1&API_KEY=••••"),
            ("http://h/p?Cookie=c&i=2", "http://h/p?Cookie=••••&i=2"),
            ("http://h/p?Proxy-Authorization=b", "http://h/p?Proxy-Authorization=••••"),
            ("http://h/p?x-Token-y=t", "http://h/p?x-Token-y=••••"),
            ("http://h/p?%74oken=t", "http://h/p?%74oken=••••"),
            ("http://h/ö?token=t", "http://h/ö?token=••••"),
            ("http://h/ö?i=1", "http://h/ö?i=1"),
            ("http://h/p?a=\r\n&b=1", "http://h/p?a=\r\n&b=1"),
        ]
        for (url, shown) in cases {
            XCTAssertEqual(redactor.url(url), shown, url)
        }
        for url in cases.prefix(6).map(\.0) + ["http://h/p?a=\r\n&b=1"] { XCTAssertFalse(hidesNone(url), url) }
        // AND a short secret hidden as a whole value still is (the byte path is not taken then)
        XCTAssertEqual(Redactor(secrets: ["ab"]).url("http://h/p?i=ab&j=abc"), "http://h/p?i=••••&j=abc")
    }

    func testCurlCommandIsQuotedForTheShellAndRedacted() {
        // GIVEN a POST with a quote in its body and a secret header
        let request = PreparedRequest(url: URL(string: "https://api.test/it's")!, method: "POST",
                                      headers: [HeaderField("Content-Type", "text/plain"), HeaderField("X-Key", "k3y9")],
                                      body: .data(Data("it's k3y9".utf8)), timeout: 30)
        // THEN every argument is single-quoted, quotes escaped, secrets hidden unless the redactor is off
        XCTAssertEqual(Curl.command(request, redactor: Redactor(secrets: ["k3y9"]), connection: ConnectionOptions()),
                       #"curl -L -X POST 'https://api.test/it'\''s' -H 'Content-Type: text/plain' -H 'X-Key: ••••' --data-binary 'it'\''s ••••' --max-time 30"# + "\n")
        XCTAssertEqual(Curl.command(request, redactor: .off, connection: ConnectionOptions()),
                       #"curl -L -X POST 'https://api.test/it'\''s' -H 'Content-Type: text/plain' -H 'X-Key: k3y9' --data-binary 'it'\''s k3y9' --max-time 30"# + "\n")
        var head = request
        (head.method, head.body, head.headers, head.timeout) = ("HEAD", nil, [], 1.5)
        XCTAssertEqual(Curl.command(head, redactor: .off, connection: ConnectionOptions()), "curl -L --head 'https://api.test/it'\\''s' --max-time 1.5\n")
    }
}

/// Issue 26, item 14: a secret shorter than the floor is not masked inside text (with
/// `API_TOKEN=e` every "e" of `-v` became ••••, garbling it and giving the secret away), only as
/// a whole header or query value.
final class ShortSecretTests: XCTestCase {
    func testShortSecretsAreMaskedOnlyAsWholeValues() {
        let redactor = Redactor(secrets: ["e", "longsecret"])
        XCTAssertEqual(redactor.text("> GET https://example.com/get?x=e"), "> GET https://example.com/get?x=e")
        XCTAssertEqual(redactor.text("token longsecret here"), "token •••• here")
        XCTAssertEqual(redactor.header(HeaderField("X-Token", "e")).value, "••••")
        XCTAssertEqual(redactor.header(HeaderField("X-Other", "keep")).value, "keep")
        XCTAssertEqual(redactor.url("https://example.com/get?x=e&y=ee"), "https://example.com/get?x=••••&y=ee")
    }
}
