import Foundation
import TestServers
import XCTest

/// `import http` and `import bruno` send what the source file means: each request is imported,
/// then called with `apicli call` against Tests/Servers/echo-server.py (which answers with the
/// request as it arrived), and compared with the request the source format describes — method,
/// path, query pairs, the headers it names, and the body by its type (JSON equal as JSON, forms and
/// multipart parts equal as name/value pairs, text byte for byte).
final class ImportHttpBrunoRoundTripTests: FolderTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer("echo-server.py")
    }

    override func tearDown() {
        server?.stop()
        super.tearDown()
    }

    /// The request as the source means it.
    struct Meant {
        var method: String
        var path: String
        var query: [String] = []
        /// `name: value`, lowercased names; each must arrive (others may too: User-Agent, …).
        var headers: [String] = []
        var body = Body.none

        enum Body {
            case none
            case json(String)
            case form([String])
            case multipart([String])
            case text(String)
        }
    }

    /// Calls `target` and compares what arrived with `meant`.
    private func assertSends(_ target: String, in dir: URL, env: [String: String] = [:], _ meant: Meant,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let call = try CLI.run(["call", target, "--targets", dir.path], env: env.merging(["NO_PROXY": "127.0.0.1"]) { $1 }, cwd: dir)
        XCTAssertEqual(call.code, 0, "call \(target): \(call.stderr)", file: file, line: line)
        guard let o = try JSONSerialization.jsonObject(with: call.stdoutData) as? [String: Any], let headers = o["headers"] as? [[String]],
              let body = (o["body"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
            return XCTFail("\(target): not an echo: \(call.stdout.prefix(300))", file: file, line: line)
        }
        XCTAssertEqual(o["method"] as? String, meant.method, target, file: file, line: line)
        XCTAssertEqual(o["path"] as? String, meant.path, target, file: file, line: line)
        let query = (o["query"] as? String).map { Self.pairs($0) } ?? []
        XCTAssertEqual(query.sorted(), meant.query.sorted(), "\(target) query", file: file, line: line)
        let arrived = Set(headers.map { "\($0[0].lowercased()): \($0[1])" })
        for h in meant.headers { XCTAssertTrue(arrived.contains(h), "\(target): no \(h) in \(arrived.sorted())", file: file, line: line) }
        let type = headers.first { $0[0].lowercased() == "content-type" }?[1] ?? ""
        let text = String(decoding: body, as: UTF8.self)
        switch meant.body {
        case .none:
            XCTAssertTrue(body.isEmpty, "\(target): body \(text)", file: file, line: line)
        case .json(let expected):
            XCTAssertTrue(type.hasPrefix("application/json"), "\(target): \(type)", file: file, line: line)
            let a = try JSONSerialization.jsonObject(with: body) as? NSObject
            let b = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSObject
            XCTAssertEqual(a, b, "\(target): \(text)", file: file, line: line)
        case .form(let pairs):
            XCTAssertTrue(type.hasPrefix("application/x-www-form-urlencoded"), "\(target): \(type)", file: file, line: line)
            XCTAssertEqual(Self.pairs(text).sorted(), pairs.sorted(), target, file: file, line: line)
        case .multipart(let parts):
            XCTAssertTrue(type.hasPrefix("multipart/form-data; boundary="), "\(target): \(type)", file: file, line: line)
            let boundary = String(type.split(separator: "=", maxSplits: 1)[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            XCTAssertEqual(Self.parts(text, boundary: boundary), parts, target, file: file, line: line)
        case .text(let expected):
            XCTAssertEqual(text, expected, target, file: file, line: line)
        }
    }

    /// `a=1&b=x+y` → `["a=1", "b=x y"]`, decoded.
    static func pairs(_ text: String) -> [String] {
        text.split(separator: "&").map { pair in
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }.joined(separator: "=")
        }
    }

    /// A multipart body's parts as `name=value`, in order.
    static func parts(_ text: String, boundary: String) -> [String] {
        text.components(separatedBy: "--" + boundary).dropFirst().compactMap { part in
            guard let split = part.range(of: "\r\n\r\n") else { return nil }
            let head = part[..<split.lowerBound]
            guard let n = head.range(of: "name=\"") else { return nil }
            let name = head[n.upperBound...].prefix { $0 != "\"" }
            var value = String(part[split.upperBound...])
            if value.hasSuffix("\r\n") { value.removeLast() }  // "\r\n" is one Character
            return "\(name)=\(value)"
        }
    }

    func testHttpFileRequestsArriveAsTheFileMeansThem() throws {
        let input = try folder(["api.http": """
            @host = \(server.url)
            @name = Ada

            ### list items
            GET {{host}}/items/42?tag=a&tag=b
            X-Trace: abc
            Accept: application/json

            ###
            # @name createUser
            POST {{host}}/users
            Content-Type: application/json

            {
              "name": "{{name}}",
              "tags": ["x", 1, true, null]
            }

            ###
            # @name login
            POST {{host}}/login
            Content-Type: application/x-www-form-urlencoded

            user=ann&
            note=two%20words

            ###
            # @name note
            PUT {{host}}/notes/1
            Content-Type: text/plain

            line one
            line two

            ###
            # @name upload
            POST {{host}}/upload
            Content-Type: multipart/form-data; boundary=XyZ

            --XyZ
            Content-Disposition: form-data; name="title"

            Report
            --XyZ
            Content-Disposition: form-data; name="body"

            first line
            second line
            --XyZ--

            ###
            # @name secure
            # @no-redirect
            GET {{host}}/secure
            Authorization: Basic ann s3cret

            ###
            # @name remove
            DELETE {{host}}/items/1
            > {% client.test("deleted", () => client.assert(response.status === 200)); %}

            ###
            # @name query
            POST {{host}}/graphql
            X-Request-Type: GraphQL

            query Me($id: ID!) { user(id: $id) { name } }

            {"id": "7"}
            """])
        let dir = try folder()
        let r = try CLI.run(["import", "http", input.appendingPathComponent("api.http").path, "--to", dir.path, "--service", "rt"], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("api.http:60:1: warning: the response handler script of request 'remove' is not run"), r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("rt.yaml"), encoding: .utf8)
        XCTAssertFalse(text.contains("s3cret"), text)
        XCTAssertTrue(text.contains("followRedirects: false"), text)
        try assertSends("rt.listItems", in: dir, Meant(method: "GET", path: "/items/42", query: ["tag=a", "tag=b"],
                                                      headers: ["x-trace: abc", "accept: application/json"]))
        try assertSends("rt.createUser", in: dir, Meant(method: "POST", path: "/users", body: .json(#"{"name": "Ada", "tags": ["x", 1, true, null]}"#)))
        try assertSends("rt.login", in: dir, Meant(method: "POST", path: "/login", body: .form(["user=ann", "note=two words"])))
        try assertSends("rt.note", in: dir, Meant(method: "PUT", path: "/notes/1", headers: ["content-type: text/plain"], body: .text("line one\nline two")))
        try assertSends("rt.upload", in: dir, Meant(method: "POST", path: "/upload", body: .multipart(["title=Report", "body=first line\nsecond line"])))
        try assertSends("rt.secure", in: dir, env: ["RT_PASSWORD": "s3cret"],
                        Meant(method: "GET", path: "/secure", headers: ["authorization: Basic " + Data("ann:s3cret".utf8).base64EncodedString()]))
        try assertSends("rt.remove", in: dir, Meant(method: "DELETE", path: "/items/1"))
        try assertSends("rt.query", in: dir, Meant(method: "POST", path: "/graphql",
                                                  body: .json(#"{"query": "query Me($id: ID!) { user(id: $id) { name } }", "variables": {"id": "7"}}"#)))
    }

    /// A fetched file, sent to the echo server in place of its host: httpyac's intellij.http
    /// (forms on a URL continued on indented lines).
    func testAFetchedHttpFileArrivesAsItMeans() throws {
        let dir = try folder()
        let r = try CLI.run(["import", "http", ImportFixtures.path("http/httpyac/intellij.http"), "--to", dir.path], cwd: dir)
        XCTAssertEqual(r.code, 0, r.stderr)
        let env = ["APICLI_BASE_URL_INTELLIJ": server.url, "INTELLIJ_PASSWORD": "1"]
        let form = Meant.Body.form(["email=user@domain.loc", "password=1"])
        try assertSends("intellij.postAnything", in: dir, env: env,
                        Meant(method: "POST", path: "/anything", headers: ["accept: application/json"], body: form))
        try assertSends("intellij.postAnything3", in: dir, env: env,
                        Meant(method: "POST", path: "/anything", query: ["test=test"], headers: ["accept: application/json"], body: form))
    }

    /// The same collection as `.bru` files and as one OpenCollection file: both send the same requests,
    /// with the collection's and the folder's headers and auth inherited, as Bruno sends them.
    func testBrunoCollectionsArriveAsTheyMeanThem() throws {
        let bru = try folder([
            "c/bruno.json": #"{"version": "1", "name": "rt", "type": "collection"}"#,
            "c/collection.bru": """
                headers {
                  X-Coll: c
                  ~X-Off: no
                }

                auth {
                  mode: bearer
                }

                auth:bearer {
                  token: {{token}}
                }
                """,
            "c/environments/Local.bru": """
                vars {
                  host: \(server.url)
                  pw: hunter2
                }
                vars:secret [
                  token
                ]
                """,
            "c/users/folder.bru": "meta {\n  name: users\n}\n\nheaders {\n  X-Folder: f\n}\n",
            "c/users/get user.bru": """
                meta {
                  name: get user
                  type: http
                  seq: 1
                }

                get {
                  url: {{host}}/users/:id?expand=1
                  body: none
                  auth: inherit
                }

                params:query {
                  expand: 1
                }

                params:path {
                  id: 7
                }

                headers {
                  X-Req: r
                }

                assert {
                  res.status: eq 200
                  res.body.method: eq GET
                }
                """,
            "c/users/create user.bru": """
                meta {
                  name: create user
                  seq: 2
                }

                post {
                  url: {{host}}/users
                  body: json
                  auth: basic
                }

                auth:basic {
                  username: ann
                  password: {{pw}}
                }

                body:json {
                  {
                    "name": "Ada",
                    "n": 1
                  }
                }

                script:pre-request {
                  req.setHeader("X-Script", "1")
                }
                """,
            "c/form.bru": """
                meta {
                  name: form
                }

                post {
                  url: {{host}}/form
                  body: formUrlEncoded
                  auth: apikey
                }

                auth:apikey {
                  key: api_key
                  value: k1
                  placement: queryparams
                }

                body:form-urlencoded {
                  a: 1
                  b: two words
                  ~c: off
                }
                """,
            "c/parts.bru": """
                meta {
                  name: parts
                }

                put {
                  url: {{host}}/parts
                  body: multipartForm
                  auth: none
                }

                body:multipart-form {
                  title: Report
                  note: '''
                    line one
                    line two
                  '''
                }
                """,
        ])
        let oc = try folder(["rt.yml": """
            opencollection: "1.0.0"
            info:
              name: rt
            request:
              headers:
                - name: X-Coll
                  value: c
                - name: X-Off
                  value: "no"
                  disabled: true
              auth:
                type: bearer
                token: "{{token}}"
            config:
              environments:
                - name: Local
                  variables:
                    - name: host
                      value: \(server.url)
                    - name: pw
                      value: hunter2
                    - name: token
                      secret: true
            items:
              - info: { name: users, type: folder }
                request:
                  headers:
                    - { name: X-Folder, value: f }
                items:
                  - info: { name: get user, type: http, seq: 1 }
                    http:
                      method: GET
                      url: "{{host}}/users/:id?expand=1"
                      params:
                        - { name: expand, value: "1", type: query }
                        - { name: id, value: "7", type: path }
                      headers:
                        - { name: X-Req, value: r }
                      auth: inherit
                    runtime:
                      assertions:
                        - { expression: res.status, operator: eq, value: "200" }
                  - info: { name: create user, type: http, seq: 2 }
                    http:
                      method: POST
                      url: "{{host}}/users"
                      body:
                        type: json
                        data: '{"name": "Ada", "n": 1}'
                      auth: { type: basic, username: ann, password: "{{pw}}" }
              - info: { name: form, type: http }
                http:
                  method: POST
                  url: "{{host}}/form"
                  body:
                    type: form-urlencoded
                    data:
                      - { name: a, value: "1" }
                      - { name: b, value: two words }
                      - { name: c, value: "off", disabled: true }
                  auth: { type: apikey, key: api_key, value: k1, placement: query }
              - info: { name: parts, type: http }
                http:
                  method: PUT
                  url: "{{host}}/parts"
                  body:
                    type: multipart-form
                    data:
                      - { name: title, type: text, value: Report }
                      - { name: note, type: text, value: "line one\\nline two" }
                  auth: { type: none }
            """])
        for input in [bru.appendingPathComponent("c"), oc.appendingPathComponent("rt.yml")] {
            let dir = try folder()
            let r = try CLI.run(["import", "bruno", input.path, "--to", dir.path], cwd: dir)
            XCTAssertEqual(r.code, 0, r.stderr)
            let text = try String(contentsOf: dir.appendingPathComponent("rt.yaml"), encoding: .utf8)
            XCTAssertFalse(text.contains("hunter2") || text.contains("k1"), text)
            XCTAssertTrue(text.contains("expect: { status: 200"), text)
            let env = ["RT_TOKEN": "tok", "RT_PW": "hunter2", "RT_API_KEY": "k1"]
            let inherited = ["x-coll: c", "x-folder: f", "authorization: Bearer tok"]
            try assertSends("rt.users-getUser", in: dir, env: env,
                            Meant(method: "GET", path: "/users/7", query: ["expand=1"], headers: inherited + ["x-req: r"]))
            try assertSends("rt.users-createUser", in: dir, env: env,
                            Meant(method: "POST", path: "/users", headers: ["x-coll: c", "x-folder: f", "authorization: Basic " + Data("ann:hunter2".utf8).base64EncodedString()],
                                  body: .json(#"{"name": "Ada", "n": 1}"#)))
            try assertSends("rt.form", in: dir, env: env,
                            Meant(method: "POST", path: "/form", query: ["api_key=k1"], headers: ["x-coll: c"], body: .form(["a=1", "b=two words"])))
            try assertSends("rt.parts", in: dir, env: env,
                            Meant(method: "PUT", path: "/parts", headers: ["x-coll: c"], body: .multipart(["title=Report", "note=line one\nline two"])))
        }
    }
}
