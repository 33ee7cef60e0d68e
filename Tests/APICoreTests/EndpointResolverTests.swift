import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APIImport

/// `EndpointResolver` (target → endpoint: URL joining, precedence, expansion) and `URLBuilder`.
final class EndpointResolverTests: XCTestCase {

    /// Decodes `yaml` and resolves target `name` of it.
    private func resolve(_ yaml: String, _ name: String, env: [String: String] = [:],
                         overrides: EndpointResolver.Overrides = .init(),
                         file: StaticString = #filePath, line: UInt = #line) throws -> Endpoint {
        let service = try decodeService(yaml, sourceFile: file, line: line)
        let target = try service.requireTarget(name, file: file, line: line)
        return try EndpointResolver(environment: env, overrides: overrides).endpoint(for: target, in: service)
    }

    /// The error resolving target `name` of `yaml` throws.
    private func resolveError(_ yaml: String, _ name: String, env: [String: String] = [:],
                              overrides: EndpointResolver.Overrides = .init(),
                              file: StaticString = #filePath, line: UInt = #line) throws -> APIError? {
        let service = try decodeService(yaml, sourceFile: file, line: line)
        let target = try service.requireTarget(name, file: file, line: line)
        let resolver = EndpointResolver(environment: env, overrides: overrides)
        return expectAPIError({ () throws(APIError) in try resolver.endpoint(for: target, in: service) }, file: file, line: line)
    }

    // MARK: URL joining

    func testEmptyOrMissingPathIsTheBaseURLExactly() throws {
        // GIVEN targets with no path, a null path and an empty path, under bases with and without a slash
        let yaml = "baseURL: https://api.test/v1\ntargets:\n  a: {}\n  b: { path: ~ }\n  c: { path: \"\" }\n"
        let slash = "baseURL: https://api.test/\ntargets:\n  a: {}\n"
        // THEN the URL is the base URL exactly: nothing added, nothing removed
        XCTAssertEqual(try resolve(yaml, "a").url, "https://api.test/v1")
        XCTAssertEqual(try resolve(yaml, "b").url, "https://api.test/v1")
        XCTAssertEqual(try resolve(yaml, "c").url, "https://api.test/v1")
        XCTAssertEqual(try resolve(slash, "a").url, "https://api.test/")
    }

    func testBaseAndPathJoinWithExactlyOneSlash() throws {
        // GIVEN every combination of trailing and leading slashes
        // THEN exactly one slash joins them, and a trailing slash of the path is kept
        XCTAssertEqual(URLBuilder.join(base: "https://api.test/", path: "/users"), "https://api.test/users")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test", path: "/users"), "https://api.test/users")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test/v1/", path: "users"), "https://api.test/v1/users")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test", path: "users"), "https://api.test/users")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test//", path: "//users"), "https://api.test/users")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test", path: "/users/"), "https://api.test/users/")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test/", path: ""), "https://api.test/")
        // and by bytes, non-ASCII text on either side is kept whole
        XCTAssertEqual(URLBuilder.join(base: "https://ümlaut.test/é/", path: "/naïve/ü"), "https://ümlaut.test/é/naïve/ü")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test/é/?q=ü", path: "///x"), "https://api.test/é/x?q=ü")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test", path: "///"), "https://api.test/")
    }

    func testQueryInTheBaseURLStaysAtTheEnd() throws {
        // GIVEN a base URL that carries a query
        // THEN the path goes before it
        XCTAssertEqual(URLBuilder.join(base: "https://api.test/v1?key=abc", path: "/users"), "https://api.test/v1/users?key=abc")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test/v1/?key=abc", path: "users"), "https://api.test/v1/users?key=abc")
        XCTAssertEqual(URLBuilder.join(base: "https://api.test?key=abc", path: ""), "https://api.test?key=abc")
        let yaml = "baseURL: \"https://api.test/v1/?key=abc\"\ntargets:\n  t: { path: /users }\n"
        XCTAssertEqual(try resolve(yaml, "t").url, "https://api.test/v1/users?key=abc")
    }

    func testParamValuesArePercentEncodedAsOneSegment() throws {
        // GIVEN a path placeholder and values holding a space, a slash, '?', '#', '%' and non-ASCII
        let yaml = "baseURL: https://api.test\ntargets:\n  user: { path: \"/users/{name}\" }\n"
        func url(_ name: String) throws -> String {
            try resolve(yaml, "user", overrides: .init(params: ["name": name])).url
        }
        // THEN each value stays one segment: RFC 6570's simple expansion encodes every reserved
        // character, sub-delimiters, ':' and '@' included
        XCTAssertEqual(try url("a b/c"), "https://api.test/users/a%20b%2Fc")
        XCTAssertEqual(try url("müller?x#y"), "https://api.test/users/m%C3%BCller%3Fx%23y")
        XCTAssertEqual(try url("100%"), "https://api.test/users/100%25")
        XCTAssertEqual(try url("a+b:c@d!$&'()*,;="), "https://api.test/users/a%2Bb%3Ac%40d%21%24%26%27%28%29%2A%2C%3B%3D")
    }

    func testLiteralPathKeepsSlashesAndEscapesAndEncodesSpaces() throws {
        // GIVEN a literal path with a space and an existing escape
        let yaml = "baseURL: https://api.test\ntargets:\n  t: { path: \"/my docs/a%2Fb/{id}\", params: { id: 7 } }\n"
        // THEN the space is encoded and the rest is kept
        XCTAssertEqual(try resolve(yaml, "t").url, "https://api.test/my%20docs/a%2Fb/7")
    }

    // MARK: Params

    func testParamDefaultsExpandTheEnvironmentAndCommandLineParamsWin() throws {
        // GIVEN a param whose default reads the environment
        let yaml = "baseURL: https://api.test\ntargets:\n  user: { path: \"/users/{name}\", params: { name: \"${GH_USER:-moya}\" } }\n"
        // THEN the default, the environment and -p each win in turn
        XCTAssertEqual(try resolve(yaml, "user").url, "https://api.test/users/moya")
        XCTAssertEqual(try resolve(yaml, "user", env: ["GH_USER": "octocat"]).url, "https://api.test/users/octocat")
        XCTAssertEqual(try resolve(yaml, "user", env: ["GH_USER": "octocat"], overrides: .init(params: ["name": "p"])).url,
                       "https://api.test/users/p")
    }

    func testMissingPathParamIsADiagnosticAtThePath() throws {
        // GIVEN a placeholder without a value
        let yaml = "baseURL: https://api.test\ntargets:\n  user:\n    path: /users/{name}\n"
        // WHEN resolved
        let error = try resolveError(yaml, "user")
        // THEN it points at the path and suggests -p
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: inlineFile, mark: at(4, 11),
                                                        message: "no value for placeholder {name} in the path of demo.user",
                                                        hint: "add 'name' to the target's params: or pass -p name=VALUE")]))
    }

    func testMissingQueryParamIsADiagnostic() throws {
        // GIVEN a query value with an unknown placeholder
        let yaml = "baseURL: https://api.test\ntargets:\n  search:\n    task: { query: { q: \"{term}\" } }\n"
        // WHEN resolved
        let error = try resolveError(yaml, "search")
        // THEN the query is named as the place
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: inlineFile, mark: at(4, 25),
                                                        message: "no value for placeholder {term} in the query of demo.search",
                                                        hint: "add 'term' to the target's params: or pass -p term=VALUE")]))
    }

    // MARK: Headers

    func testHeaderPrecedenceIsServiceThenTargetThenCommandLine() throws {
        // GIVEN the same header at all three levels, in different cases, and one header only at each
        let yaml = """
            baseURL: https://api.test
            headers: { Accept: a, X-Service: s }
            targets:
              t:
                headers: { accept: b, X-Target: t }
            """
        let overrides = EndpointResolver.Overrides(headers: [HeaderField("ACCEPT", "c"), HeaderField("X-Cli", "x")])
        // WHEN resolved with and without the command line's
        let withCLI = try resolve(yaml, "t", overrides: overrides).headers
        let withoutCLI = try resolve(yaml, "t").headers
        // THEN each later level replaces the earlier one in place, case-insensitively
        XCTAssertEqual(withCLI, [HeaderField("ACCEPT", "c"), HeaderField("X-Service", "s"), HeaderField("X-Target", "t"), HeaderField("X-Cli", "x")])
        XCTAssertEqual(withoutCLI, [HeaderField("accept", "b"), HeaderField("X-Service", "s"), HeaderField("X-Target", "t")])
    }

    func testHeaderValuesExpandVariablesAndParams() throws {
        // GIVEN header values with a variable and a placeholder
        let yaml = """
            baseURL: https://api.test
            headers: { Authorization: "Bearer ${TOKEN}" }
            targets:
              t: { headers: { X-User: "{user}" }, params: { user: moya } }
            """
        // WHEN resolved with TOKEN set
        let headers = try resolve(yaml, "t", env: ["TOKEN": "abc"]).headers
        // THEN both are expanded (placeholder values are not percent-encoded in headers)
        XCTAssertEqual(headers, [HeaderField("Authorization", "Bearer abc"), HeaderField("X-User", "moya")])
    }

    func testMissingHeaderVariableIsADiagnosticAtTheHeader() throws {
        // GIVEN ${TOKEN} unset
        let yaml = "baseURL: https://api.test\nheaders: { Authorization: \"Bearer ${TOKEN}\" }\ntargets:\n  t: {}\n"
        // WHEN resolved
        let error = try resolveError(yaml, "t")
        // THEN the variable, the header and the target are named
        XCTAssertEqual(error, .invalidInput([Diagnostic(
            file: inlineFile, mark: at(2, 27), message: "environment variable TOKEN is not set (used in header 'Authorization' of demo.t)",
            hint: "export TOKEN=…, or give a default: ${TOKEN:-value}")]))
    }

    // MARK: Base URL overrides

    func testBaseURLVariableName() {
        // THEN the service name is upper-cased and anything else becomes '_'
        XCTAssertEqual(EndpointResolver.baseURLVariable(for: "github"), "APICLI_BASE_URL_GITHUB")
        XCTAssertEqual(EndpointResolver.baseURLVariable(for: "my-api_2"), "APICLI_BASE_URL_MY_API_2")
    }

    func testBaseURLOverrideBeatsTheEnvironmentWhichBeatsTheFile() throws {
        // GIVEN a target, an environment override and a command-line override
        let yaml = "service: github\nbaseURL: https://api.github.com\ntargets:\n  zen: { path: /zen }\n"
        let env = ["APICLI_BASE_URL_GITHUB": "http://127.0.0.1:9000/api"]
        let cli = EndpointResolver.Overrides(baseURL: "http://127.0.0.1:8080")
        // THEN the file's URL, the environment's, then the command line's is used
        XCTAssertEqual(try resolve(yaml, "zen").url, "https://api.github.com/zen")
        XCTAssertEqual(try resolve(yaml, "zen", env: env).url, "http://127.0.0.1:9000/api/zen")
        XCTAssertEqual(try resolve(yaml, "zen", env: env, overrides: cli).url, "http://127.0.0.1:8080/zen")
        XCTAssertEqual(try resolve(yaml, "zen", overrides: cli).url, "http://127.0.0.1:8080/zen")
    }

    func testBaseURLWithVariablesExpands() throws {
        // GIVEN a base URL built from a variable with a default
        let yaml = "baseURL: \"https://${API_HOST:-api.test}/v2\"\ntargets:\n  t: { path: /x }\n"
        // THEN the default or the variable is used
        XCTAssertEqual(try resolve(yaml, "t").url, "https://api.test/v2/x")
        XCTAssertEqual(try resolve(yaml, "t", env: ["API_HOST": "staging.test"]).url, "https://staging.test/v2/x")
    }

    func testBadCommandLineBaseURLHasNoFileOrMark() throws {
        // GIVEN --base-url with another scheme, and one with no host
        let yaml = "baseURL: https://api.test\ntargets:\n  zen: {}\n"
        let ftp = try resolveError(yaml, "zen", overrides: .init(baseURL: "ftp://x"))
        let hostless = try resolveError(yaml, "zen", overrides: .init(baseURL: "https://"))
        // THEN the diagnostic names the URL and the problem, not a place in the file
        let hint = "write it whole, like https://api.example.com/v1"
        XCTAssertEqual(ftp, .invalidInput([Diagnostic(file: nil, mark: nil,
                                                      message: "base URL 'ftp://x' (from --base-url) for demo.zen does not start with http://, https://, ws:// or wss://", hint: hint)]))
        XCTAssertEqual(hostless, .invalidInput([Diagnostic(file: nil, mark: nil,
                                                           message: "base URL 'https://' (from --base-url) for demo.zen has no host", hint: hint)]))
    }

    func testBadBaseURLFromTheFilesVariablesPointsAtTheFile() throws {
        // GIVEN a base URL whose variable expands to something that is no URL
        let yaml = "baseURL: \"${API:-https://api.test}\"\ntargets:\n  zen: {}\n"
        // WHEN resolved with API set to a host without a scheme
        let error = try resolveError(yaml, "zen", env: ["API": "ftp://api.test"])
        // THEN the diagnostic points at the file's baseURL
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: inlineFile, mark: at(1, 10),
                                                        message: "base URL 'ftp://api.test' for demo.zen does not start with http://, https://, ws:// or wss://",
                                                        hint: "write it whole, like https://api.example.com/v1")]))
    }

    func testBadBaseURLFromTheEnvironmentOverrideDoesNotPointAtTheFile() throws {
        // GIVEN APICLI_BASE_URL_DEMO set to a URL without a scheme, and a good baseURL in the file
        let yaml = "baseURL: https://api.test\ntargets:\n  zen: {}\n"
        // WHEN resolved
        let error = try resolveError(yaml, "zen", env: ["APICLI_BASE_URL_DEMO": "ftp://localhost:8080"])
        // THEN the diagnostic has no file position: the bad value came from the environment, and
        // pointing at the file's (correct) baseURL line would send the user to the wrong place
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: nil, mark: nil,
                                                        message: "base URL 'ftp://localhost:8080' (from APICLI_BASE_URL_DEMO) for demo.zen does not start with http://, https://, ws:// or wss://",
                                                        hint: "write it whole, like https://api.example.com/v1")]))
    }

    // MARK: Timeout and validation

    func testTimeoutPrecedenceIsCommandLineThenTargetThenServiceThenSixty() throws {
        // GIVEN a service timeout and one target with its own
        let yaml = "baseURL: https://api.test\ntimeout: 20\ntargets:\n  own: { timeout: 10 }\n  inherits: {}\n"
        let bare = "baseURL: https://api.test\ntargets:\n  t: {}\n"
        // THEN each level wins over the next
        XCTAssertEqual(try resolve(yaml, "own", overrides: .init(timeout: 5)).timeout, 5)
        XCTAssertEqual(try resolve(yaml, "inherits", overrides: .init(timeout: 5)).timeout, 5)
        XCTAssertEqual(try resolve(yaml, "own").timeout, 10)
        XCTAssertEqual(try resolve(yaml, "inherits").timeout, 20)
        XCTAssertEqual(try resolve(bare, "t").timeout, 60)
    }

    func testValidationPrecedenceIsTargetThenServiceThenNone() throws {
        // GIVEN a service validation and one target with its own
        let yaml = "baseURL: https://api.test\nvalidate: success\ntargets:\n  own: { validate: [200, 304] }\n  inherits: {}\n"
        let bare = "baseURL: https://api.test\ntargets:\n  t: {}\n"
        // THEN the target's, the service's, then none
        XCTAssertEqual(try resolve(yaml, "own").validation, .codes([200, 304]))
        XCTAssertEqual(try resolve(yaml, "inherits").validation, .success)
        XCTAssertEqual(try resolve(bare, "t").validation, Validation.none)
    }

    // MARK: The rest of the endpoint

    func testEndpointCarriesNameMethodFileAndExpandedTask() throws {
        // GIVEN a target whose query, JSON body and content type use params and variables
        let yaml = """
            baseURL: https://api.test
            targets:
              create:
                path: /repos/{owner}/issues
                method: post
                params: { owner: moya, title: Crash }
                task:
                  query: { by: "{owner}" }
                  json: { title: "{title} on ${OS:-linux}", count: 1 }
                  contentType: "application/vnd.{owner}+json"
            """
        // WHEN resolved
        let endpoint = try resolve(yaml, "create")
        // THEN everything is expanded and the defaults are applied
        XCTAssertEqual(endpoint.name, "demo.create")
        XCTAssertEqual(endpoint.url, "https://api.test/repos/moya/issues")
        XCTAssertEqual(endpoint.method, "POST")
        XCTAssertEqual(endpoint.file, inlineFile)
        XCTAssertEqual(endpoint.headers, [])
        XCTAssertEqual(endpoint.task.query?.jsonText, #"{"by":"moya"}"#)
        guard case .json(let body)? = endpoint.task.body else { return XCTFail("expected a JSON body") }
        XCTAssertEqual(body.jsonText, #"{"title":"Crash on linux","count":1}"#)
        XCTAssertEqual(endpoint.task.contentType?.text, "application/vnd.moya+json")
    }

    func testTextBodyKeepsUnknownBracesAndExpandsKnownOnes() throws {
        // GIVEN a raw JSON text body with a known placeholder and JSON braces
        let yaml = """
            baseURL: https://api.test
            targets:
              t:
                method: POST
                params: { name: moya }
                task: { body: '{"user": "{name}", "tag": "{other}"}' }
            """
        // WHEN resolved
        let endpoint = try resolve(yaml, "t")
        // THEN the known one is replaced and everything else stays
        guard case .text(let text)? = endpoint.task.body else { return XCTFail("expected a text body") }
        XCTAssertEqual(text.text, #"{"user": "moya", "tag": "{other}"}"#)
    }
}
