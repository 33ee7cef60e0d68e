import Foundation
import XCTest
@testable import APISupport
@testable import APIJSON
@testable import APISchema
@testable import APITargets
@testable import APIEndpoint
@testable import APIImport

/// `RequestBuilder`: endpoint → the exact request on the wire, for every task form. No network.
final class RequestBuilderTests: XCTestCase {
    /// What a request that names no client carries last among its own headers.
    static let agent = HeaderField("User-Agent", "apicli/" + apicliVersion)

    /// A one-target file: `baseURL: https://api.test`, then target `t` with `lines` (indented by the helper).
    private func request(_ lines: String, serviceLines: String = "", env: [String: String] = [:],
                         overrides: EndpointResolver.Overrides = .init(),
                         file: StaticString = #filePath, line: UInt = #line) throws -> PreparedRequest {
        let body = lines.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        let yaml = "baseURL: https://api.test\n" + serviceLines + "targets:\n  t:\n" + body + "\n"
        let service = try decodeService(yaml, sourceFile: file, line: line)
        let target = try service.requireTarget("t", file: file, line: line)
        let endpoint = try EndpointResolver(environment: env, overrides: overrides).endpoint(for: target, in: service)
        return try RequestBuilder.build(endpoint)
    }

    private func bodyText(_ request: PreparedRequest, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard case .data(let data)? = request.body else {
            XCTFail("expected a data body, got \(String(describing: request.body))", file: file, line: line)
            return nil
        }
        return data.utf8Text
    }

    // MARK: Plain and query

    func testPlainRequestHasNoBodyAndNoContentType() throws {
        // GIVEN a GET with service headers and a timeout
        let request = try request("path: /zen", serviceLines: "headers: { User-Agent: apicli }\ntimeout: 15\n")
        // THEN the request is exactly the URL, method and headers
        XCTAssertEqual(request.url.absoluteString, "https://api.test/zen")
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.headers, [HeaderField("User-Agent", "apicli")])
        XCTAssertNil(request.body)
        XCTAssertEqual(request.timeout, 15)
    }

    func testARequestThatNamesNoClientSaysApicliAndItsVersionAndANamedOneStaysAlone() throws {
        // GIVEN no User-Agent anywhere THEN the default names apicli and its version, after the declared headers
        XCTAssertEqual(try request("path: /zen", serviceLines: "headers: { X-A: one }\n").headers,
                       [HeaderField("X-A", "one"), HeaderField("User-Agent", "apicli/" + apicliVersion)])
        XCTAssertTrue(apicliVersion.split(separator: ".").count == 3, apicliVersion)
        // GIVEN one in any case, from the target or the command line THEN it is the only one
        XCTAssertEqual(try request("path: /zen\nheaders: { user-agent: mine }").headers, [HeaderField("user-agent", "mine")])
        XCTAssertEqual(try request("path: /zen", overrides: .init(headers: [HeaderField("USER-AGENT", "cli")])).headers,
                       [HeaderField("USER-AGENT", "cli")])
    }

    func testQueryKeysAreSorted() throws {
        // GIVEN a query written out of order
        let request = try request("path: /search\ntask: { query: { z: 1, a: two, m: \"x\" } }")
        // THEN the keys are sorted
        XCTAssertEqual(request.url.absoluteString, "https://api.test/search?a=two&m=x&z=1")
        XCTAssertNil(request.body)
    }

    func testArraysUseBracketsUnlessNoBrackets() throws {
        // GIVEN an array, with the default and with noBrackets
        let brackets = try request("task: { query: { k: [a, b] } }")
        let plain = try request("task: { query: { k: [a, b] }, arrays: noBrackets }")
        // THEN `k[]=a&k[]=b` (brackets escaped) or `k=a&k=b`
        XCTAssertEqual(brackets.url.absoluteString, "https://api.test?k%5B%5D=a&k%5B%5D=b")
        XCTAssertEqual(plain.url.absoluteString, "https://api.test?k=a&k=b")
    }

    func testBooleansAreNumericUnlessLiteral() throws {
        // GIVEN booleans, with the default and with literal
        let numeric = try request("task: { query: { yes_flag: true, no_flag: false } }")
        let literal = try request("task: { query: { yes_flag: true, no_flag: false }, bools: literal }")
        // THEN 1/0 or true/false
        XCTAssertEqual(numeric.url.absoluteString, "https://api.test?no_flag=0&yes_flag=1")
        XCTAssertEqual(literal.url.absoluteString, "https://api.test?no_flag=false&yes_flag=true")
    }

    func testNestedMappingsUseSubscriptKeys() throws {
        // GIVEN a nested mapping holding an array
        let request = try request("task: { query: { page: 2, filter: { state: open, labels: [bug, ui] } } }")
        // THEN `filter[labels][]=…&filter[state]=…`, sorted at every level
        XCTAssertEqual(request.url.absoluteString,
                       "https://api.test?filter%5Blabels%5D%5B%5D=bug&filter%5Blabels%5D%5B%5D=ui&filter%5Bstate%5D=open&page=2")
    }

    func testQueryEscaping() throws {
        // GIVEN keys and values holding '&', '=', spaces, brackets, '+', '/' and '?'
        let request = try request(#"task: { query: { "a&b": "c=d e", "x[]": "[]", plus: "1+1", slash: "a/b?c" } }"#)
        // THEN the delimiters are escaped; '/' and '?' are allowed in a query and kept
        XCTAssertEqual(request.url.absoluteString, "https://api.test?a%26b=c%3Dd%20e&plus=1%2B1&slash=a/b?c&x%5B%5D=%5B%5D")
    }

    func testNullIsEmptyAndNumbersAreAsWritten() throws {
        // GIVEN null, a number with a trailing zero and an empty string
        let request = try request(#"task: { query: { empty: ~, n: 1.50, s: "" } }"#)
        // THEN null and empty are empty values; the number keeps its text
        XCTAssertEqual(request.url.absoluteString, "https://api.test?empty=&n=1.50&s=")
    }

    func testEmptyQueryAddsNoQuestionMark() throws {
        // GIVEN an empty query mapping
        let request = try request("path: /x\ntask: { query: {} }")
        // THEN the URL has no '?'
        XCTAssertEqual(request.url.absoluteString, "https://api.test/x")
    }

    func testTaskQueryAppendsToAQueryInTheBaseURL() throws {
        // GIVEN a base URL with a query and a task query
        let service = try decodeService("baseURL: \"https://api.test/v1?key=abc\"\ntargets:\n  t: { path: /users, task: { query: { q: x } } }\n")
        let endpoint = try EndpointResolver(environment: [:]).endpoint(for: try service.requireTarget("t"), in: service)
        // WHEN built
        let request = try RequestBuilder.build(endpoint)
        // THEN the task's query joins the base's with '&'
        XCTAssertEqual(request.url.absoluteString, "https://api.test/v1/users?key=abc&q=x")
    }

    // MARK: Bodies

    func testJSONBodyIsCompactInDeclaredOrderWithAJSONContentType() throws {
        // GIVEN a POST with a JSON body of every kind of value, and a service header
        let request = try request("""
            path: /repos/moya/moya/issues
            method: POST
            task: { json: { title: "Found a bug", labels: [bug], n: 1.50, big: 12345678901234567890, ok: true, none: ~, nested: { "quote\\"": "a\\nb" } } }
            """, serviceLines: "headers: { Accept: application/json }\n")
        // THEN the JSON text is exact, and Content-Type is added after the declared headers
        XCTAssertEqual(request.url.absoluteString, "https://api.test/repos/moya/moya/issues")
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(bodyText(request),
                       #"{"title":"Found a bug","labels":["bug"],"n":1.50,"big":12345678901234567890,"ok":true,"none":null,"nested":{"quote\"":"a\nb"}}"#)
        XCTAssertEqual(request.headers, [HeaderField("Accept", "application/json"), HeaderField("Content-Type", "application/json"), Self.agent])
    }

    func testDeclaredContentTypeHeaderWinsOverTheBodysDefault() throws {
        // GIVEN a JSON body and a content-type header (any case), once from the target and once from -H
        let fromTarget = try request("method: POST\nheaders: { content-type: application/vnd.api+json }\ntask: { json: { a: 1 } }")
        let fromCLI = try request("method: POST\ntask: { json: { a: 1 } }",
                                  overrides: .init(headers: [HeaderField("CONTENT-TYPE", "text/x-custom")]))
        // THEN that header is the only Content-Type
        XCTAssertEqual(fromTarget.headers, [HeaderField("content-type", "application/vnd.api+json"), Self.agent])
        XCTAssertEqual(fromCLI.headers, [HeaderField("CONTENT-TYPE", "text/x-custom"), Self.agent])
        XCTAssertEqual(bodyText(fromTarget), #"{"a":1}"#)
    }

    func testContentTypeKeyOverridesTheBodysDefault() throws {
        // GIVEN a JSON body with `contentType:`
        let request = try request("method: PATCH\ntask: { json: { a: 1 }, contentType: application/merge-patch+json }")
        // THEN it is used instead of application/json
        XCTAssertEqual(request.headers, [HeaderField("Content-Type", "application/merge-patch+json"), Self.agent])
    }

    func testTextBodyIsPlainTextUTF8ByDefault() throws {
        // GIVEN a raw text body with a known placeholder and unknown braces
        let request = try request("method: POST\nparams: { who: moya }\ntask: { body: \"hello {who}, {not-a-param}\" }")
        // THEN the text is sent as is (known placeholders expanded) as text/plain
        XCTAssertEqual(bodyText(request), "hello moya, {not-a-param}")
        XCTAssertEqual(request.headers, [HeaderField("Content-Type", "text/plain; charset=utf-8"), Self.agent])
    }

    func testTextBodyWithContentType() throws {
        // GIVEN a CSV body
        let request = try request("method: POST\ntask: { body: \"a,b\\n1,2\\n\", contentType: text/csv }")
        // THEN its content type is the declared one
        XCTAssertEqual(bodyText(request), "a,b\n1,2\n")
        XCTAssertEqual(request.headers, [HeaderField("Content-Type", "text/csv"), Self.agent])
    }

    func testBodyFileIsSentFromTheFile() throws {
        // GIVEN the fixture whose upload target sends payload.bin
        let service = try TargetFile.load(Fixtures.path("files/files.yaml"))
        let endpoint = try EndpointResolver(environment: [:]).endpoint(for: try service.requireTarget("upload"), in: service)
        // WHEN built
        let request = try RequestBuilder.build(endpoint)
        // THEN the body names the absolute file, as an octet stream
        XCTAssertEqual(request.url.absoluteString, "https://files.test/upload")
        XCTAssertEqual(request.method, "PUT")
        XCTAssertEqual(request.body, .file(Fixtures.path("files/payload.bin")))
        XCTAssertEqual(request.headers, [HeaderField("Content-Type", "application/octet-stream"), Self.agent])
    }

    func testFormBodyIsURLEncoded() throws {
        // GIVEN a form with a space, an array and a boolean
        let request = try request("method: POST\ntask: { form: { name: a b, tags: [x, y], ok: true } }")
        // THEN it is encoded like a query, sorted, as a form content type
        XCTAssertEqual(request.url.absoluteString, "https://api.test")
        XCTAssertEqual(bodyText(request), "name=a%20b&ok=1&tags%5B%5D=x&tags%5B%5D=y")
        XCTAssertEqual(request.headers, [HeaderField("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"), Self.agent])
    }

    // MARK: Parameters

    func testURLEncodedParametersGoToTheQueryForGETHEADAndDELETE() throws {
        // GIVEN parameters with the default encoding, on body-less methods
        for method in ["GET", "HEAD", "DELETE"] {
            let request = try request("method: \(method)\ntask: { parameters: { b: 2, a: 1 } }")
            // THEN they are the query and there is no body
            XCTAssertEqual(request.url.absoluteString, "https://api.test?a=1&b=2", method)
            XCTAssertNil(request.body, method)
            XCTAssertEqual(request.headers, [Self.agent], method)
        }
    }

    func testURLEncodedParametersAreAFormBodyForPOSTAndPUT() throws {
        // GIVEN parameters with the default encoding, on methods with a body
        for method in ["POST", "PUT", "PATCH"] {
            let request = try request("method: \(method)\ntask: { parameters: { b: 2, a: 1 } }")
            // THEN they are a form body
            XCTAssertEqual(request.url.absoluteString, "https://api.test", method)
            XCTAssertEqual(bodyText(request), "a=1&b=2", method)
            XCTAssertEqual(request.headers, [HeaderField("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"), Self.agent], method)
        }
    }

    func testParametersWithAnExplicitEncoding() throws {
        // GIVEN parameters encoded as query on a POST, as form on a GET, and as JSON
        let query = try request("method: POST\ntask: { parameters: { a: 1 }, encoding: query }")
        let form = try request("method: GET\ntask: { parameters: { a: 1 }, encoding: form }")
        let json = try request("method: POST\ntask: { parameters: { b: [1, 2], a: x }, encoding: json }")
        // THEN each goes where its encoding says, whatever the method
        XCTAssertEqual(query.url.absoluteString, "https://api.test?a=1")
        XCTAssertNil(query.body)
        XCTAssertEqual(form.url.absoluteString, "https://api.test")
        XCTAssertEqual(bodyText(form), "a=1")
        XCTAssertEqual(form.headers, [HeaderField("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"), Self.agent])
        XCTAssertEqual(json.url.absoluteString, "https://api.test")
        XCTAssertEqual(bodyText(json), #"{"b":[1,2],"a":"x"}"#, "JSON keeps the declared order")
        XCTAssertEqual(json.headers, [HeaderField("Content-Type", "application/json"), Self.agent])
    }

    func testQueryParametersMergeWithTheQuery() throws {
        // GIVEN a query and parameters encoded as query
        let request = try request("task: { query: { b: 1 }, parameters: { a: 2 }, encoding: query }")
        // THEN they form one sorted query
        XCTAssertEqual(request.url.absoluteString, "https://api.test?a=2&b=1")
    }

    func testQueryCombinesWithAJSONBody() throws {
        // GIVEN a POST with a query and a JSON body (Moya's composite task)
        let request = try request("path: /items\nmethod: POST\ntask: { query: { page: 2 }, json: { a: 1 } }")
        // THEN the query is in the URL and the JSON is the body
        XCTAssertEqual(request.url.absoluteString, "https://api.test/items?page=2")
        XCTAssertEqual(bodyText(request), #"{"a":1}"#)
        XCTAssertEqual(request.headers, [HeaderField("Content-Type", "application/json"), Self.agent])
    }

    func testURLEncodedParametersOnAGETWithAJSONBodyGoToTheQuery() throws {
        // GIVEN a GET with url-encoded parameters and a JSON body
        let request = try request("task: { parameters: { a: 1 }, json: { b: 2 } }")
        // THEN the parameters are the query and the JSON stays the body
        XCTAssertEqual(request.url.absoluteString, "https://api.test?a=1")
        XCTAssertEqual(bodyText(request), #"{"b":2}"#)
    }

    func testEndpointBuiltByHandIsEncodedTheSameWay() throws {
        // GIVEN an endpoint written directly, with a form body made of values
        let form = Value.object([.init(key: "q", value: .string(Template("a&b", mark: at(1, 1)))),
                                 .init(key: "n", value: .number("3"))])
        let endpoint = Endpoint(name: "demo.t", url: "https://api.test/p", method: "POST", headers: [HeaderField("X-A", "1")],
                                task: RequestTask(body: .form(form)), timeout: 9, validation: .success, file: inlineFile)
        // WHEN built
        let request = try RequestBuilder.build(endpoint)
        // THEN every field carries over
        XCTAssertEqual(request.url.absoluteString, "https://api.test/p")
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(bodyText(request), "n=3&q=a%26b")
        XCTAssertEqual(request.headers, [HeaderField("X-A", "1"), HeaderField("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"), Self.agent])
        XCTAssertEqual(request.timeout, 9)
    }
}
