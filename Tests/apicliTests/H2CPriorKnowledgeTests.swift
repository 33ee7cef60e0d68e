import Foundation
import XCTest

/// `http2: prior-knowledge` and `--http2-prior-knowledge` (h2c) against the class's nginx, whose
/// `http2` cleartext port speaks nothing but HTTP/2: nginx's `$server_protocol` proves the protocol.
extension ConnectionRouteTests {
    /// The h2c server block and target files, for the class's setUp.
    static let h2cServer = """
              server {
                listen 127.0.0.1:PORT http2;
                location / { default_type text/plain; return 200 "$server_protocol $http_host $request_method $request_uri $http_content_length"; }
                location = /redir { return 302 /after; }
                location = /cookie { add_header Set-Cookie "sid=h2c-7; Path=/"; return 200 "set"; }
                location = /echo-cookie { default_type text/plain; return 200 "$http_cookie"; }
                location = /missing { return 404; }
              }
        """

    static func writeH2CTargets(in folder: URL, port: Int) throws {
        try Data(String(repeating: "0123456789", count: 5000).utf8).write(to: folder.appendingPathComponent("body.bin"))
        try Data("""
            baseURL: http://127.0.0.1:\(port)
            http2: prior-knowledge
            targets:
              get: { path: /items, task: { query: { a: "1 2" } }, expect: { status: 200, body: { contains: "HTTP/2.0" } } }
              redir: { path: /redir, expect: { status: 200, body: { contains: "/after" } } }
              upload: { path: /up, method: PUT, task: { upload: body.bin } }
              post: { path: /p, method: POST, task: { json: { a: 1 } } }
              cookie: { path: /cookie }
              echoCookie: { path: /echo-cookie }
              missing: { path: /missing, validate: success }
            """.utf8).write(to: folder.appendingPathComponent("h2c.yaml"))
        try Data("""
            baseURL: http://127.0.0.1:\(port)
            targets:
              get: { path: /items, expect: { status: 200, body: { contains: "HTTP/2.0" } } }
            """.utf8).write(to: folder.appendingPathComponent("h2plain.yaml"))
    }

    func testPriorKnowledgeSpeaksHTTP2OverCleartext() throws {
        let host = "127.0.0.1:\(Self.h2cPort)"
        let r = try run(["call", "h2c.get", "-i"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("HTTP/2 200"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("HTTP/2.0 \(host) GET /items?a=1%202 "), r.stdout)
        // AND a redirect is followed, bodies (held and streamed from a file) are sent whole
        XCTAssertEqual(try run(["call", "h2c.redir"]).stdout, "HTTP/2.0 \(host) GET /after ")
        XCTAssertEqual(try run(["call", "h2c.upload"]).stdout, "HTTP/2.0 \(host) PUT /up 50000")
        XCTAssertEqual(try run(["call", "h2c.post"]).stdout, "HTTP/2.0 \(host) POST /p 7")
        // AND a status validate: rejects is named as over HTTP/1.1 (the status line is "HTTP/2 404 Not Found";
        // cutting "HTTP/1.1 " off it read "4 Not Found")
        let missing = try run(["call", "h2c.missing"])
        XCTAssertEqual(missing.code, 1)
        XCTAssertEqual(missing.stderr, "apicli: h2c.missing: rejected: status 404 Not Found is not accepted by validate: success (200-299)\n")
        // AND -o saves the body
        let out = dir.appendingPathComponent("out.txt")
        XCTAssertEqual(try run(["call", "h2c.get", "-o", out.path]).code, 0)
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), "HTTP/2.0 \(host) GET /items?a=1%202 ")
        // AND cookies go through the run's jar (a flow in one process: check of both)
        let jar = dir.appendingPathComponent("jar.txt").path
        XCTAssertEqual(try run(["call", "h2c.cookie", "--cookie-jar", jar]).code, 0)
        XCTAssertEqual(try run(["call", "h2c.echoCookie", "--cookie-jar", jar]).stdout, "sid=h2c-7")
        // AND --curl prints curl's flag, and curl gets the same answer
        let curl = try run(["call", "h2c.get", "--curl", "--dry-run"])
        XCTAssertTrue(curl.stdout.contains("--http2-prior-knowledge"), curl.stdout)
        XCTAssertEqual(try ClientCertificateTests.sh(curl.stdout.replacingOccurrences(of: "curl -L", with: "curl -s -L"), in: dir),
                       "HTTP/2.0 \(host) GET /items?a=1%202 ")
    }

    /// Without prior knowledge the client speaks HTTP/1.1, which this port does not answer; the
    /// flag turns it on for one run, and every command that sends goes the same way.
    func testTheFlagAndEveryCommandThatSends() throws {
        XCTAssertNotEqual(try run(["call", "h2plain.get"]).code, 0, "the server speaks HTTP/2 only")
        for command in [["call", "h2plain.get"], ["check", "h2plain.get"], ["record", "h2plain.get"],
                        ["load", "h2plain.get", "-q", "--users", "1", "--requests", "2"]] {
            let r = try run(command + ["--http2-prior-knowledge"])
            XCTAssertEqual(r.code, 0, "\(command): \(r.stdout) \(r.stderr)")
        }
        for command in [["check", "h2c.get", "h2c.redir"], ["load", "h2c.get", "-q", "--users", "1", "--requests", "3"]] {
            let r = try run(command)
            XCTAssertEqual(r.code, 0, "\(command): \(r.stdout) \(r.stderr)")
        }
        // AND a refused connection is exit 3, as on every transport
        try Data("baseURL: http://127.0.0.1:1\nhttp2: prior-knowledge\ntargets:\n  x: { path: /x }\n".utf8)
            .write(to: dir.appendingPathComponent("dead.yaml"))
        defer { try? FileManager.default.removeItem(at: dir.appendingPathComponent("dead.yaml")) }
        let dead = try run(["call", "dead.x"])
        XCTAssertEqual(dead.code, 3, dead.stderr)
        XCTAssertTrue(dead.stderr.contains("connection refused"), dead.stderr)
    }

    func testAnotherHttp2ValueIsExit2() throws {
        try Data("baseURL: http://127.0.0.1:1\nhttp2: upgrade\ntargets:\n  x: { path: /x }\n".utf8)
            .write(to: dir.appendingPathComponent("bad.yaml"))
        defer { try? FileManager.default.removeItem(at: dir.appendingPathComponent("bad.yaml")) }
        let r = try run(["call", "bad.x"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.yaml:2:8: error: http2 takes prior-knowledge, got 'upgrade'"), r.stderr)
    }
}
