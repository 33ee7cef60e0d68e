import Foundation
import TestServers
import XCTest

/// `task: { websocket: }` over wss:// with the same TLS options as HTTP (a certificate the test
/// makes: refused by default, trusted with `tls: { cacert: }`, accepted with --insecure), and
/// bad websocket tasks reported at their place (exit 2).
final class WebSocketTLSAndInputTests: XCTestCase {
    nonisolated(unsafe) static var server: TestServer?
    nonisolated(unsafe) static var dir: URL?
    nonisolated(unsafe) static var startError: String?

    override class func setUp() {
        guard FileManager.default.isExecutableFile(atPath: WebSocketLiveTests.python) else { return }
        do {
            let folder = try CLI.folder([:])
            dir = folder
            try TLSTests.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                                  "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", "key.pem", "-out", "cert.pem"], in: folder)
            server = try TestServer("ws-echo-server.py", ["--lifetime", "600", "--cert", folder.appendingPathComponent("cert.pem").path,
                                                          "--key", folder.appendingPathComponent("key.pem").path],
                                    python: WebSocketLiveTests.python)
        } catch {
            startError = "\(error)"
        }
    }

    override class func tearDown() {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func write(_ name: String, _ text: String) throws -> URL {
        let folder = try XCTUnwrap(Self.dir)
        let targets = folder.appendingPathComponent("targets-\(name)")
        try FileManager.default.createDirectory(at: targets, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: targets.appendingPathComponent("secure.yaml"))
        return targets
    }

    func testWssUsesTheTLSOptions() throws {
        try WebSocketLiveTests.requireVenv()
        let server = try XCTUnwrap(Self.server, Self.startError ?? "the wss server did not start")
        let folder = try XCTUnwrap(Self.dir)
        let target = """
              echo:
                path: /echo
                task: { websocket: { send: [ over tls ], expect: [ { text: over tls } ], close: { after: 1 } } }
            """
        // By name (localhost) and by address (127.0.0.1: no address goes as the TLS server name,
        // and the certificate is checked against the address, its IP subjectAltName): refused
        // untrusted, accepted with --insecure or the service's cacert.
        for (name, host) in [("plain", "localhost"), ("ip", "127.0.0.1")] {
            let plain = try write(name, "baseURL: wss://\(host):\(server.port)\ntargets:\n" + target + "\n")
            let refused = try CLI.run(["call", "secure.echo", "--targets", plain.path], cwd: folder)
            XCTAssertEqual(refused.code, 3, "\(host): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("certificate"), refused.stderr)
            let insecure = try CLI.run(["call", "secure.echo", "--targets", plain.path, "--insecure"], cwd: folder)
            XCTAssertEqual(insecure.code, 0, "\(host): \(insecure.stderr)")
            XCTAssertEqual(insecure.stdout, "over tls\n")
            // An https:// base URL is upgraded to wss://; the service's cacert is trusted.
            let pinned = try write(name + "-pinned", "baseURL: https://\(host):\(server.port)\ntls: { cacert: ../cert.pem }\ntargets:\n" + target + "\n")
            let check = try CLI.run(["check", "secure.echo", "--targets", pinned.path], cwd: folder)
            XCTAssertEqual(check.code, 0, "\(host): " + check.stdout + check.stderr)
            XCTAssertTrue(check.stdout.contains("1 passed"), check.stdout)
        }
        // AND a trusted certificate that does not name the address is refused (only DNS:localhost)
        try TLSTests.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                              "-addext", "subjectAltName=DNS:localhost", "-keyout", "named-key.pem", "-out", "named.pem"], in: folder)
        let named = try TestServer("ws-echo-server.py", ["--lifetime", "120", "--cert", folder.appendingPathComponent("named.pem").path,
                                                         "--key", folder.appendingPathComponent("named-key.pem").path],
                                   python: WebSocketLiveTests.python)
        defer { named.stop() }
        let other = try write("ip-named", "baseURL: wss://127.0.0.1:\(named.port)\ntls: { cacert: ../named.pem }\ntargets:\n" + target + "\n")
        let mismatch = try CLI.run(["call", "secure.echo", "--targets", other.path], cwd: folder)
        XCTAssertEqual(mismatch.code, 3, mismatch.stderr)
        XCTAssertTrue(mismatch.stderr.contains("the certificate is not for 127.0.0.1"), mismatch.stderr)
        let byName = try write("named", "baseURL: wss://localhost:\(named.port)\ntls: { cacert: ../named.pem }\ntargets:\n" + target + "\n")
        XCTAssertEqual(try CLI.run(["call", "secure.echo", "--targets", byName.path], cwd: folder).code, 0, "the same server by its name")
    }

    /// check --stub judges a websocket task's expect: on its messages sample, offline.
    func testCheckStubJudgesTheExpectedMessagesOnTheSample() throws {
        let dir = try CLI.folder(["targets/room.yaml": """
            baseURL: ws://127.0.0.1:9
            targets:
              ok:
                task: { websocket: { expect: [ { text: "~wel" }, { json: { "$.n": 2 } } ] } }
                sample: { messages: [ { text: welcome }, { json: { n: 2 } } ] }
              order:
                task: { websocket: { expect: [ { json: { "$.n": 2 } }, { text: welcome } ] } }
                sample: { messages: [ { text: welcome }, { json: { n: 2 } } ] }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let ok = try CLI.run(["check", "room.ok", "--stub"], cwd: dir)
        XCTAssertEqual(ok.code, 0, ok.stdout + ok.stderr)
        let order = try CLI.run(["check", "room.order", "--stub"], cwd: dir)
        XCTAssertEqual(order.code, 1, order.stdout + order.stderr)
        XCTAssertTrue(order.stdout.contains("expected message 2 (\"welcome\") was not received after message 2; got 2 messages"), order.stdout)
    }

    func testBadWebSocketTasksAreReportedAtTheirPlace() throws {
        let dir = try CLI.folder(["targets/bad.yaml": """
            baseURL: ws://127.0.0.1:9
            targets:
              post:
                method: POST
                task: { websocket: { send: [ hi ] } }
              close:
                task: { websocket: { close: { code: 1005 } } }
              send:
                task: { websocket: { send: [ { text: a, json: 1 } ], expect: [ { txt: a } ] } }
              both:
                task: { json: { a: 1 }, websocket: { send: [ hi ] } }
              zero:
                task: { websocket: { close: { after: 0 } } }
              again:
                stream: { reconnect: true }
                task: { websocket: { send: [ hi ] } }
            """, "targets/plain.yaml": """
            baseURL: ws://127.0.0.1:9
            targets:
              get: { path: /x }
            """])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["validate"], cwd: dir)
        XCTAssertEqual(r.code, 2, r.stderr)
        for expected in ["targets/bad.yaml:5:13: error: a websocket task opens with a GET, not POST",
                         "targets/bad.yaml:7:41: error: close code 1005 is reserved for the protocol",
                         "targets/bad.yaml:9:34: error: a websocket message takes one of text:, json:, binary:",
                         "targets/bad.yaml:9:70: error: unknown key 'txt' in an expected message",
                         "targets/bad.yaml:11:29: error: task has more than one body: json and websocket",
                         "targets/bad.yaml:13:42: error: close after (messages) must be a whole number from 1 to 10000, not '0'",
                         "targets/bad.yaml:15:13: error: stream: { reconnect: } resumes an event stream, not a WebSocket conversation"] {
            XCTAssertTrue(r.stderr.contains(expected), "\(expected)\n\(r.stderr)")
        }
        let plain = try CLI.run(["call", "plain.get"], cwd: dir)
        XCTAssertEqual(plain.code, 2, plain.stderr)
        XCTAssertTrue(plain.stderr.contains("plain.get goes to ws://127.0.0.1:9/x, a WebSocket URL, without task: { websocket: }"), plain.stderr)
    }
}
