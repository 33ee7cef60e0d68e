import XCTest
@testable import APIImport
@testable import APIYAML

/// The two hand-written readers of `import http` and `import bruno`: the `.http` file's sections,
/// request lines, tags, variables, scripts and bodies; the `.bru` file's blocks, pairs (disabled,
/// quoted, multi-line, annotated), text blocks and lists — each with the line it stands on.
final class ImportTextFormatTests: XCTestCase {
    func testHttpFileSectionsAndTheirParts() {
        let file = HttpFile(text: """
            @host = https://api.example.com
            ### list users
            # @name listUsers
            // @no-redirect
            GET {{host}}/users
                ?page=2
                &size=10 HTTP/1.1
            Accept: application/json
            # @timeout 5 s

            ###
            < {%
              request.variables.set("x", 1)
            %}
            POST {{host}}/users
            Content-Type: application/json

            {"name": "Ada"}
            # a comment, not body

            > {% client.global.set("id", response.body.id); %}
            >> ./out.json

            GET https://other.example.com/x
            """)
        XCTAssertEqual(file.variables.map(\.name), ["host"])
        XCTAssertEqual(file.requests.count, 3)
        let list = file.requests[0]
        XCTAssertEqual(list.title, "list users")
        XCTAssertEqual(list.line, 5)
        XCTAssertEqual(list.url, "{{host}}/users?page=2&size=10")
        XCTAssertEqual(list.tags.map(\.tag), ["name", "no-redirect", "timeout"])
        XCTAssertEqual(list.tags.last?.value, "5 s")
        XCTAssertEqual(list.headers.map(\.name), ["Accept"])
        let create = file.requests[1]
        XCTAssertEqual(create.method, "POST")
        XCTAssertEqual(create.body, [#"{"name": "Ada"}"#])
        XCTAssertEqual(create.bodyLine, 18)
        XCTAssertEqual(create.skipped.map(\.what), ["the pre-request script", "the response handler script",
                                                    "the response redirect '>> ./out.json' (the response is not saved to a file)"])
        XCTAssertEqual(create.skipped.map(\.line), [12, 21, 22])
        // a request line after a blank line starts a request of its own (httpyac)
        XCTAssertEqual(file.requests[2].url, "https://other.example.com/x")
        XCTAssertEqual(file.requests[2].line, 24)
    }

    func testHttpFileRecordedResponsesAndStrayText() {
        let file = HttpFile(text: "fragment F on T {\n  id\n}\n\nGET https://a.example/x\n\nHTTP/1.1 404 Not Found\ncontent-type: text/plain\n\nnope\n")
        XCTAssertEqual(file.notes.map(\.line), [1])  // one warning for the three lines of text
        XCTAssertEqual(file.requests.count, 1)
        XCTAssertEqual(file.requests[0].response?.line, 7)
        XCTAssertEqual(file.requests[0].response?.lines, ["HTTP/1.1 404 Not Found", "content-type: text/plain", "", "nope", ""])
        XCTAssertEqual(HttpFileMapper.seconds("600"), "600")
        XCTAssertEqual(HttpFileMapper.seconds("250 ms"), "0.25")
        XCTAssertEqual(HttpFileMapper.seconds("2m"), "120")
        XCTAssertNil(HttpFileMapper.seconds("0"))
        XCTAssertNil(HttpFileMapper.seconds("99999999999"))
        XCTAssertNil(HttpFileMapper.seconds("soon"))
    }

    func testBruBlocksPairsAndLists() {
        let bru = BruFile(text: """
            meta {
              name: Get user
              seq: 3
            }

            get {
              url: {{host}}/users/:id?x=1
              body: json
              auth: inherit
            }

            headers {
              @description('''
                the trace id
              ''')
              X-Trace: abc
              ~X-Off: 1
              "X Quoted: key": v
              @number
              X-Count: 2
            }

            body:json {
              {
                "a": "}"
              }
            }

            vars:pre-request {
              note: '''
                line one
                  line two
              '''
            }

            vars:secret [
              token,
              ~password
            ]
            """)
        XCTAssertEqual(bru.blocks.map(\.name), ["meta", "get", "headers", "body:json", "vars:pre-request", "vars:secret"])
        XCTAssertEqual(bru.value("meta", "seq"), "3")
        XCTAssertEqual(bru.value("get", "url"), "{{host}}/users/:id?x=1")
        let headers = bru.block("headers")!.pairs
        XCTAssertEqual(headers.map(\.key), ["X-Trace", "X-Off", "X Quoted: key", "X-Count"])
        XCTAssertEqual(headers.map(\.enabled), [true, false, true, true])
        XCTAssertEqual(headers.first?.line, 16)
        XCTAssertEqual(bru.enabled("headers").map(\.value), ["abc", "v", "2"])
        XCTAssertEqual(bru.block("body:json")?.text, "{\n  \"a\": \"}\"\n}")
        XCTAssertEqual(bru.value("vars:pre-request", "note"), "line one\n  line two")
        XCTAssertEqual(bru.block("vars:secret")?.items, ["token", "~password"])
        XCTAssertTrue(bru.stray.isEmpty)
        // a block never closed ends the file; text outside blocks is reported
        let open = BruFile(text: "stray words\nget {\n  url: http://x\n")
        XCTAssertEqual(open.stray.map(\.line), [1])
        XCTAssertEqual(open.value("get", "url"), "http://x")
    }

    func testBrunoAssertsMapToExpectOrAreWarned() {
        XCTAssertEqual(BrunoMapper.split("eq 200").op, "eq")
        XCTAssertEqual(BrunoMapper.split("Authentication successful").arg, "Authentication successful")
        XCTAssertEqual(BrunoMapper.typed("200"), .number("200"))
        XCTAssertEqual(BrunoMapper.typed("\"200\""), .string("200"))
        XCTAssertEqual(BrunoMapper.typed("false"), .bool(false))
        XCTAssertEqual(BrunoMapper.typed("null"), .null)
        var entries: [YAMLOut.Entry] = []
        XCTAssertTrue(BrunoMapper.add("$.n", .map([.pair(">", .number("1"))]), to: &entries))
        XCTAssertTrue(BrunoMapper.add("$.n", .map([.pair("<", .number("9"))]), to: &entries))
        XCTAssertFalse(BrunoMapper.add("$.n", .map([.pair(">", .number("2"))]), to: &entries))
        XCTAssertEqual(entries, [.pair("$.n", .map([.pair(">", .number("1")), .pair("<", .number("9"))]))])
    }
}
