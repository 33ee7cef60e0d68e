import Foundation
import TestServers
import XCTest

/// TLS failures and timeouts in plain words, golden: what went wrong and what to do, never the
/// TLS library's type names, which `-v` shows on a line of their own. Loopback servers only:
/// Tests/Servers/faultserver.py over TLS with a certificate for another name, and with `--raw` (a port
/// that closes at once, a port that speaks plain HTTP).
final class TLSWordsTests: XCTestCase {
    nonisolated(unsafe) static var servers: [String: TestServer] = [:]
    nonisolated(unsafe) static var dir: URL?

    override class func setUp() {
        do {
            let folder = try CLI.folder([:])
            dir = folder
            // a certificate for apicli.test only: asked for as 127.0.0.1, the name does not match
            try TLSTests.openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=apicli.test",
                                  "-addext", "subjectAltName=DNS:apicli.test", "-keyout", "key.pem", "-out", "cert.pem"], in: folder)
            servers["named"] = try TestServer("faultserver.py", ["--lifetime", "300",
                                                                 "--certfile", folder.appendingPathComponent("cert.pem").path,
                                                                 "--keyfile", folder.appendingPathComponent("key.pem").path])
            servers["close"] = try TestServer("faultserver.py", ["--lifetime", "300", "--raw", "close"])
            servers["http"] = try TestServer("faultserver.py", ["--lifetime", "300", "--raw", "http"])
            servers["silent"] = try TestServer("faultserver.py", ["--lifetime", "300"])
            try Data("""
                baseURL: https://127.0.0.1:9
                targets:
                  ok: { path: /ok }
                """.utf8).write(to: folder.appendingPathComponent("tls.yaml"))
        } catch {
        }
    }

    override class func tearDown() {
        for server in servers.values { server.stop() }
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    private func call(_ server: String, _ extra: [String] = []) throws -> (CLI.Result, String) {
        let port = try XCTUnwrap(Self.servers[server]?.port, "the \(server) test server did not start")
        let dir = try XCTUnwrap(Self.dir)
        let r = try CLI.run(["call", "tls.ok", "--targets", dir.path, "--base-url", "https://127.0.0.1:\(port)"] + extra,
                            timeout: 30)
        return (r, "127.0.0.1:\(port)")
    }

    /// No type name of NIO, NIOSSL, BoringSSL or async-http-client.
    private func assertPlain(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for name in ["NIO", "SSLError", "BoringSSL", "HTTPClientError", "handshakeFailed", "uncleanShutdown", "ChannelError"] {
            XCTAssertFalse(text.contains(name), "'\(name)' in: \(text)", file: file, line: line)
        }
    }

    func testACertificateForAnotherNameSaysSo() throws {
        let dir = try XCTUnwrap(Self.dir)
        let (r, host) = try call("named", ["--cacert", dir.appendingPathComponent("cert.pem").path])
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: tls.ok: network error: TLS handshake with \(host) failed: the certificate is not for "
                       + "127.0.0.1; call it by a name the certificate gives, or skip verification with --insecure\n")
    }

    func testAPortThatClosesDuringTheHandshakeSaysSo() throws {
        let (r, host) = try call("close")
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: tls.ok: network error: TLS handshake with \(host) failed: "
                       + "the server closed the connection during the handshake\n")
    }

    func testAPortThatSpeaksPlainHTTPSaysSo() throws {
        let (r, host) = try call("http")
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: tls.ok: network error: TLS handshake with \(host) failed: "
                       + "the server does not speak TLS on this port\n")
    }

    func testAHandshakeThatNeverCompletesTimesOut() throws {
        let (r, _) = try call("silent", ["--timeout", "1"])
        XCTAssertEqual(r.code, 4)
        XCTAssertEqual(r.stderr, "apicli: tls.ok: timed out after 1 s\n")
    }

    func testVerboseShowsTheLibrarysOwnErrorOnALineOfItsOwn() throws {
        let (plain, _) = try call("close")
        assertPlain(plain.stderr)
        let (r, host) = try call("close", ["-v"])
        XCTAssertEqual(r.code, 3)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let detail = try XCTUnwrap(lines.first { $0.hasPrefix("* tls: ") }, r.stderr)
        XCTAssertTrue(detail.contains("uncleanShutdown") || detail.contains("NIOSSL"), detail)
        XCTAssertEqual(lines.last, "apicli: tls.ok: network error: TLS handshake with \(host) failed: "
                       + "the server closed the connection during the handshake")
    }
}
