import Foundation
import XCTest

/// `--connect-to` and unix domain sockets (`--unix-socket`, a `unix://` base URL) against nginx:
/// a TLS port whose certificate names only `api.test`, and a unix socket.
final class ConnectionRouteTests: XCTestCase {
    nonisolated(unsafe) static var nginx: NginxServer?
    nonisolated(unsafe) static var dir: URL?
    nonisolated(unsafe) static var port = 0
    /// nginx's cleartext HTTP/2-only port (H2CPriorKnowledgeTests.swift).
    nonisolated(unsafe) static var h2cPort = 0
    nonisolated(unsafe) static var setupError = ""

    override class func setUp() {
        do {
            let folder = try CLI.folder([:])
            dir = folder
            _ = try ClientCertificateTests.sh("""
                openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=api.test -addext subjectAltName=DNS:api.test \
                  -keyout server.key -out server.pem 2>&1
                """, in: folder)
            port = try NginxServer.freePort(in: folder)
            h2cPort = try NginxServer.freePort(in: folder)
            let d = folder.path
            nginx = try NginxServer.start(in: folder, servers: """
                  server {
                    \(NginxServer.tlsListen(port, folder: folder))
                    location / { default_type text/plain; return 200 "$http_host $ssl_server_name $server_protocol"; }
                  }
                  server {
                    listen unix:\(d)/nginx.sock;
                    location / { default_type text/plain; return 200 "unix $http_host $request_method $request_uri"; }
                  }
                """ + h2cServer.replacingOccurrences(of: "PORT", with: "\(h2cPort)"),
                ready: "for i in $(seq 100); do curl -s --unix-socket nginx.sock http://x/ >/dev/null && "
                    + "curl -sk https://127.0.0.1:\(port)/ >/dev/null && curl -sf --http2-prior-knowledge http://127.0.0.1:\(h2cPort)/ >/dev/null "
                    + "&& exit 0; sleep 0.1; done; cat error.log; exit 1")
            try writeH2CTargets(in: folder, port: h2cPort)
            try Data("""
                baseURL: https://api.test:1
                tls: { cacert: server.pem }
                targets:
                  echo: { path: /echo, validate: success }
                """.utf8).write(to: folder.appendingPathComponent("api.yaml"))
            try Data("""
                baseURL: https://other.test:1
                tls: { cacert: server.pem }
                targets:
                  echo: { path: /echo, validate: success }
                """.utf8).write(to: folder.appendingPathComponent("other.yaml"))
            try Data("""
                baseURL: unix://\(d)/nginx.sock:/v1.45
                targets:
                  info: { path: /info, task: { query: { all: "1 2" } }, validate: success }
                  create: { method: POST, path: /containers/create, task: { json: { Image: alpine } }, validate: success }
                """.utf8).write(to: folder.appendingPathComponent("docker.yaml"))
            try Data("""
                baseURL: http://localhost:8080
                targets:
                  echo: { path: /echo, validate: success }
                """.utf8).write(to: folder.appendingPathComponent("plain.yaml"))
        } catch {
            setupError = "\(error)"
        }
    }

    override class func tearDown() { NginxServer.tearDown(nginx, folder: dir) }

    override func setUpWithError() throws { try NginxServer.check(setupError: Self.setupError, port: Self.port) }

    var dir: URL { Self.dir! }

    func run(_ args: [String]) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path], timeout: 30)
    }

    /// curl's `--connect-to host:port:host2:port2`: another address and port, while `Host:`, SNI and
    /// the certificate check stay the URL's.
    func testConnectToGoesElsewhereButKeepsTheNameForHostAndTLS() throws {
        let rule = "api.test:1:127.0.0.1:\(Self.port)"
        // WHEN api.test:1 is sent to the loopback's nginx port
        let r = try run(["call", "api.echo", "--connect-to", rule])
        XCTAssertEqual(r.code, 0, r.stderr)
        // THEN Host: and SNI are the URL's, and TLS verified api.test (the certificate names only it)
        XCTAssertEqual(r.stdout, "api.test:1 api.test HTTP/2.0")
        // AND empty parts: any host on port 1, to the same host name resolved by --resolve
        let any = try run(["call", "api.echo", "--connect-to", "::localhost:\(Self.port)", "--http1.1"])
        XCTAssertEqual(any.code, 0, any.stderr)
        XCTAssertEqual(any.stdout, "api.test:1 api.test HTTP/1.1")
        let chained = try run(["call", "api.echo", "--connect-to", "api.test:1::\(Self.port)", "--resolve", "api.test:\(Self.port):127.0.0.1"])
        XCTAssertEqual(chained.code, 0, chained.stderr)
        XCTAssertEqual(chained.stdout, "api.test:1 api.test HTTP/2.0")
        // AND check and record go the same way (the one send path)
        XCTAssertEqual(try run(["check", "api.echo", "--connect-to", rule]).code, 0)
        // AND a host the certificate does not name is refused even though the address is right
        let other = try run(["call", "other.echo", "--connect-to", "other.test:1:127.0.0.1:\(Self.port)"])
        XCTAssertNotEqual(other.code, 0, other.stdout)
        XCTAssertTrue(other.stderr.lowercased().contains("certificate"), other.stderr)
        // AND an entry for another port does not apply
        XCTAssertNotEqual(try run(["call", "api.echo", "--connect-to", "api.test:2:127.0.0.1:\(Self.port)"]).code, 0)
        // AND --curl spells it as curl does, and curl gets the same answer
        let curl = try run(["call", "api.echo", "--connect-to", rule, "--curl", "--dry-run"])
        XCTAssertTrue(curl.stdout.contains("--connect-to \(rule)"), curl.stdout)
        XCTAssertEqual(try ClientCertificateTests.sh(curl.stdout.replacingOccurrences(of: "curl -L", with: "curl -s --http1.1 --cacert server.pem -L"), in: dir),
                       "api.test:1 api.test HTTP/1.1")
    }

    func testBadConnectToValuesAreUsageErrors() throws {
        for bad in ["api.test:1:127.0.0.1", "api.test:0:h:1", "api.test:1:h:65536", "api.test:x:h:1", "a:1:h:1:2",
                    "[::1:1:h:1", "a b:1:h:1", "api.test:1:h:-1"] {
            let r = try run(["call", "api.echo", "--connect-to", bad])
            XCTAssertEqual(r.code, 64, "\(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--connect-to"), r.stderr)
        }
        XCTAssertTrue(try run(["call", "api.echo", "--connect-to", "api.test:99999:h:1"]).stderr.contains("1 to 65535"))
    }

    /// A `unix://` base URL (the Docker Engine API's form): the request goes over the socket,
    /// `Host:` is localhost and the base path is kept.
    func testAUnixBaseURLSendsOverTheSocket() throws {
        let r = try run(["call", "docker.info"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "unix localhost GET /v1.45/info?all=1%202")
        let post = try run(["call", "docker.create"])
        XCTAssertEqual(post.code, 0, post.stderr)
        XCTAssertEqual(post.stdout, "unix localhost POST /v1.45/containers/create")
        XCTAssertEqual(try run(["check", "docker"]).code, 0)
        // AND --curl spells it with --unix-socket, and curl gets the same answer
        let curl = try run(["call", "docker.info", "--curl", "--dry-run"])
        XCTAssertTrue(curl.stdout.contains("--unix-socket \(dir.path)/nginx.sock"), curl.stdout)
        XCTAssertTrue(curl.stdout.contains("'http://localhost/v1.45/info?all=1%202'"), curl.stdout)
        XCTAssertEqual(try ClientCertificateTests.sh(curl.stdout.replacingOccurrences(of: "curl -L", with: "curl -s -L"), in: dir),
                       "unix localhost GET /v1.45/info?all=1%202")
        // AND show names the base it sends to
        let show = try run(["show", "docker.info"])
        XCTAssertEqual(show.code, 0, show.stderr)
        XCTAssertTrue(show.stdout.contains("http://localhost/v1.45/info"), show.stdout)
        XCTAssertTrue(show.stdout.contains("socket    \(dir.path)/nginx.sock"), show.stdout)
    }

    /// `--unix-socket PATH` as curl: every request over the socket, `Host:` from the URL.
    func testUnixSocketFlag() throws {
        let sock = dir.appendingPathComponent("nginx.sock").path
        let r = try run(["call", "plain.echo", "--unix-socket", sock])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "unix localhost:8080 GET /echo")
        let curl = try run(["call", "plain.echo", "--unix-socket", sock, "--curl", "--dry-run"])
        XCTAssertTrue(curl.stdout.contains("--unix-socket \(sock)"), curl.stdout)
        // AND a socket nobody listens on is a connection failure naming it, not a crash
        let missing = try run(["call", "plain.echo", "--unix-socket", dir.appendingPathComponent("none.sock").path])
        XCTAssertEqual(missing.code, 3, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("cannot connect to localhost:8080 (unix socket \(dir.path)/none.sock)"), missing.stderr)
        // AND an empty or over-long path is a usage error
        XCTAssertEqual(try run(["call", "plain.echo", "--unix-socket", ""]).code, 64)
        XCTAssertEqual(try run(["call", "plain.echo", "--unix-socket", "/" + String(repeating: "s", count: 120)]).code, 64)
    }

    func testABadUnixBaseURLIsNamedInTheFile() throws {
        for (base, words) in [("unix://relative.sock:/v1", "no absolute socket path"),
                              ("unix:///tmp/d.sock:v1", "does not start with /")] {
            try Data("baseURL: \(base)\ntargets:\n  t: { path: /x }\n".utf8).write(to: dir.appendingPathComponent("badunix.yaml"))
            let r = try run(["call", "badunix.t"])
            XCTAssertEqual(r.code, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("badunix.yaml:1:10"), r.stderr)
            XCTAssertTrue(r.stderr.contains(words), r.stderr)
            XCTAssertTrue(r.stderr.contains("unix:///var/run/docker.sock:/v1.45"), r.stderr)
        }
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("badunix.yaml"))
    }
}
