import Foundation
import TestServers
import XCTest

/// `import curl` sends what curl sends: each command is run by bash with the real `curl`, and
/// imported and sent with `apicli call`, both to Tests/Servers/echo-server.py, which answers with the
/// request as it arrived. Method, path, raw query, body bytes and the headers (but those each
/// client sets for itself) must be equal.
final class ImportCurlRoundTripTests: CurlEchoTestCase {
    /// What the echo server saw.
    struct Seen: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var query: String?
        var body: Data
        /// Lowercased names, values as sent, in order; without what each client sets for itself.
        var headers: [String]

        var description: String {
            "\(method) \(path) ?\(query ?? "(none)") headers \(headers) body \(String(decoding: body, as: UTF8.self).debugDescription)"
        }
    }

    /// Set by each client on its own: connection handling, identity, and curl's `Accept: */*`.
    static let ownHeaders: Set<String> = ["host", "user-agent", "accept-encoding", "connection", "content-length", "transfer-encoding"]

    private func seen(_ json: Data, file: StaticString = #filePath, line: UInt = #line) throws -> Seen {
        guard let o = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let method = o["method"] as? String, let path = o["path"] as? String,
              let headers = o["headers"] as? [[String]], let body = (o["body"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
            XCTFail("not an echo: \(String(decoding: json, as: UTF8.self).prefix(300))", file: file, line: line)
            throw CocoaError(.coderReadCorrupt)
        }
        let kept = headers.filter { !Self.ownHeaders.contains($0[0].lowercased()) && !($0[0].lowercased() == "accept" && $0[1] == "*/*") }
        return Seen(method: method, path: path, query: o["query"] as? String, body: body,
                    headers: kept.map { "\($0[0].lowercased()): \($0[1])" }.sorted())
    }

    /// `command` (with URL for the echo server's address) sent by curl and by the imported target.
    private func roundTrip(_ command: String, files: [String: String] = [:], brackets: Bool = false,
                           file: StaticString = #filePath, line: UInt = #line) throws -> (curl: Seen, apicli: Seen, warnings: String) {
        let dir = try folder(files)
        let full = command.replacing("URL", with: server.url)
        // bash, for `$'…'` and quoting exactly as a user's shell reads them
        let bash = try shell("\(full) -s", cwd: dir, env: ["NO_PROXY": "127.0.0.1"], program: "/bin/bash")
        XCTAssertEqual(bash.code, 0, "curl: \(bash.stderr)", file: file, line: line)
        let imported = try CLI.run(["import", "curl", "--service", "rt", "--name", "t", full], cwd: dir)
        XCTAssertEqual(imported.code, 0, "import: \(imported.stderr)", file: file, line: line)
        try imported.stdoutData.write(to: dir.appendingPathComponent("rt.yaml"))
        let call = try CLI.run(["call", "rt.t", "--targets", dir.path], env: ["NO_PROXY": "127.0.0.1"], cwd: dir)
        XCTAssertEqual(call.code, 0, "call: \(call.stderr)\n\(imported.stdout)", file: file, line: line)
        var ours = try seen(call.stdoutData, file: file, line: line)
        let theirs = try seen(Data(bash.stdout.utf8), file: file, line: line)
        if brackets {
            // The one documented difference: a URL cannot carry `[` `]` in its query, so apicli sends %5B %5D.
            ours.query = ours.query?.replacing("%5B", with: "[").replacing("%5D", with: "]")
        }
        XCTAssertEqual(ours, theirs, "\(command)\nimported as:\n\(imported.stdout)", file: file, line: line)
        let v = try CLI.run(["validate", "rt.yaml"], cwd: dir)
        XCTAssertEqual(v.code, 0, v.stderr, file: file, line: line)
        return (theirs, ours, imported.stderr)
    }

    func testANSICQuotedBodies() throws {
        // Chrome's "Copy as cURL" writes every non-ASCII character as \uXXXX
        let r = try roundTrip(#"curl URL/notes -H 'content-type: text/plain' --data-raw $'It\u2019s caf\u00e9\n\ttab \x41\101 \U0001F600 \cA\e'"#)
        XCTAssertEqual(String(decoding: r.curl.body, as: UTF8.self), "It’s café\n\ttab AA 😀 \u{1}\u{1B}")
        _ = try roundTrip(#"curl $'URL/p?q=\x41%20x' -X PUT -H $'X-Note: it\'s \u00e9'"#)
        // curl puts the UTF-8 bytes of é in the request line; a URL cannot: apicli sends %C3%A9, and says so
        let dir = try folder()
        let accent = try CLI.run(["import", "curl", #"curl $'http://127.0.0.1:9/p?q=caf\u00e9'"#], cwd: dir)
        XCTAssertTrue(accent.stderr.contains("curl sends them so, apicli as q=caf%C3%A9"), accent.stderr)
    }

    func testQueriesAsWritten() throws {
        for command in [
            "curl 'URL/s?arr%5B%5D=1&arr%5B%5D=2&b=x'",  // brackets, encoded as a browser sends them
            "curl 'URL/s?flag&a=1&empty='",                // a valueless flag stays valueless
            "curl 'URL/s?z=1&a=2&m=%2F+x&a=3'",            // order, '+', %2F and a repeated key kept
            "curl 'URL/s?a=1&b=2'",                        // what apicli writes as a mapping
            "curl -G 'URL/s?x=1' --data-urlencode 'q=a b&c' -d 'raw=%41'",
        ] {
            _ = try roundTrip(command)
        }
        let g = try roundTrip("curl -g 'URL/s?arr[]=1&arr[]=2'", brackets: true)
        XCTAssertEqual(g.curl.query, "arr[]=1&arr[]=2")
        XCTAssertTrue(g.warnings.contains("apicli as arr%5B%5D=1&arr%5B%5D=2"), g.warnings)
    }

    func testFormBodiesAreSentByteForByte() throws {
        for command in [
            "curl URL/f --data-raw 'b=two+words&c=%2F&a=1'",
            "curl URL/f -H 'Content-Type: application/x-www-form-urlencoded' -d 'b=1&a=2'",
            "curl URL/f -d a=1 -d 'b=x y' -X PATCH",
            "curl URL/f -d ''",
        ] {
            _ = try roundTrip(command)
        }
    }

    func testDataURLEncodeAndFiles() throws {
        let files = ["note.txt": "a b&c=ü\n", "lines.txt": "a=1\nb=2\r\n", "one.txt": "x=1&y=2"]
        let r = try roundTrip("curl URL/u --data-urlencode 'q=a b&c' --data-urlencode '=ü x' --data-urlencode 'f@note.txt' "
                              + "--data-urlencode '@note.txt' --data-urlencode 'plain text'", files: files)
        XCTAssertEqual(String(decoding: r.curl.body, as: UTF8.self),
                       "q=a+b%26c&%C3%BC+x&f=a+b%26c%3D%C3%BC%0A&a+b%26c%3D%C3%BC%0A&plain+text")
        XCTAssertTrue(r.warnings.contains("note.txt (--data-urlencode) is written into the target"), r.warnings)
        let lines = try roundTrip("curl URL/d -d @lines.txt", files: files)
        XCTAssertEqual(String(decoding: lines.curl.body, as: UTF8.self), "a=1b=2")
        _ = try roundTrip("curl URL/d --data-binary @lines.txt", files: files)
        _ = try roundTrip("curl URL/d -d @one.txt -H 'Content-Type: text/csv'", files: files)
        _ = try roundTrip("curl URL/d -d @one.txt -d z=9", files: files)
    }

    func testJSONBodies() throws {
        _ = try roundTrip(#"curl URL/j -H 'Content-Type: application/json' --data-raw '{"a":1,"b":[true,null,"x"]}'"#)
        _ = try roundTrip(#"curl URL/j -H 'Content-Type: application/json' --data-raw '{"a": 1.50, "b": "\u00e9"}'"#)
        _ = try roundTrip(#"curl URL/j --json '{"a":1}'"#)
        let plain = try roundTrip(#"curl URL/j -d '{"a":1}'"#)
        XCTAssertTrue(plain.warnings.contains("curl sends it as application/x-www-form-urlencoded"), plain.warnings)
    }

    /// Data curl reads from standard input when it runs, or from a file that is not there: exit 2,
    /// saying what and how to fix it, and nothing printed as a target.
    func testStandardInputAndMissingFilesAreErrors() throws {
        let dir = try folder()
        for (command, message) in [
            ("curl http://127.0.0.1:9/x -d @-", "error: curl -d @- reads the body from standard input when curl runs"),
            ("curl http://127.0.0.1:9/x --data-binary @-", "error: curl --data-binary @- reads the body from standard input"),
            ("curl http://127.0.0.1:9/x --data-urlencode name@-", "error: curl --data-urlencode name@- reads the body from standard input"),
            ("curl http://127.0.0.1:9/x -d @missing.txt", "error: cannot read \(dir.path)/missing.txt, which the curl command sends as its data: no such file"),
        ] {
            let r = try CLI.run(["import", "curl", command], cwd: dir)
            XCTAssertEqual(r.code, 2, command)
            XCTAssertTrue(r.stderr.hasPrefix(message), "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("hint: "), r.stderr)
            XCTAssertEqual(r.stdout, "")
        }
    }
}
