import XCTest
@testable import APIYAML
@testable import APIDiagnostics
@testable import APISecrets
@testable import APIImport

/// What the importers share: one protocol (`read` maps the input, `run` adds the shared
/// rules), one grouping by origin, one numbering of repeated names (linear), one secret policy
/// (every credential a `${SERVICE_…}` variable) and one rule for header values they cannot write.
final class ImportShapeTests: XCTestCase {
    /// One generic function drives every importer.
    private func imported(_ importer: some Importer, _ name: String, _ text: String) throws -> ImportResult {
        try importer.run(ImportInput(name: name, text: text))
    }

    func testEveryImporterWritesEveryCredentialAsAPrefixedVariable() throws {
        // GIVEN the same request with a bearer token, a cookie and an API key, in each importer's input
        let curl = try imported(CurlImport(options: .init(cwd: "/")), "curl",
                                "curl 'http://127.0.0.1:9/x?api_key=QKEY' -H 'Authorization: Bearer TOK123' -H 'Cookie: sid=CK123' -H 'X-Api-Key: AK123'")
        let postman = try imported(PostmanImport(options: .init(service: "svc")), "c.json", """
            {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "x", "request": {"url": "http://127.0.0.1:9/x?api_key=QKEY", "header": [
               {"key": "Authorization", "value": "Bearer TOK123"}, {"key": "Cookie", "value": "sid=CK123"},
               {"key": "X-Api-Key", "value": "AK123"}]}}]}
            """)
        let insomnia = try imported(InsomniaImport(options: .init(service: "svc")), "i.json", """
            {"__export_format": 4, "resources": [{"_id": "wrk", "_type": "workspace", "name": "w"},
              {"_id": "r1", "_type": "request", "parentId": "wrk", "name": "x", "method": "GET", "url": "http://127.0.0.1:9/x?api_key=QKEY",
               "headers": [{"name": "Authorization", "value": "Bearer TOK123"}, {"name": "Cookie", "value": "sid=CK123"},
                           {"name": "X-Api-Key", "value": "AK123"}]}]}
            """)
        let har = try imported(HarImport(options: .init(service: "svc")), "a.har", """
            {"log": {"entries": [{"request": {"method": "GET", "url": "http://127.0.0.1:9/x?api_key=QKEY", "headers": [
              {"name": "Authorization", "value": "Bearer TOK123"}, {"name": "Cookie", "value": "sid=CK123"},
              {"name": "X-Api-Key", "value": "AK123"}]}, "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json"}}}]}}
            """)
        let http = try imported(HttpFileImport(options: .init(service: "svc"), readFile: { _ in nil }), "x.http", """
            GET http://127.0.0.1:9/x?api_key=QKEY
            Authorization: Bearer TOK123
            Cookie: sid=CK123
            X-Api-Key: AK123
            """)
        let noFiles = ImportFolder(read: { _ in nil }, list: { _ in nil })
        let bru = try imported(BrunoImport(options: .init(service: "svc"), files: noFiles), "x.bru", """
            get {
              url: http://127.0.0.1:9/x?api_key=QKEY
              auth: bearer
            }

            auth:bearer {
              token: TOK123
            }

            headers {
              Cookie: sid=CK123
              X-Api-Key: AK123
            }
            """)
        let openCollection = try imported(BrunoImport(options: .init(service: "svc"), files: noFiles), "x.yml", """
            opencollection: "1.0.0"
            items:
              - info: { name: x, type: http }
                http:
                  url: http://127.0.0.1:9/x?api_key=QKEY
                  headers: [{ name: Cookie, value: sid=CK123 }, { name: X-Api-Key, value: AK123 }]
                  auth: { type: bearer, token: TOK123 }
            """)
        // THEN no importer writes a credential, and every one is a variable with the service's prefix
        for (kind, result) in [("curl", curl), ("postman", postman), ("insomnia", insomnia), ("har", har), ("http", http), ("bruno", bru),
                               ("opencollection", openCollection)] {
            let text = result.drafts.map(\.text).joined()
            for secret in ["TOK123", "CK123", "AK123", "QKEY"] { XCTAssertFalse(text.contains(secret), "\(kind): \(secret) in\n\(text)") }
            let prefix = ImportNames.variable(result.drafts[0].service) + "_"
            for reference in ["${\(prefix)TOKEN}", "${\(prefix)X_API_KEY}", "${\(prefix)API_KEY}"] {
                XCTAssertTrue(text.contains(reference), "\(kind): no \(reference) in\n\(text)")
            }
            XCTAssertTrue(text.contains("Cookie: \"${\(prefix)COOKIE"), "\(kind):\n\(text)")
        }
        // AND the curl import says which variable to set, in the file and on stderr
        XCTAssertTrue(curl.draft.text.contains("# The input's credentials are not written: set ${LOCAL_"), curl.draft.text)
        XCTAssertTrue(curl.warnings.contains { $0.message.contains("is written as ${LOCAL_TOKEN} in local.yaml, not as given: set LOCAL_TOKEN") },
                      "\(curl.warnings)")
    }

    /// A password or token written literally in a JSON body is a credential too: the collection
    /// importers write it as `${SERVICE_…}` (a variable stays one).
    func testCollectionImportersWriteSecretJSONFieldsAsVariables() throws {
        let noFiles = ImportFolder(read: { _ in nil }, list: { _ in nil })
        let body = #"{"user": "ann", "password": "PW123", "auth": {"apiToken": "TK123"}, "other": "{{pw}}"}"#
        let results = [
            ("postman", try imported(PostmanImport(options: .init(service: "svc")), "c.json", """
                {"info": {"name": "c", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "item": [{"name": "x", "request": {"method": "POST", "url": "http://127.0.0.1:9/x",
                   "body": {"mode": "raw", "raw": \(String(reflecting: body)), "options": {"raw": {"language": "json"}}}}}]}
                """)),
            ("insomnia", try imported(InsomniaImport(options: .init(service: "svc")), "i.json", """
                {"__export_format": 4, "resources": [{"_id": "wrk", "_type": "workspace", "name": "w"},
                  {"_id": "r1", "_type": "request", "parentId": "wrk", "name": "x", "method": "POST", "url": "http://127.0.0.1:9/x",
                   "body": {"mimeType": "application/json", "text": \(String(reflecting: body))}}]}
                """)),
            ("http", try imported(HttpFileImport(options: .init(service: "svc"), readFile: { _ in nil }), "x.http",
                                  "POST http://127.0.0.1:9/x\nContent-Type: application/json\n\n\(body)\n")),
            ("bruno", try imported(BrunoImport(options: .init(service: "svc"), files: noFiles), "x.bru",
                                   "post {\n  url: http://127.0.0.1:9/x\n  body: json\n}\n\nbody:json {\n  \(body)\n}\n")),
        ]
        for (kind, result) in results {
            let text = result.drafts.map(\.text).joined()
            XCTAssertFalse(text.contains("PW123") || text.contains("TK123"), "\(kind):\n\(text)")
            XCTAssertTrue(text.contains(#"password: "${SVC_PASSWORD}""#) && text.contains(#"apiToken: "${SVC_APITOKEN}""#), "\(kind):\n\(text)")
            XCTAssertTrue(text.contains("user: ann"), "\(kind):\n\(text)")
            XCTAssertTrue(result.warnings.contains { $0.message.contains("the JSON field password is written as ${SVC_PASSWORD}") }, "\(kind): \(result.warnings)")
        }
    }

    /// `call URL` sends what the command says: `read` keeps the values; only `run` (what writes a
    /// file: `import curl`, `call --save`) applies the secret policy.
    func testReadKeepsTheRequestRunWritesVariables() throws {
        let words = ["curl", "http://127.0.0.1:9/x?token=QT", "-H", "Authorization: Bearer TOK"]
        let importer = CurlImport(options: .init(service: "hb", name: "t", cwd: "/"))
        let sent = try importer.read(words: words).draft.text
        XCTAssertTrue(sent.contains("bearer: TOK") && sent.contains("token: QT"), sent)
        XCTAssertTrue(try importer.read(words: ["curl", "http://u:PW123@127.0.0.1:9/"]).draft.text.contains("PW123"))
        let saved = try importer.run(words: words).draft
        XCTAssertEqual(saved.targets[0].auth, .map([.pair("bearer", .string("${HB_TOKEN}"))]))
        XCTAssertEqual(saved.targets[0].task, [.pair("query", .map([.pair("token", .string("${HB_TOKEN}"))]))])
        let basic = try importer.run(words: ["curl", "-u", "ann:PW123", "http://127.0.0.1:9/x"]).draft.targets[0].auth
        XCTAssertEqual(basic, .map([.pair("basic", .map([.pair("user", .string("ann")), .pair("password", .string("${HB_PASSWORD}"))]))]))
    }

    func testTheSharedRulesLeaveVariablesAndPlainValuesAsTheyAre() {
        var draft = ServiceDraft(service: "shop", baseURL: "http://127.0.0.1:9")
        var t = TargetDraft(name: "t")
        t.headers = [.pair("Accept", .string("application/json")), .pair("X-Api-Key", .string("${SHOP_KEY}")),
                     .pair("X-Session", .string("s1")), .pair("X-Bad", .string("a\u{1}b")), .pair("X-Break", .string("a\r\nX: y"))]
        t.task = [.pair("query", .string("page=2&sig=abc&flag")), .pair("form", .map([.pair("password", .string("p")), .pair("user", .string("u"))]))]
        t.auth = .map([.pair("oauth2", .map([.pair("tokenURL", .string("https://a/t")), .pair("clientId", .string("app")),
                                             .pair("clientSecret", .string("CS"))]))])
        draft.targets = [t]
        let warnings = ImportSecrets.apply(to: &draft, source: "given")
        let out = draft.targets[0]
        XCTAssertEqual(out.headers, [.pair("Accept", .string("application/json")), .pair("X-Api-Key", .string("${SHOP_KEY}")),
                                     .pair("X-Session", .string("${SHOP_X_SESSION_SECRET}"))])
        XCTAssertEqual(out.task, [.pair("query", .string("page=2&sig=${SHOP_SIG_SECRET}&flag")),
                                  .pair("form", .map([.pair("password", .string("${SHOP_PASSWORD}")), .pair("user", .string("u"))]))])
        XCTAssertEqual(out.auth?["oauth2"]?["clientSecret"], .string("${SHOP_CLIENT_SECRET}"))
        XCTAssertEqual(out.auth?["oauth2"]?["clientId"], .string("app"))
        // headers a target file cannot send are left out, with a warning each
        XCTAssertEqual(warnings.filter { $0.contains("line break or a control character; it is not imported") }.count, 2, "\(warnings)")
        XCTAssertEqual(out.notes, ["The input's credentials are not written: set ${SHOP_X_SESSION_SECRET}, ${SHOP_SIG_SECRET}, ${SHOP_PASSWORD}, ${SHOP_CLIENT_SECRET}."])
    }

    /// Issue 34 item 21: numbering repeated names is linear (20,000 "New Request" took 34 s).
    func testRepeatedNamesAreNumberedInLinearWork() {
        var names = UniqueNames()
        var out: [String] = []
        for _ in 0..<20_000 { out.append(names.claim("newRequest")) }
        XCTAssertEqual(out.prefix(3), ["newRequest", "newRequest2", "newRequest3"])
        XCTAssertEqual(out.last, "newRequest20000")
        XCTAssertEqual(Set(out).count, 20_000)
        // one look-up per name, and one more for each repeat: the old loop made 200 million
        XCTAssertLessThanOrEqual(names.probes, 2 * 20_000)
        // the smallest free number, as before: names taken on their own are skipped
        var mixed = UniqueNames(["a2", "a4"])
        XCTAssertEqual(["a", "a", "a", "a", "a3", "a"].map { mixed.claim($0) }, ["a", "a3", "a5", "a6", "a32", "a7"])
    }

    func testTwentyThousandRepeatedNamesImport() throws {
        // GIVEN a Postman collection of 20,000 requests all called "New Request"
        let item = #"{"name": "New Request", "request": {"method": "GET", "url": "http://127.0.0.1:9/x"}}"#
        let text = #"{"info": {"name": "big", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": ["#
            + Array(repeating: item, count: 20_000).joined(separator: ",") + "]}"
        // WHEN imported
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try imported(PostmanImport(options: .init()), "big.json", text)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // THEN each has its number, and the whole import takes time in proportion (a debug build
        // takes about a second; the quadratic numbering alone took 34 s in a release build)
        XCTAssertEqual(result.draft.targets.count, 20_000)
        XCTAssertEqual(result.draft.targets.last?.name, "newRequest20000")
        XCTAssertLessThan(seconds, 15, "20,000 requests took \(seconds) s")
    }

    func testOneGroupingByOrigin() {
        let groups = ImportOrigins.group(["b/1", "a/1", "b/2", "c/1", "a/2"]) { String($0.prefix(1)) }
        XCTAssertEqual(groups.map(\.origin), ["b", "a", "c"])
        XCTAssertEqual(groups.map(\.items), [["b/1", "b/2"], ["a/1", "a/2"], ["c/1"]])
    }
}
