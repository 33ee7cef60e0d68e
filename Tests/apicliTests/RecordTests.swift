import Foundation
import TestServers
import XCTest

/// `apicli record` against the local httpbin: the file edited in place, then the recorded sample
/// served by `call --stub`, `check --stub`, `mock` and judged by `check --drift`.
final class RecordTests: XCTestCase {
    static let file = """
        # httpbin, recorded. Comments, anchors and layout outside the sample stay as they are.
        service: hb
        baseURL: http://127.0.0.1:9      # the tests pass --base-url

        targets:
          # GET /json: a JSON document
          json:
            doc: "httpbin's JSON"   # a trailing comment
            path: /json
            headers: &team { X-Team: apicli }
            sample: { status: 500, body: old }   # replaced by record
            samples:
              keep: { status: 204 }

          echo:
            path: /headers
            headers:
              <<: *team
              Authorization: "Bearer ${API_TOKEN}"
            # the end of echo
          teapot:
            path: /status/418
            validate: success
          bytes:
            path: /bytes/6000
        # the end of the file

        """

    private var dir: URL!
    private var base: String!

    override func setUpWithError() throws {
        base = try CLI.httpbin()
        dir = try CLI.folder(["hb.yaml": Self.file])
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    private var text: String { (try? String(contentsOf: dir.appendingPathComponent("hb.yaml"), encoding: .utf8)) ?? "" }

    private func record(_ args: [String], env: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(["record"] + args + ["--targets", dir.path, "--base-url", base], env: env)
    }

    private func json(_ text: String) throws -> NSDictionary {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary, text)
    }

    func testRecordReplacesOnlyTheSampleLinesAndRoundTrips() throws {
        let r = try record(["hb.json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "apicli: recorded hb.json (200) as sample: in \(dir.path)/hb.yaml\n")
        let old = Self.file.components(separatedBy: "\n")
        let new = text.components(separatedBy: "\n")
        let at = try XCTUnwrap(old.firstIndex { $0.contains("sample: { status: 500") })
        XCTAssertEqual(Array(new.prefix(at)), Array(old.prefix(at)), "every line before the sample")
        let after = old.count - at - 1
        XCTAssertEqual(Array(new.suffix(after)), Array(old.suffix(after)), "every line after the sample")
        let written = new[at..<(new.count - after)].joined(separator: "\n")
        XCTAssertTrue(written.hasPrefix("    sample:\n      status: 200\n      headers:\n"), written)
        XCTAssertTrue(written.contains("\n        Content-Type: \"application/json\"\n"), written)
        XCTAssertTrue(written.contains("\n      json:\n        {\n          \"slideshow\": {\n"), written)
        XCTAssertFalse(written.contains("Date"), written)
        XCTAssertFalse(written.contains("Content-Length"), written)

        let live = try CLI.run(["call", "hb.json", "--targets", dir.path, "--base-url", base])
        let stub = try CLI.run(["call", "hb.json", "--targets", dir.path, "--stub"])
        XCTAssertEqual(stub.code, 0, stub.stderr)
        XCTAssertEqual(try json(stub.stdout), try json(live.stdout))
        XCTAssertEqual(try CLI.run(["check", "hb.json", "--targets", dir.path, "--stub"]).code, 0)
        let drift = try CLI.run(["check", "hb.json", "--drift", "--targets", dir.path, "--base-url", base])
        XCTAssertEqual(drift.code, 0, drift.stdout)

        let mock = try MockProcess(["--targets", dir.path, "hb.json"])
        defer { mock.stop() }
        let served = try Curl.run([mock.url + "/json"])
        XCTAssertEqual(served.status, 200)
        XCTAssertEqual(try json(served.body), try json(live.stdout))
    }

    func testRecordingAgainReplacesTheSampleItWrote() throws {
        XCTAssertEqual(try record(["hb.json"]).code, 0)
        let once = text
        XCTAssertEqual(try record(["hb.json"]).code, 0)
        XCTAssertEqual(text, once)
    }

    func testNamedSampleAndCredentialsNeverWritten() throws {
        let env = ["API_TOKEN": "s3cr3t-t0ken-value"]
        let r = try record(["hb.echo", "--sample", "echoed"], env: env)
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertFalse(text.contains("s3cr3t-t0ken-value"), text)
        XCTAssertTrue(text.contains("    # the end of echo\n    samples:\n      echoed:\n        status: 200\n"), text)
        // the token inside the echoed credential is written as its variable, the rest of the header kept
        XCTAssertTrue(text.contains(#""Authorization": "Bearer ${API_TOKEN:-••••}""#), text)
        XCTAssertFalse(text.contains("Set-Cookie"), text)
        XCTAssertTrue(text.contains(#""X-Team": "apicli""#), text)
        let stub = try CLI.run(["call", "hb.echo", "--targets", dir.path, "--stub", "--sample", "echoed"], env: env)
        XCTAssertEqual(stub.code, 0, stub.stderr)
        XCTAssertTrue(stub.stdout.contains("\"X-Team\":\"apicli\""), stub.stdout)
    }

    func testSecretVariablesBecomeReferences() throws {
        // GIVEN a response that echoes a secret variable's value (not a credential header)
        let path = dir.appendingPathComponent("hb.yaml")
        try Data(Self.file.replacingOccurrences(of: "path: /json", with: "path: /anything/{key}\n    params: { key: \"${API_KEY}\" }").utf8).write(to: path)
        let r = try record(["hb.json", "--mask", "$.origin"], env: ["API_KEY": "k3y-value-123"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertFalse(text.contains("k3y-value-123"), text)
        XCTAssertTrue(text.contains(#""url": "http://127.0.0.1"#) && text.contains("/anything/${API_KEY:-••••}"), text)
        XCTAssertTrue(text.contains(#""origin": "<masked>""#), text)
        XCTAssertTrue(text.contains(#"masked: ["$.origin"]"#), text)
        let stub = try CLI.run(["call", "hb.json", "--targets", dir.path, "--stub"], env: ["API_KEY": "k3y-value-123"])
        XCTAssertTrue(stub.stdout.contains("/anything/k3y-value-123"), stub.stdout)
    }

    func testRejectedResponseWritesNothingUnlessAcceptAny() throws {
        let r = try record(["hb.teapot"])
        XCTAssertEqual(r.code, 1)
        XCTAssertTrue(r.stderr.hasPrefix("apicli: hb.teapot: not recorded: status 418"), r.stderr)
        XCTAssertEqual(text, Self.file)
        XCTAssertEqual(try record(["hb.teapot", "--accept-any"]).code, 0)
        XCTAssertTrue(text.contains("  teapot:\n    path: /status/418\n    validate: success\n    sample:\n      status: 418\n"), text)
    }

    func testLargeOrBinaryBodyGoesToASideFile() throws {
        let r = try record(["hb.bytes"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(text.contains("    path: /bytes/6000\n    sample:\n      status: 200\n      headers:\n"), text)
        XCTAssertTrue(text.contains("\n        Content-Type: \"application/octet-stream\"\n"), text)
        XCTAssertTrue(text.contains("\n      file: \"samples/hb.bytes.bin\"\n# the end of the file\n"), text)
        let side = dir.appendingPathComponent("samples/hb.bytes.bin")
        XCTAssertEqual(try Data(contentsOf: side).count, 6000)
        let stub = try CLI.run(["call", "hb.bytes", "--targets", dir.path, "--stub"])
        XCTAssertEqual(stub.stdoutData, try Data(contentsOf: side))
    }

    /// Targets written in flow style, on one line and over several, beside a block one.
    static let flowFile = """
        service: fl
        baseURL: http://127.0.0.1:9
        targets:
          # posts JSON; written in flow style
          posted: { path: /anything, method: POST, task: { json: { id: 1, name: "a, b" } }, check: true, expect: { status: 200, json: { "$.json.id": 1 } } }   # one line
          spread: {
            path: /json, headers: { X-Team: apicli },
            expect: { status: 200 }
          }
          plain:
            path: /get
        # end

        """

    func testRecordIntoFlowStyleTargetsRewritesOnlyThoseTargets() throws {
        let file = dir.appendingPathComponent("fl.yaml")
        try Data(Self.flowFile.utf8).write(to: file)
        XCTAssertEqual(try record(["fl.posted"]).code, 0)
        let r = try record(["fl.spread", "--sample", "team"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("""
            service: fl
            baseURL: http://127.0.0.1:9
            targets:
              # posts JSON; written in flow style
              posted: # one line
                path: /anything
                method: POST
                task: { json: { id: 1, name: "a, b" } }
                check: true
                expect: { status: 200, json: { "$.json.id": 1 } }
                sample:
                  status: 200
                  headers:

            """), text)
        XCTAssertTrue(text.contains("        Content-Type: \"application/json\"\n      json:\n        {\n          \"args\": {},\n"), text)
        XCTAssertTrue(text.contains("""
                }
              spread:
                path: /json
                headers: { X-Team: apicli }
                expect: { status: 200 }
                samples:
                  team:
                    status: 200

            """), text)
        XCTAssertTrue(text.hasSuffix("""
                }
              plain:
                path: /get
            # end

            """), text)

        let check = try CLI.run(["check", "fl.posted", "fl.spread", "--targets", dir.path, "--stub"])
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
        let stub = try CLI.run(["call", "fl.posted", "--targets", dir.path, "--stub"])
        XCTAssertEqual(stub.code, 0, stub.stderr)
        XCTAssertEqual((try json(stub.stdout)["json"] as? NSDictionary)?["name"] as? String, "a, b", stub.stdout)
        let named = try CLI.run(["call", "fl.spread", "--targets", dir.path, "--stub", "--sample", "team"])
        XCTAssertEqual(named.code, 0, named.stderr)
        XCTAssertNotNil(try json(named.stdout)["slideshow"], named.stdout)
        let validate = try CLI.run(["validate", file.path])
        XCTAssertEqual(validate.code, 0, validate.stdout + validate.stderr)
    }

    func testAFlowTargetWithACommentInsideIsRefusedAndNothingWritten() throws {
        let file = dir.appendingPathComponent("fl.yaml")
        let commented = Self.flowFile.replacingOccurrences(of: "path: /json, headers", with: "path: /json,   # the document\n    headers")
        try Data(commented.utf8).write(to: file)
        let r = try record(["fl.spread"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("fl.yaml:7:20"), r.stderr)
        XCTAssertTrue(r.stderr.contains("record cannot rewrite spread from flow style: a comment inside its { } would be lost"), r.stderr)
        XCTAssertTrue(r.stderr.contains("move the comment above the target"), r.stderr)
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), commented)
    }

    func testANetworkFailureWritesNothing() throws {
        let r = try CLI.run(["record", "hb.json", "--targets", dir.path, "--base-url", "http://127.0.0.1:9"])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertEqual(text, Self.file)
    }
}

/// `record` keeps a JSON body's numbers as the server wrote them (no trip through Double) and its
/// keys in the order received; `call --stub` serves them back so.
final class RecordNumberTests: XCTestCase {
    func testNumbersAreRecordedAsSentAndServedBackExactly() throws {
        let server = try TestServer("shape-server.py", ["--lifetime", "60"])
        defer { server.stop() }
        let dir = try CLI.folder(["n.yaml": "service: n\nbaseURL: http://127.0.0.1:9\ntargets:\n  big:\n    path: /big\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["record", "n.big", "--targets", dir.path, "--base-url", server.url])
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOf: dir.appendingPathComponent("n.yaml"), encoding: .utf8)
        XCTAssertEqual(text, """
            service: n
            baseURL: http://127.0.0.1:9
            targets:
              big:
                path: /big
                sample:
                  status: 200
                  headers:
                    Content-Type: "application/json"
                  json:
                    {
                      "zeta": 1,
                      "id": 9007199254740993,
                      "price": 1.50,
                      "big": -12345678901234567890123,
                      "e": 1E+2
                    }

            """)
        let stub = try CLI.run(["call", "n.big", "--targets", dir.path, "--stub"])
        XCTAssertEqual(stub.code, 0, stub.stderr)
        XCTAssertTrue(stub.stdout.contains(#"{"zeta":1,"id":9007199254740993,"price":1.50,"big":-12345678901234567890123,"e":1E+2}"#),
                      stub.stdout)
    }
}
