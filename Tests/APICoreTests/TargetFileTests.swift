import Foundation
import XCTest
@testable import APISupport
@testable import APIDiagnostics
@testable import APITargets
@testable import APIImport

/// The target decoder: YAML nodes → `Service` and `Target` values, or every problem of the file as
/// diagnostics with marks and hints.
final class TargetFileTests: XCTestCase {

    // MARK: Helpers

    /// A sample or task body in one comparable line.
    private func describe(_ body: Sample.Body?) -> String {
        switch body {
        case .text(let t)?: return "text:\(t.text)"
        case .json(let v)?: return "json:\(v.jsonText)"
        case .file(let path, _)?: return "file:\(path)"
        case nil: return "none"
        }
    }

    private func describe(_ body: RequestTask.Body?) -> String {
        switch body {
        case .text(let t)?: return "text:\(t.text)"
        case .json(let v)?: return "json:\(v.jsonText)"
        case .form(let v)?: return "form:\(v.jsonText)"
        case .file(let path, _)?: return "file:\(path)"
        case .upload(let path, _)?: return "upload:\(path)"
        case .multipart(let parts)?: return "multipart:\(parts.map(\.name))"
        case .graphql(let op)?: return "graphql:\(op.query)"
        case nil: return "none"
        }
    }

    private func params(_ target: Target) -> [String] {
        target.params.map { "\($0.name)=\($0.value.text)" }
    }

    private func headers(_ headers: [Header]) -> [String] {
        headers.map { "\($0.name): \($0.value.text)" }
    }

    // MARK: The contract file

    func testContractFileDecodesServiceDefaults() throws {
        // GIVEN the contract's github.yaml
        let path = Fixtures.path("catalog/github.yaml")
        // WHEN loaded
        let service = try TargetFile.load(path)
        // THEN the service carries its name, file, base URL, headers, timeout and validation
        XCTAssertEqual(service.name, "github")
        XCTAssertEqual(service.file, path)
        XCTAssertEqual(service.baseURL, Template("https://api.github.com", mark: at(2, 10)))
        XCTAssertEqual(service.headers, [Header(name: "Accept", value: Template("application/vnd.github+json", mark: at(3, 20))),
                                         Header(name: "User-Agent", value: Template("apicli", mark: at(3, 61)))])
        XCTAssertEqual(service.timeout, 30)
        XCTAssertEqual(service.validation, .success)
        XCTAssertEqual(service.targets.map(\.name), ["zen", "userProfile", "search", "createIssue"])
        XCTAssertEqual(service.targets.map(\.qualifiedName),
                       ["github.zen", "github.userProfile", "github.search", "github.createIssue"])
    }

    func testContractZenHasItsPathMethodAndTextSample() throws {
        // GIVEN the contract file
        let service = try TargetFile.load(Fixtures.path("catalog/github.yaml"))
        // WHEN reading zen
        let zen = try service.requireTarget("zen")
        // THEN its fields are as written, with marks
        XCTAssertEqual(zen.service, "github")
        XCTAssertEqual(zen.mark, at(7, 3))
        XCTAssertEqual(zen.path, Template("/zen", mark: at(8, 11)))
        XCTAssertEqual(zen.method, "GET")
        XCTAssertTrue(zen.params.isEmpty)
        XCTAssertNil(zen.timeout)
        XCTAssertNil(zen.validation)
        XCTAssertNil(zen.task.query)
        XCTAssertEqual(describe(zen.task.body), "none")
        let sample = try XCTUnwrap(zen.sample)
        XCTAssertEqual(sample.mark, at(11, 7))
        XCTAssertEqual(sample.status, 200)
        XCTAssertEqual(sample.headers, [Header(name: "Content-Type", value: Template("text/plain", mark: at(12, 32)))])
        XCTAssertEqual(describe(sample.body), "text:Design for failure.")
        XCTAssertNil(sample.error)
        XCTAssertEqual(sample.delay, 0)
        XCTAssertTrue(zen.samples.isEmpty)
    }

    func testContractUserProfileHasParamsAndNamedSamples() throws {
        // GIVEN the contract file
        let service = try TargetFile.load(Fixtures.path("catalog/github.yaml"))
        // WHEN reading userProfile
        let user = try service.requireTarget("userProfile")
        // THEN the method defaults to GET, params keep their order, samples their names and forms
        XCTAssertEqual(user.method, "GET")
        XCTAssertEqual(user.path?.text, "/users/{name}")
        XCTAssertEqual(user.params.map(\.name), ["name"])
        XCTAssertEqual(user.params.first?.value, Template("moya", mark: at(16, 21)))
        let sample = try XCTUnwrap(user.sample)
        XCTAssertEqual(sample.status, 200, "status defaults to 200")
        XCTAssertEqual(describe(sample.body), #"json:{"login":"moya","id":13662162}"#)
        XCTAssertEqual(user.samples.map(\.name), ["notFound", "offline", "slow"])

        let notFound = try XCTUnwrap(user.sample(named: "notFound"))
        XCTAssertEqual(notFound.status, 404)
        XCTAssertEqual(describe(notFound.body), #"json:{"message":"Not Found"}"#)
        XCTAssertNil(notFound.error)

        let offline = try XCTUnwrap(user.sample(named: "offline"))
        XCTAssertEqual(offline.error, "The Internet connection appears to be offline.")
        XCTAssertEqual(describe(offline.body), "none")

        let slow = try XCTUnwrap(user.sample(named: "slow"))
        XCTAssertEqual(slow.delay, 1.5)
        XCTAssertEqual(describe(slow.body), "json:{}")

        XCTAssertEqual(user.sample(named: nil)?.mark, sample.mark, "no name: the default sample")
        XCTAssertNil(user.sample(named: "missing"))
    }

    func testContractSearchAndCreateIssueTasks() throws {
        // GIVEN the contract file
        let service = try TargetFile.load(Fixtures.path("catalog/github.yaml"))
        // WHEN reading the two targets with tasks
        let search = try service.requireTarget("search")
        let create = try service.requireTarget("createIssue")
        // THEN search has a query and no body; createIssue is a POST with a JSON body in key order
        XCTAssertEqual(search.task.query?.jsonText, #"{"q":"moya","sort":"stars"}"#)
        XCTAssertEqual(describe(search.task.body), "none")
        XCTAssertNil(search.task.parameters)
        XCTAssertEqual(search.task.encoding, .url)
        XCTAssertEqual(search.task.arrays, .brackets)
        XCTAssertEqual(search.task.bools, .numeric)
        XCTAssertNil(search.sample)

        XCTAssertEqual(create.method, "POST")
        XCTAssertEqual(params(create), ["owner=moya", "repo=moya"])
        XCTAssertNil(create.task.query)
        XCTAssertEqual(describe(create.task.body), #"json:{"title":"Found a bug","labels":["bug"]}"#)
    }

    // MARK: Valid forms

    func testMethodIsUppercasedAndDefaultsToGET() throws {
        // GIVEN lower-case, upper-case, custom and missing methods
        let service = try decodeService("""
            baseURL: https://api.test
            targets:
              a: { method: post }
              b: { method: Patch }
              c: { method: PURGE }
              d: { path: /d }
            """)
        // THEN all are upper-cased tokens, GET when missing
        XCTAssertEqual(service.targets.map(\.method), ["POST", "PATCH", "PURGE", "GET"])
    }

    func testServiceNameComesFromServiceKeyElseFromTheFileName() throws {
        // GIVEN one file with `service:` and one without
        let named = try decodeService("service: github\nbaseURL: https://api.test\ntargets: { zen: {} }\n",
                                      defaultName: "ignored")
        let unnamed = try decodeService("baseURL: https://api.test\ntargets: { zen: {} }\n", defaultName: "httpbin")
        // THEN the key wins, and otherwise the file's name is used, also in qualified names
        XCTAssertEqual(named.name, "github")
        XCTAssertEqual(named.targets.first?.qualifiedName, "github.zen")
        XCTAssertEqual(unnamed.name, "httpbin")
        XCTAssertEqual(unnamed.targets.first?.qualifiedName, "httpbin.zen")
    }

    func testLoadNamesTheServiceAfterTheFileStem() throws {
        // GIVEN a fixture file without `service:`
        let service = try TargetFile.load(Fixtures.path("catalog/httpbin.yml"))
        // THEN its name is the file name without extension
        XCTAssertEqual(service.name, "httpbin")
        XCTAssertEqual(service.targets.map(\.qualifiedName), ["httpbin.get", "httpbin.post"])
        XCTAssertEqual(service.targets.map(\.method), ["GET", "POST"])
        XCTAssertNil(service.timeout)
        XCTAssertNil(service.validation)
    }

    func testExtensionKeysAreIgnoredWhereKeysAreChecked() throws {
        // GIVEN `x-` keys at the top, in a target, a task and a sample, one holding an anchor
        let service = try decodeService("""
            x-defaults: &d { Accept: text/plain }
            baseURL: https://api.test
            targets:
              zen:
                x-note: anything at all
                path: /zen
                headers: *d
                task: { x-comment: ignored, query: { a: 1 } }
                sample: { x-why: because, status: 204 }
            """)
        // THEN they are skipped without a diagnostic, and the anchored block is usable
        let zen = try service.requireTarget("zen")
        XCTAssertEqual(headers(zen.headers), ["Accept: text/plain"])
        XCTAssertEqual(zen.task.query?.jsonText, #"{"a":1}"#)
        XCTAssertEqual(zen.sample?.status, 204)
    }

    func testValidateForms() throws {
        // GIVEN every form of validate, on targets
        let service = try decodeService("""
            baseURL: https://api.test
            validate: successAndRedirect
            targets:
              a: { validate: none }
              b: { validate: success }
              c: { validate: successAndRedirect }
              d: { validate: [200, 304] }
              e: {}
            """)
        // THEN each is read, and a missing one stays nil (the service default applies later)
        XCTAssertEqual(service.validation, .successAndRedirect)
        XCTAssertEqual(service.targets.map(\.validation), [Validation.none, .success, .successAndRedirect, .codes([200, 304]), nil])
    }

    func testTimeoutsAcceptNumbersAndUnits() throws {
        // GIVEN timeouts written as numbers and with units
        let service = try decodeService("""
            baseURL: https://api.test
            timeout: 30
            targets:
              a: { timeout: 1.5 }
              b: { timeout: 800ms }
              c: { timeout: "2s" }
              d: { timeout: 1m }
              e: { timeout: 45 }
              f: {}
            """)
        // THEN all are seconds
        XCTAssertEqual(service.timeout, 30)
        let timeouts = service.targets.map(\.timeout)
        XCTAssertEqual(timeouts.count, 6)
        XCTAssertEqual(timeouts[0] ?? -1, 1.5, accuracy: 1e-9)
        XCTAssertEqual(timeouts[1] ?? -1, 0.8, accuracy: 1e-9)
        XCTAssertEqual(timeouts[2] ?? -1, 2, accuracy: 1e-9)
        XCTAssertEqual(timeouts[3] ?? -1, 60, accuracy: 1e-9)
        XCTAssertEqual(timeouts[4] ?? -1, 45, accuracy: 1e-9)
        XCTAssertNil(timeouts[5])
    }

    func testSampleDelayAcceptsZeroAndUnits() throws {
        // GIVEN sample delays of zero and with a unit
        let service = try decodeService("""
            baseURL: https://api.test
            targets:
              a: { sample: { delay: 0 } }
              b: { sample: { delay: 250ms, status: 503 } }
            """)
        // THEN both are read
        XCTAssertEqual(service.targets[0].sample?.delay, 0)
        XCTAssertEqual(service.targets[1].sample?.delay ?? -1, 0.25, accuracy: 1e-9)
        XCTAssertEqual(service.targets[1].sample?.status, 503)
    }

    func testParamsKeepDeclaredOrderAndNumbersAsText() throws {
        // GIVEN params out of alphabetical order, one a number
        let service = try decodeService("""
            baseURL: https://api.test
            targets:
              t: { path: "/{b}/{a}", params: { b: 2, a: "x y", c: 007 } }
            """)
        // THEN they stay in written order, as written
        XCTAssertEqual(params(try service.requireTarget("t")), ["b=2", "a=x y", "c=007"])
    }

    func testTaskOptionsAreRead() throws {
        // GIVEN a task with every option
        let service = try decodeService("""
            baseURL: https://api.test
            targets:
              t:
                method: POST
                task:
                  query: { page: 2 }
                  parameters: { a: [1, 2], b: true }
                  encoding: query
                  arrays: noBrackets
                  bools: literal
                  body: "hello {who}"
                  contentType: text/csv
            """)
        // THEN each lands in the task
        let task = try service.requireTarget("t").task
        XCTAssertEqual(task.query?.jsonText, #"{"page":2}"#)
        XCTAssertEqual(task.parameters?.jsonText, #"{"a":[1,2],"b":true}"#)
        XCTAssertEqual(task.encoding, .query)
        XCTAssertEqual(task.arrays, .noBrackets)
        XCTAssertEqual(task.bools, .literal)
        XCTAssertEqual(describe(task.body), "text:hello {who}")
        XCTAssertEqual(task.contentType?.text, "text/csv")
    }

    func testJSONValuesResolveLikeTheCoreSchema() throws {
        // GIVEN a JSON body with every kind of scalar
        let service = try decodeService("""
            baseURL: https://api.test
            targets:
              t:
                task:
                  json: { s: "42", n: 42, f: 1.50, e: 1e3, t: true, F: False, z: ~, hex: 0x1F, str: hello, tagged: !!str 7, list: [1, two], obj: { k: v } }
            """)
        // THEN quoted and !!str scalars are text, plain ones resolve, numbers keep their text
        let body = describe(try service.requireTarget("t").task.body)
        XCTAssertEqual(body, #"json:{"s":"42","n":42,"f":1.50,"e":1e3,"t":true,"F":false,"z":null,"hex":31,"str":"hello","tagged":"7","list":[1,"two"],"obj":{"k":"v"}}"#)
    }

    func testSampleAndBodyFilesResolveAgainstTheTargetFilesFolder() throws {
        // GIVEN a fixture whose task body and sample name files next to it
        let service = try TargetFile.load(Fixtures.path("files/files.yaml"))
        // THEN both become absolute paths in that folder
        let upload = try service.requireTarget("upload")
        XCTAssertEqual(describe(upload.task.body), "file:" + Fixtures.path("files/payload.bin"))
        XCTAssertEqual(describe(upload.sample?.body), "file:" + Fixtures.path("files/user.json"))
        let absolute = try service.requireTarget("absolute")
        XCTAssertEqual(absolute.sample?.status, 201)
    }

    func testEmptyPathAndNullPathAreNoPath() throws {
        // GIVEN a null path and a missing one
        let service = try decodeService("baseURL: https://api.test\ntargets:\n  a: { path: ~ }\n  b: {}\n  c: { path: \"\" }\n")
        // THEN there is no path (an empty one stays empty)
        XCTAssertNil(service.targets[0].path)
        XCTAssertNil(service.targets[1].path)
        XCTAssertEqual(service.targets[2].path?.text, "")
    }

    // MARK: Diagnostics

    func testUnknownKeyInATargetSuggestsTheClosestKey() {
        // GIVEN a typo'd key
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              zen:
                pth: /zen
            """)
        // THEN one diagnostic at the key, with a did-you-mean hint
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(4, 5), message: "unknown key 'pth' in target 'zen'",
                                          hint: "did you mean 'path'?")])
    }

    func testUnknownKeyWithNothingCloseListsTheKnownKeys() {
        // GIVEN a key far from every known key
        let found = decodeDiagnostics("baseURL: https://api.test\ntargets:\n  zen: { frobnicate: 1 }\n")
        // THEN the hint lists what is allowed
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(3, 10), message: "unknown key 'frobnicate' in target 'zen'",
                                          hint: "known keys: path, method, doc, params, task, headers, timeout, validate, sample, samples, expect, check, auth, "
                                            + "followRedirects, capture, needs, until, load, stream, when, include, each"
                                            + "; a key for shared blocks or anchors (&name) starts with x-: x-frobnicate")])
    }

    func testUnknownTopLevelKeyIsMatchedCaseInsensitively() {
        // GIVEN `baseUrl` instead of `baseURL`
        let found = decodeDiagnostics("baseUrl: https://api.test\ntargets: {}\n")
        // THEN the typo is named and the missing key reported too
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(1, 1), message: "unknown key 'baseUrl' in the target file",
                       hint: "did you mean 'baseURL'?"),
            Diagnostic(file: inlineFile, mark: at(1, 1), message: "the target file has no baseURL",
                       hint: "add baseURL: https://api.example.com"),
        ])
    }

    func testUnknownKeyInATaskAndInASample() {
        // GIVEN typos inside task and sample
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              t:
                task: { qeury: { a: 1 } }
                sample: { stauts: 200 }
            """)
        // THEN both are reported with suggestions
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(4, 13), message: "unknown key 'qeury' in task", hint: "did you mean 'query'?"),
            Diagnostic(file: inlineFile, mark: at(5, 15), message: "unknown key 'stauts' in the sample of target 't'",
                       hint: "did you mean 'status'?"),
        ])
    }

    func testListWhereAMappingBelongs() {
        // GIVEN lists and scalars where mappings belong
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            headers: [Accept]
            targets:
              zen: /zen
              list:
                - path: /x
            """)
        // THEN each says what it needed and what it got, at the value
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(2, 10), message: "the service's headers must be a mapping, not a list"),
            Diagnostic(file: inlineFile, mark: at(4, 8), message: "target 'zen' must be a mapping, not a scalar"),
            Diagnostic(file: inlineFile, mark: at(6, 5), message: "target 'list' must be a mapping, not a list"),
        ])
    }

    func testTargetsAsAListAndTopLevelAsAList() {
        // GIVEN targets written as a list, and a file that is a list
        let targets = decodeDiagnostics("baseURL: https://api.test\ntargets: [a, b]\n")
        let top = decodeDiagnostics("- baseURL: https://api.test\n")
        // THEN both are type errors at the list
        XCTAssertEqual(targets, [Diagnostic(file: inlineFile, mark: at(2, 10), message: "targets must be a mapping, not a list")])
        XCTAssertEqual(top, [Diagnostic(file: inlineFile, mark: at(1, 1), message: "the target file must be a mapping, not a list")])
    }

    func testQueryMustBeAMappingAndParamsMustBeText() {
        // GIVEN a query list and a param mapping
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              t:
                params: { name: { a: 1 } }
                task: { query: [a] }
            """)
        // THEN both are reported
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(4, 21), message: "param 'name' must be text, not a mapping"),
            Diagnostic(file: inlineFile, mark: at(5, 20), message: "task query must be a mapping of name → value, not a list"),
        ])
    }

    func testBadMethodToken() {
        // GIVEN a method with spaces and a slash
        let found = decodeDiagnostics("baseURL: https://api.test\ntargets:\n  t:\n    method: \"GET /\"\n")
        // THEN it is rejected with the list of usual methods
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(4, 13), message: "method 'GET /' is not an HTTP method token",
                                          hint: "use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another RFC 9110 token")])
    }

    func testBadSampleStatus() {
        // GIVEN status 999
        let found = decodeDiagnostics("baseURL: https://api.test\ntargets:\n  t:\n    sample: { status: 999 }\n")
        // THEN the range is named
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(4, 23),
                                          message: "sample status must be a whole number from 100 to 599, not '999'")])
    }

    func testBadValidateNameHasADidYouMeanHint() {
        // GIVEN a misspelt validate
        let found = decodeDiagnostics("baseURL: https://api.test\nvalidate: sucess\ntargets: {}\n")
        // THEN the closest name is suggested
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(2, 11), message: "unknown validate 'sucess'",
                                          hint: "did you mean 'success'?")])
    }

    func testUnrecognisableValidateListsTheForms() {
        // GIVEN a validate far from every name, and a code out of range
        let name = decodeDiagnostics("baseURL: https://api.test\nvalidate: everything\ntargets: {}\n")
        let code = decodeDiagnostics("baseURL: https://api.test\nvalidate: [200, 999]\ntargets: {}\n")
        // THEN the forms are listed, and the bad code is placed
        XCTAssertEqual(name, [Diagnostic(file: inlineFile, mark: at(2, 11), message: "unknown validate 'everything'",
                                         hint: "use none, success, successAndRedirect or a list of codes like [200, 304]")])
        XCTAssertEqual(code, [Diagnostic(file: inlineFile, mark: at(2, 17),
                                         message: "a status code in validate must be a whole number from 100 to 599, not '999'")])
    }

    func testMissingBaseURL() {
        // GIVEN no baseURL
        let found = decodeDiagnostics("targets:\n  zen: { path: /zen }\n")
        // THEN one diagnostic at the top
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(1, 1), message: "the target file has no baseURL",
                                          hint: "add baseURL: https://api.example.com")])
    }

    func testMissingTargets() {
        // GIVEN no targets
        let found = decodeDiagnostics("service: demo\nbaseURL: https://api.test\n")
        // THEN one diagnostic at the top
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(1, 1), message: "the target file has no targets",
                                          hint: "add a targets: mapping of name → target")])
    }

    func testBadBaseURLs() {
        // GIVEN a non-HTTP scheme, text that is no URL, and a URL with no host
        let ftp = decodeDiagnostics("baseURL: ftp://x\ntargets: {}\n")
        let text = decodeDiagnostics("baseURL: not a url\ntargets: {}\n")
        let hostless = decodeDiagnostics("baseURL: \"https://\"\ntargets: {}\n")
        // THEN each is placed at the value with the same advice
        let hint = "write it whole, like https://api.example.com/v1"
        XCTAssertEqual(ftp, [Diagnostic(file: inlineFile, mark: at(1, 10), message: "baseURL 'ftp://x' does not start with http://, https://, ws:// or wss://", hint: hint)])
        XCTAssertEqual(text, [Diagnostic(file: inlineFile, mark: at(1, 10), message: "baseURL 'not a url' does not start with http://, https://, ws:// or wss://", hint: hint)])
        XCTAssertEqual(hostless, [Diagnostic(file: inlineFile, mark: at(1, 10), message: "baseURL 'https://' has no host", hint: hint)])
    }

    func testBaseURLWithPlaceholdersIsCheckedLater() throws {
        // GIVEN a base URL that needs expanding
        let service = try decodeService("baseURL: \"https://{host}\"\ntargets: {}\n")
        // THEN it decodes as written
        XCTAssertEqual(service.baseURL.text, "https://{host}")
    }

    func testPathWithAQueryOrFragment() {
        // GIVEN paths holding '?' and '#'
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              a:
                path: /search?q=moya
              b:
                path: /page#top
            """)
        // THEN both point to task query
        let hint = "put query parameters in task: { query: { name: value } }"
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(4, 11), message: "path holds a query or fragment", hint: hint),
            Diagnostic(file: inlineFile, mark: at(6, 11), message: "path holds a query or fragment", hint: hint),
        ])
    }

    func testTwoBodiesInATask() {
        // GIVEN json and form in one task
        let found = decodeDiagnostics("baseURL: https://api.test\ntargets:\n  t:\n    task: { json: { a: 1 }, form: { b: 2 } }\n")
        // THEN reported at the second body
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(4, 29), message: "task has more than one body: json and form",
                                          hint: "a request carries one body; combine query: with one of json:, form:, body:, multipart:, upload:, graphql:, websocket:")])
    }

    func testParametersEncodedAsABodyCountAsABody() {
        // GIVEN a text body plus parameters sent as JSON
        let found = decodeDiagnostics("baseURL: https://api.test\ntargets:\n  t:\n    task: { body: hi, parameters: { a: 1 }, encoding: json }\n")
        // THEN the parameters are the second body
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(4, 23),
                                          message: "task has more than one body: body and parameters (encoding: json)",
                                          hint: "a request carries one body; combine query: with one of json:, form:, body:, multipart:, upload:, graphql:, websocket:")])
    }

    func testURLEncodedParametersOnAPOSTWithABodyAreTwoBodies() {
        // GIVEN a POST whose task has a JSON body and `parameters` with the default encoding (url),
        // which Moya's method-dependent rule sends as a form body for POST
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              create:
                method: POST
                task: { json: { a: 1 }, parameters: { b: 2 } }
            """)
        // THEN it is rejected like any other second body (otherwise the request builder silently
        // replaces the declared JSON body with the form)
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(5, 29),
                                          message: "task has more than one body: json and parameters (encoding: url)",
                                          hint: "a request carries one body; combine query: with one of json:, form:, body:, "
                                            + "multipart:, upload:, graphql:, websocket:, or set encoding: query to send parameters in the URL")])
    }

    func testURLEncodedParametersOnAGETWithABodyAreAQuery() throws {
        // GIVEN the same task on a GET, where url-encoded parameters go to the query
        let service = try decodeService("""
            baseURL: https://api.test
            targets:
              read:
                task: { json: { a: 1 }, parameters: { b: 2 } }
            """)
        // THEN it decodes
        XCTAssertEqual(service.targets.map(\.name), ["read"])
    }

    func testTwoBodiesInASample() {
        // GIVEN body and json in the default sample, and json and error in a named one
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              zen:
                sample: { body: hi, json: {} }
                samples:
                  broken: { json: {}, error: offline }
            """)
        // THEN each is reported at its second body key
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(4, 25), message: "the sample of target 'zen' has more than one body: body and json",
                       hint: "a sample takes one of body:, json:, file:, events:, messages:, error:"),
            Diagnostic(file: inlineFile, mark: at(6, 27), message: "sample 'broken' of target 'zen' has more than one body: json and error",
                       hint: "a sample takes one of body:, json:, file:, events:, messages:, error:"),
        ])
    }

    func testMissingSampleFileAndBodyFile() throws {
        // GIVEN files that do not exist next to the target file
        let service = try decodeService("""
            baseURL: https://api.test
            targets:
              t:
                sample: { file: missing.json }
                task: { body: { file: data.bin } }
            """, file: "/nonexistent-dir/demo.yaml")
        // WHEN the files are checked (loading does not: a missing file fails only its target)
        let found = FileCheck.missing(in: service)
        // THEN both name the file and where it was looked for
        let hint = "paths are relative to the folder of the target file"
        XCTAssertEqual(found, [
            Diagnostic(file: "/nonexistent-dir/demo.yaml", mark: at(4, 21),
                       message: "sample file 'missing.json' does not exist (looked for /nonexistent-dir/missing.json)", hint: hint),
            Diagnostic(file: "/nonexistent-dir/demo.yaml", mark: at(5, 27),
                       message: "body file 'data.bin' does not exist (looked for /nonexistent-dir/data.bin)", hint: hint),
        ])
    }

    func testBodyMappingNeedsAFile() {
        // GIVEN an empty body mapping
        let found = decodeDiagnostics("baseURL: https://api.test\ntargets:\n  t:\n    task: { body: {} }\n")
        // THEN the form is explained
        XCTAssertEqual(found, [Diagnostic(file: inlineFile, mark: at(4, 19), message: "body mapping needs file:",
                                          hint: "write body: { file: path/to/file }")])
    }

    func testBadEncodingNames() {
        // GIVEN a misspelt encoding and an unrecognisable arrays option
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            targets:
              t:
                task: { parameters: { a: 1 }, encoding: jsn }
              u:
                task: { arrays: commas }
            """)
        // THEN a suggestion, or the list of choices
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(4, 45), message: "unknown encoding 'jsn'", hint: "did you mean 'json'?"),
            Diagnostic(file: inlineFile, mark: at(6, 21), message: "unknown arrays 'commas'", hint: "use one of: brackets, noBrackets"),
        ])
    }

    func testBadDurations() {
        // GIVEN a zero timeout, a word, and a negative delay
        let found = decodeDiagnostics("""
            baseURL: https://api.test
            timeout: 0
            targets:
              t: { timeout: soon, sample: { delay: -1 } }
            """)
        // THEN each explains the accepted forms
        let hint = "write 30, 1.5, 800ms, 2s or 1m"
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(2, 10), message: "timeout must be a positive duration in seconds, not '0'", hint: hint),
            Diagnostic(file: inlineFile, mark: at(4, 17), message: "timeout must be a positive duration in seconds, not 'soon'", hint: hint),
            Diagnostic(file: inlineFile, mark: at(4, 40),
                       message: "sample delay must be a non-negative duration in seconds, not '-1'", hint: hint),
        ])
    }

    func testBadNames() {
        // GIVEN a service name with a space, a target name with a dot, and a bad header name and value
        let found = decodeDiagnostics("""
            service: "git hub"
            baseURL: https://api.test
            headers: { "Bad Header": x, X-A: "a\\nb" }
            targets:
              "a.b": { path: /x }
            """)
        // THEN each is reported where it stands
        XCTAssertEqual(found, [
            Diagnostic(file: inlineFile, mark: at(3, 12), message: "'Bad Header' is not a valid header name",
                       hint: "header names are letters, digits and !#$%&'*+-.^_`|~"),
            Diagnostic(file: inlineFile, mark: at(3, 34), message: "header 'X-A' holds a line break"),
            Diagnostic(file: inlineFile, mark: at(1, 10), message: "service name 'git hub' may only hold letters, digits, '_' and '-'",
                       hint: "set service: to a simple name; it is the first half of 'service.target'"),
            Diagnostic(file: inlineFile, mark: at(5, 3), message: "target name 'a.b' may only hold letters, digits, '_' and '-'"),
        ])
    }

    func testEmptyFile() {
        // GIVEN an empty text, a lone null, and a fixture holding only a comment
        let empty = decodeDiagnostics("")
        let null = decodeDiagnostics("~\n")
        let path = Fixtures.path("malformed/empty.yaml")
        let fixture = expectAPIError { () throws(APIError) in try TargetFile.load(path) }
        // THEN each says the file is empty
        let hint = "a target file is a mapping with baseURL: and targets:"
        XCTAssertEqual(empty, [Diagnostic(file: inlineFile, mark: at(1, 1), message: "the target file is empty", hint: hint)])
        XCTAssertEqual(null, [Diagnostic(file: inlineFile, mark: at(1, 1), message: "the target file is empty", hint: hint)])
        XCTAssertEqual(fixture, .invalidInput([Diagnostic(file: path, mark: at(1, 1), message: "the target file is empty", hint: hint)]))
    }

    func testUnreadableFile() {
        // GIVEN a path with no file
        let error = expectAPIError { () throws(APIError) in try TargetFile.load("/nonexistent-dir/none.yaml") }
        // THEN one diagnostic without a mark
        XCTAssertEqual(error, .invalidInput([Diagnostic(file: "/nonexistent-dir/none.yaml", mark: nil,
                                                        message: "cannot read target file: No such file or directory")]))
        // GIVEN a folder where a file was expected: the hint names --targets
        let folder = expectAPIError { () throws(APIError) in try TargetFile.load("/tmp") }
        XCTAssertEqual(folder, .invalidInput([Diagnostic(file: "/tmp", mark: nil, message: "cannot read target file: it is a folder",
                                                         hint: "name a folder of target files with --targets /tmp")]))
    }

    /// `load` on a thread of its own, given `seconds` to end: a read that waits on a named pipe is
    /// let go (a writer opens and closes it) and reported, instead of holding the test run.
    private func endsWithin<T: Sendable>(_ seconds: Double, releasing pipe: String,
                                         _ body: @escaping @Sendable () -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<T?>(nil)
        Thread.detachNewThread {
            result.set(body())
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            // A reader waiting in open(2) is let go by a writer; it may open the pipe again (a second reader).
            for _ in 0..<100 {
                let fd = open(pipe, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
                if done.wait(timeout: .now() + 0.1) == .success { break }
            }
            return nil
        }
        return result.current
    }

    func testANamedPipeIsRefusedNotWaitedOn() throws {
        // GIVEN a targets folder with a good file, then named pipes (nobody writes to them) where
        // a target file, the project file and the folder's .env are found
        let dir = NSTemporaryDirectory() + "apicli-fifo-\(UUID().uuidString)"
        let targets = dir + "/targets"
        try FileManager.default.createDirectory(atPath: targets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "baseURL: http://127.0.0.1:1\ntargets:\n  a: { path: /a }\n".write(toFile: targets + "/a.yaml", atomically: true, encoding: .utf8)
        let cases: [(name: String, message: String, hint: String, load: @Sendable () throws(APIError) -> Void)] = [
            ("b.yaml", "cannot read target file", "target files are regular files: move it out of the targets folder",
             { () throws(APIError) in _ = try Catalog.load(directory: targets) }),
            ("apicli.yaml", "cannot read the project file", "make apicli.yaml a regular file, or move it away",
             { () throws(APIError) in _ = try Project.load(directory: targets) }),
            (".env", "cannot read env file", "make .env a regular file, or move it away",
             { () throws(APIError) in _ = try EnvFile.environment(directory: targets, files: [], process: [:]) }),
        ]
        for each in cases {
            let pipe = targets + "/" + each.name
            XCTAssertEqual(mkfifo(pipe, 0o600), 0)
            // WHEN it is read
            let load = each.load
            let outcome = endsWithin(20, releasing: pipe) { () -> APIError? in
                do throws(APIError) { try load(); return nil } catch { return error }
            }
            // THEN it ends at once with the pipe named as what cannot be read (never opened: that waits for a writer)
            guard let outcome else { return XCTFail("reading \(each.name) as a named pipe waited on it") }
            XCTAssertEqual(outcome, .invalidInput([Diagnostic(file: pipe, mark: nil,
                                                              message: each.message + ": it is not a regular file (a named pipe, socket or device)",
                                                              hint: each.hint)]))
        }
    }

    func testYAMLErrorsBecomeDiagnosticsWithNotes() {
        // GIVEN a syntax error and a duplicate key
        let syntax = decodeDiagnostics("a: b: c\n")
        let duplicate = decodeDiagnostics("baseURL: https://api.test\nbaseURL: https://other.test\ntargets: {}\n")
        // THEN libyaml's text and the duplicate's note carry over
        XCTAssertEqual(syntax, [Diagnostic(file: inlineFile, mark: at(1, 5), message: "mapping values are not allowed in this context",
                                                   hint: "a second ':' in a plain value; quote the value: a: \"b: c\"")])
        XCTAssertEqual(duplicate, [Diagnostic(file: inlineFile, mark: at(2, 1), message: "duplicate key 'baseURL'",
                                              notes: [Diagnostic.Note(message: "first defined here", mark: at(1, 1))])])
    }

    func testEveryErrorOfAFileIsReported() throws {
        // GIVEN a fixture with six independent problems
        let path = Fixtures.path("malformed/many-errors.yaml")
        // WHEN loaded
        let error = try XCTUnwrap(expectAPIError { () throws(APIError) in try TargetFile.load(path) })
        // THEN all six come back, in file order
        let found = diagnostics(of: error)
        XCTAssertEqual(found.count, 6)
        XCTAssertEqual(found, [
            Diagnostic(file: path, mark: at(2, 10), message: "baseURL 'ftp://api.test' does not start with http://, https://, ws:// or wss://",
                       hint: "write it whole, like https://api.example.com/v1"),
            Diagnostic(file: path, mark: at(3, 10), message: "timeout must be a positive duration in seconds, not 'soon'",
                       hint: "write 30, 1.5, 800ms, 2s or 1m"),
            Diagnostic(file: path, mark: at(6, 5), message: "unknown key 'pth' in target 'a'", hint: "did you mean 'path'?"),
            Diagnostic(file: path, mark: at(7, 13), message: "method 'G E T' is not an HTTP method token",
                       hint: "use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or another RFC 9110 token"),
            Diagnostic(file: path, mark: at(9, 23), message: "sample status must be a whole number from 100 to 599, not '999'"),
            Diagnostic(file: path, mark: at(9, 37), message: "the sample of target 'b' has more than one body: body and json",
                       hint: "a sample takes one of body:, json:, file:, events:, messages:, error:"),
        ])
    }
}
