import XCTest
@testable import APISupport
@testable import APIYAML
@testable import APIJSON
@testable import APIDiagnostics
@testable import APITargets
@testable import APIEndpoint
@testable import APITransport
@testable import APIVerdict
@testable import APICheck
@testable import APIMock
@testable import APIRecord
@testable import APIImport

/// The mock's route table without a socket: matching, specificity, samples, conflicts, 404s.
final class MockTableTests: XCTestCase {
    private func table(_ yaml: String, prefer: [String] = [], more: [String] = []) throws -> MockTable {
        let services = try [decodeService(yaml)] + more.enumerated().map { i, y in
            try decodeService(y, file: "targets/more\(i).yaml", defaultName: "more\(i)")
        }
        let selected = services.flatMap { s in s.targets.map { (s, $0) } }
        return try MockTable(workspace: Workspace(variables: ["HOST": "https://api.example.com/v2"]), selected: selected, prefer: prefer)
    }

    private func body(_ answer: MockTable.Answer) -> String? {
        guard case .response(_, _, let body, _) = answer.reply else { return nil }
        return String(decoding: body, as: UTF8.self)
    }

    private func status(_ answer: MockTable.Answer) -> Int? {
        guard case .response(let status, _, _, _) = answer.reply else { return nil }
        return status
    }

    static let yaml = """
        baseURL: "${HOST}"
        targets:
          user:
            path: /users/{name}
            sample: { json: { login: "{name}" } }
          me:
            path: /users/me
            sample: { body: me }
          file:
            path: /files/{+rest}
            sample: { body: "{rest}" }
          icon:
            path: /icons/{id}.png
            sample: { body: "icon {id}" }
          named:
            method: POST
            path: /users
            samples:
              created: { status: 201 }
              gone: { error: reset }

        """

    func testRoutesUnderTheBaseURLPathWithCapturesExpandedInTheSample() throws {
        let t = try table(Self.yaml)
        let a = t.answer(method: "GET", uri: "/v2/users/octo%20cat?x=1")
        XCTAssertEqual(body(a), #"{"login":"octo cat"}"#)
        XCTAssertEqual(a.target, "demo.user")
        XCTAssertEqual(a.sample, "sample")
        XCTAssertEqual(body(t.answer(method: "GET", uri: "/v2/users/me")), "me")
        XCTAssertEqual(body(t.answer(method: "GET", uri: "/v2/files/a/b/c.txt")), "a/b/c.txt")
        XCTAssertEqual(body(t.answer(method: "GET", uri: "/v2/icons/42.png")), "icon 42")
        XCTAssertEqual(status(t.answer(method: "GET", uri: "/users/me")), 404, "the base path is part of the route")
        XCTAssertEqual(body(t.answer(method: "HEAD", uri: "/v2/users/me")), "me", "HEAD falls back to GET")
    }

    func testJSONSamplesAreServedWithNumbersAndKeysAsWritten() throws {
        // GIVEN a sample as record writes one: numbers beyond a Double's precision, keys unsorted
        let t = try table("""
            baseURL: "${HOST}"
            targets:
              big:
                path: /big
                sample:
                  json:
                    { "zeta": [0.1e-3], "id": 9007199254740993, "price": 1.50, "e": 1E+2 }

            """)
        // THEN the mock serves them exactly so
        XCTAssertEqual(body(t.answer(method: "GET", uri: "/v2/big")), #"{"zeta":[0.1e-3],"id":9007199254740993,"price":1.50,"e":1E+2}"#)
    }

    func testNamedSamplesAndErrorSamples() throws {
        let t = try table(Self.yaml)
        XCTAssertEqual(status(t.answer(method: "POST", uri: "/v2/users")), 201, "only named samples: the first answers")
        let gone = t.answer(method: "POST", uri: "/v2/users?apicli-sample=gone")
        guard case .close = gone.reply else { return XCTFail("an error: sample closes the connection") }
        XCTAssertEqual(status(t.answer(method: "POST", uri: "/v2/users", sampleHeader: "created")), 201)
        XCTAssertEqual(status(t.answer(method: "POST", uri: "/v2/users", sampleHeader: "nope")), 400)
    }

    func testUnmatchedListsTheClosestRoutes() throws {
        let t = try table(Self.yaml)
        let a = t.answer(method: "GET", uri: "/v2/user/octocat")
        XCTAssertEqual(status(a), 404)
        XCTAssertTrue(body(a)?.hasPrefix(#"{"error":"no route for GET /v2/user/octocat","closest":[{"route":"GET /v2/users/{name}","target":"demo.user"}"#) == true,
                      body(a) ?? "")
    }

    func testConflictsNameBothTargetsUnlessAServiceIsPreferred() throws {
        let other = """
            service: other
            baseURL: http://o.example.com/v2/
            targets:
              person: { path: "users/{id}", sample: { body: other } }

            """
        XCTAssertThrowsError(try table(Self.yaml, more: [other])) { error in
            guard case .invalidInput(let d) = error as? APIError else { return XCTFail("\(error)") }
            XCTAssertEqual(d.first?.message, "route conflict: other.person and demo.user (targets/demo.yaml:3) both answer GET /v2/users/{id}")
            XCTAssertEqual(d.first?.hint, "pick the service that answers with --service demo or --service other")
        }
        let t = try table(Self.yaml, prefer: ["other"], more: [other])
        XCTAssertEqual(body(t.answer(method: "GET", uri: "/v2/users/x")), "other")
    }
}

final class DriftShapeTests: XCTestCase {
    private func json(_ text: String) -> JSONValue { JSONValue.parse(Data(text.utf8))! }

    func testSameShapeIsNoDriftWhateverTheValues() {
        XCTAssertEqual(Drift.compare(json(#"{"a":1,"b":[{"c":"x"}]}"#), json(#"{"b":[{"c":"y"},{"c":"z"}],"a":2}"#)), [])
    }

    func testTypesMissingAndAddedPathsOnlyAtTheTopmostDifference() {
        let out = Drift.compare(json(#"{"a":1,"o":{"x":1,"y":2},"l":[{"p":1}],"e":[]}"#),
                                json(#"{"a":"1","l":[{"p":null,"q":true}],"e":[{"z":1}],"n":{"deep":1}}"#))
        XCTAssertEqual(out, ["$.a: sample has number, live has string",
                             "$.l[*].p: sample has number, live has null",
                             "$.o: missing live",
                             "$.l[*].q: added live (bool)",
                             "$.n: added live (object)"])
    }

    func testIgnoredPathsAndOddKeys() {
        XCTAssertEqual(Drift.compare(json(#"{"t":"s","w x":1}"#), json(#"{"t":1,"w x":"1"}"#), ignored: ["$.t"]),
                       ["$['w x']: sample has number, live has string"])
    }

    func testReportsListDriftOnlyWhenCompared() {
        var r = CheckResult(name: "s.t", service: "s", target: "t", outcome: .passed)
        XCTAssertFalse(JSONReport.render([r]).contains("drift"))
        r.apply(drift: ["$.a: missing live"], mode: .warn)
        XCTAssertEqual(r.outcome, .passed)
        XCTAssertTrue(JSONReport.render([r]).contains(#","drift":["$.a: missing live"]}]"#))
        XCTAssertEqual(TextReport.driftLines(r), "      drift: $.a: missing live\n")
        r.apply(drift: ["$.a: missing live"], mode: .fail)
        XCTAssertEqual(r.outcome, .failed)
        XCTAssertEqual(r.messages, ["drift: $.a: missing live"])
        XCTAssertEqual(TextReport.driftLines(r), "")
    }

    func testStatusClassAndMediaType() {
        let sample = Response(status: 200, headers: [HeaderField("Content-Type", "application/json")], body: Data("{}".utf8), duration: 0)
        let live = Response(status: 503, headers: [HeaderField("Content-Type", "text/html; charset=utf-8")], body: Data("<p>".utf8), duration: 0)
        XCTAssertEqual(Drift.Baseline(mode: .fail, sample: sample).differences(from: live),
                       ["status: sample has 2xx, live has 5xx (503)", "Content-Type: sample has application/json, live has text/html"])
    }
}

final class RecordEditTests: XCTestCase {
    static let file = """
        # top
        baseURL: http://x   # comment
        targets:
          a:
            path: /a
            sample: &s { body: old }
            # trailing comment of a

          b:
            path: /b
            samples:
              one: { status: 201 }
        # end

        """

    private func edit(_ text: String, _ sample: RecordedSample, target: String, name: String?) throws -> String {
        var editor = TargetFileEditor(text: text, file: "t.yaml")
        try editor.write(sample, name: name, target: target, root: try XCTUnwrap(try YAMLParser.parse(Array(text.utf8))), sideFile: nil)
        return editor.text
    }

    private let sample = RecordedSample(Response(status: 200, headers: [HeaderField("Content-Type", "application/json"), HeaderField("Date", "x"),
                                                                      HeaderField("Set-Cookie", "s=1")],
                                                 body: Data(#"{"k":[1,2],"s":"a${b}"}"#.utf8), duration: 0), options: .init())

    func testReplacesTheSampleLinesOnly() throws {
        let out = try edit(Self.file, sample, target: "a", name: nil)
        XCTAssertEqual(out, Self.file.replacingOccurrences(of: "    sample: &s { body: old }\n", with: """
                sample:
                  status: 200
                  headers:
                    Content-Type: "application/json"
                  json:
                    {
                      "k": [1, 2],
                      "s": "a$${b}"
                    }

            """))
    }

    func testAddsNamedSamplesInsideAnExistingSamplesMapping() throws {
        let out = try edit(Self.file, sample, target: "b", name: "two")
        XCTAssertTrue(out.contains("      one: { status: 201 }\n      two:\n        status: 200\n"), out)
        XCTAssertTrue(out.hasSuffix("        }\n# end\n"), out)
        XCTAssertTrue(out.contains("      two:\n        status: 200\n        headers:\n          Content-Type: \"application/json\"\n        json:\n"), out)
        let added = try edit(Self.file, sample, target: "a", name: "x")
        XCTAssertTrue(added.contains("    # trailing comment of a\n    samples:\n      x:\n        status: 200\n"), added)
    }

    func testSentCredentialsAreHiddenWholeUnlessANamedSecretIsInThem() throws {
        let echo = #"{"h":{"Authorization":"Bearer tok-12345","X-Api-Key":"k-999999","Short":"abc"}}"#
        let recorded = RecordedSample(Response(status: 200, headers: [HeaderField("Content-Type", "application/json")],
                                               body: Data(echo.utf8), duration: 0),
                                      options: .init(secrets: [("API_TOKEN", "tok-12345"), ("PIN", "abc")],
                                                     credentials: ["Bearer tok-12345", "k-999999"]))
        guard case .json(let json)? = recorded.body else { return XCTFail("\(String(describing: recorded.body))") }
        // the named secret inside a credential becomes its variable, the rest of the header stays;
        // a credential with no named secret in it is hidden whole; a value under 4 characters is left
        XCTAssertEqual(json.jsonText, #"{"h":{"Authorization":"Bearer ${API_TOKEN:-••••}","X-Api-Key":"••••","Short":"abc"}}"#)
    }

    // MARK: Flow-style targets

    private let small = RecordedSample(Response(status: 201, headers: [], body: Data(), duration: 0), options: .init())

    /// The file the flow tests edit: flow targets on one line and over several, block targets, an
    /// anchor used by a flow target, comments.
    static let flowFile = """
        # top
        targets:
          a: { path: /a, method: POST, json: { id: 1, tags: [x, y] }, doc: "quoted, with: colon" }   # trailing
          b:
            path: /b
            headers: &h { X-Team: apicli }
          c: {
            path: /c,
              method: PUT,
            headers: *h , doc: 'it''s'
          }
          d:
            { path: /d, flag }
          e: { path: /e }
        # end

        """

    func testFlowTargetOnOneLineBecomesAnIndentedMappingWithTheSample() throws {
        let out = try edit(Self.flowFile, small, target: "a", name: nil)
        XCTAssertEqual(out, Self.flowFile.replacingOccurrences(
            of: "  a: { path: /a, method: POST, json: { id: 1, tags: [x, y] }, doc: \"quoted, with: colon\" }   # trailing\n", with: """
              a: # trailing
                path: /a
                method: POST
                json: { id: 1, tags: [x, y] }
                doc: "quoted, with: colon"
                sample:
                  status: 201

            """))
    }

    func testFlowTargetSpanningLinesAndOneStartingOnTheNextLine() throws {
        let out = try edit(Self.flowFile, small, target: "c", name: "made")
        XCTAssertEqual(out, Self.flowFile.replacingOccurrences(of: """
              c: {
                path: /c,
                  method: PUT,
                headers: *h , doc: 'it''s'
              }

            """, with: """
              c:
                path: /c
                method: PUT
                headers: *h
                doc: 'it''s'
                samples:
                  made:
                    status: 201

            """))
        let d = try edit(Self.flowFile, small, target: "d", name: nil)
        XCTAssertEqual(d, Self.flowFile.replacingOccurrences(of: "  d:\n    { path: /d, flag }\n",
                                                             with: "  d:\n    path: /d\n    flag:\n    sample:\n      status: 201\n"))
    }

    func testFlowTargetInACRLFFileKeepsCRLF() throws {
        let crlf = Self.flowFile.replacingOccurrences(of: "\n", with: "\r\n")
        let out = try edit(crlf, small, target: "e", name: nil)
        XCTAssertEqual(out, crlf.replacingOccurrences(of: "  e: { path: /e }\r\n",
                                                      with: "  e:\r\n    path: /e\r\n    sample:\r\n      status: 201\r\n"))
        // and again: the target is an indented mapping now, its sample is replaced in place
        XCTAssertEqual(try edit(out, small, target: "e", name: nil), out)
    }

    private func refusal(_ text: String, target: String) -> String {
        do {
            _ = try edit(text, small, target: target, name: nil)
            return "no refusal"
        } catch let error as APIError {
            guard case .invalidInput(let d) = error, let first = d.first else { return "\(error)" }
            return "\(first.mark.map(\.description) ?? "-") \(first.message) | \(first.hint ?? "")"
        } catch {
            return "\(error)"
        }
    }

    func testFlowTargetsThatCannotBeCarriedOverAreRefusedSayingWhy() throws {
        XCTAssertEqual(refusal("targets:\n  a: {\n    path: /a,  # the path\n    method: POST\n  }\n", target: "a"),
                       "3:16 record cannot rewrite a from flow style: a comment inside its { } would be lost"
                       + " | move the comment above the target, or write a as an indented mapping, one key a line, and record again")
        XCTAssertEqual(refusal("targets:\n  a: &base { path: /a }\n  b: { <<: *base }\n", target: "a"),
                       "2:6 record cannot rewrite a from flow style: its mapping carries an anchor (&base) that would have to move"
                       + " | put the anchor on the key's line of an indented mapping (a: &base, one key a line under it) and record again")
        XCTAssertEqual(refusal("targets:\n  a: !!map { path: /a }\n", target: "a"),
                       "2:6 record cannot rewrite a from flow style: its mapping carries a tag (!!map) that would have to move"
                       + " | put the tag on the key's line of an indented mapping (a: !!map, one key a line under it) and record again")
        XCTAssertEqual(refusal("targets: { a: { path: /a }, b: { path: /b } }\n", target: "a"),
                       "1:12 record cannot rewrite a from flow style: it shares its line with another key (targets: or the target"
                       + " is written in flow style) | write targets: as an indented mapping, one target a line, and record again")
        XCTAssertEqual(refusal("targets:\n  a: { path: /a, json: { x: 1,\n    y: 2 } }\n", target: "a"),
                       "2:24 record cannot rewrite a from flow style: the value of its entry json spans lines"
                       + " | write each entry of the { } on one line, or write a as an indented mapping, one key a line, and record again")
    }

    func testANamedSampleIntoAFlowSamplesMappingIsRefusedAtItsPlaceInTheFile() throws {
        let text = "targets:\n  a: { path: /a, samples: { one: { status: 201 } } }\n  b: { path: /b }\n"
        do {
            _ = try edit(text, small, target: "a", name: "two")
            XCTFail("no refusal")
        } catch let error as APIError {
            guard case .invalidInput(let d) = error, let first = d.first else { return XCTFail("\(error)") }
            XCTAssertEqual(first.mark, Mark(line: 2, column: 27))
            XCTAssertEqual(first.message, "record cannot rewrite a from flow style: its samples: is in flow style too,"
                           + " and --sample writes into an indented samples: mapping")
        }
        // without --sample the flow samples: is carried over as it is
        XCTAssertEqual(try edit(text, small, target: "a", name: nil),
                       "targets:\n  a:\n    path: /a\n    samples: { one: { status: 201 } }\n    sample:\n      status: 201\n  b: { path: /b }\n")
    }

    func testRecordedJSONKeepsNumbersAsSentAndKeysAsReceived() throws {
        let body = #"{"zeta":1,"id":9007199254740993,"price":1.50,"big":-12345678901234567890123,"e":1E+2,"zeta":[0.1e-3]}"#
        let recorded = RecordedSample(Response(status: 200, headers: [HeaderField("Content-Type", "application/json")],
                                               body: Data(body.utf8), duration: 0), options: .init())
        guard case .json(let json)? = recorded.body else { return XCTFail("\(String(describing: recorded.body))") }
        XCTAssertEqual(json.jsonText, #"{"zeta":[0.1e-3],"id":9007199254740993,"price":1.50,"big":-12345678901234567890123,"e":1E+2}"#)
        let out = try edit("targets:\n  n: { path: /n }\n", recorded, target: "n", name: nil)
        XCTAssertEqual(out, """
            targets:
              n:
                path: /n
                sample:
                  status: 200
                  headers:
                    Content-Type: "application/json"
                  json:
                    {
                      "zeta": [0.1e-3],
                      "id": 9007199254740993,
                      "price": 1.50,
                      "big": -12345678901234567890123,
                      "e": 1E+2
                    }

            """)
        // expect: still compares numbers by value
        XCTAssertEqual(JSONValue.parse(Data(#"{"a":1.50}"#.utf8)), JSONValue.parse(Data(#"{"a":1.5}"#.utf8)))
    }

    func testKeepsCRLFLineEndings() throws {
        let crlf = Self.file.replacingOccurrences(of: "\n", with: "\r\n")
        let out = try edit(crlf, sample, target: "b", name: nil)
        XCTAssertFalse(out.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
    }
}
