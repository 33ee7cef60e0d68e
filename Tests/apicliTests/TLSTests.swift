import Foundation
import TestServers
import XCTest

/// Certificate trust against a local HTTPS server whose certificate the test makes (openssl):
/// rejected by default, trusted with --cacert or `tls: { cacert: }`, accepted with --insecure.
final class TLSTests: XCTestCase {
    nonisolated(unsafe) static var server: TestServer?
    static var port: Int { server?.port ?? 0 }
    nonisolated(unsafe) static var dir: URL?

    /// openssl, run in `dir`.
    static func openssl(_ args: [String], in dir: URL) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["openssl"] + args
        p.currentDirectoryURL = dir
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        if p.terminationStatus != 0 { throw CocoaError(.fileWriteUnknown) }
    }

    override class func setUp() {
        do {
            let folder = try CLI.folder([:])
            dir = folder
            let cert = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1"]
            try openssl(cert + ["-keyout", "key.pem", "-out", "cert.pem"], in: folder)
            try openssl(cert + ["-keyout", "other-key.pem", "-out", "other.pem"], in: folder)
            server = try TestServer("faultserver.py", ["--lifetime", "300",
                                                       "--certfile", folder.appendingPathComponent("cert.pem").path,
                                                       "--keyfile", folder.appendingPathComponent("key.pem").path])
            try Data("""
                baseURL: https://127.0.0.1:\(port)
                targets:
                  ok: { path: /ok }
                  stall: { path: /stall-headers }
                """.utf8).write(to: folder.appendingPathComponent("plain.yaml"))
            try Data("""
                baseURL: https://127.0.0.1:\(port)
                tls: { cacert: cert.pem }
                targets:
                  ok: { path: /ok }
                """.utf8).write(to: folder.appendingPathComponent("pinned.yaml"))
        } catch {
        }
    }

    override class func tearDown() {
        server?.stop()
        if let dir { try? FileManager.default.removeItem(at: dir) }
    }

    var dir: URL { Self.dir! }
    var host: String { "127.0.0.1:\(Self.port)" }

    func call(_ target: String, _ extra: [String] = []) throws -> CLI.Result {
        XCTAssertNotEqual(Self.port, 0, "the HTTPS test server did not start")
        return try CLI.run(["call", target, "--targets", dir.path] + extra, timeout: 30)
    }

    func testSelfSignedServerIsRejectedByDefault() throws {
        let r = try call("plain.ok")
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: plain.ok: network error: TLS handshake with \(host) failed: certificate verify failed "
            + "(an unknown or self-signed issuer, or a name mismatch); "
            + "trust its CA with --cacert FILE, or skip verification with --insecure\n")
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, r.stderr)
    }

    func testCACertOnTheCommandLineIsTrusted() throws {
        let r = try call("plain.ok", ["--cacert", dir.appendingPathComponent("cert.pem").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "ok")
        XCTAssertEqual(r.stderr, "")
    }

    func testCACertInTheServiceFileIsTrusted() throws {
        let r = try call("pinned.ok")
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "ok")
    }

    func testAnotherCertificateDoesNotMakeItTrusted() throws {
        let r = try call("plain.ok", ["--cacert", dir.appendingPathComponent("other.pem").path])
        XCTAssertEqual(r.code, 3)
        XCTAssertEqual(r.stderr, "apicli: plain.ok: network error: TLS handshake with \(host) failed: certificate verify failed "
            + "(an unknown or self-signed issuer, or a name mismatch); trust its CA with --cacert FILE, or skip verification with --insecure\n")
    }

    func testInsecureAcceptsAnyCertificateWithAWarning() throws {
        let r = try call("plain.ok", ["--insecure", "-i"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("HTTP/1.1 200 OK\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("\n\nok"), r.stdout)
        XCTAssertEqual(r.stderr, "apicli: warning: TLS certificate verification is off for plain.ok\n")
    }

    func testCheckWarnsForTargetsSentOnlyAsNeedsToo() throws {
        // GIVEN a service that turns verification off, whose login is not checked itself (check:
        // false) but is needed by a target that is
        try Data("""
            baseURL: https://127.0.0.1:\(Self.port)
            tls: { verify: false }
            targets:
              login: { path: /ok, check: false }
              me: { path: /ok, needs: login }
            """.utf8).write(to: dir.appendingPathComponent("lax.yaml"))
        // WHEN it is checked
        let r = try CLI.run(["check", "lax", "--targets", dir.path], timeout: 30)
        // THEN both requests are sent without verification, and the one warning counts both
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stderr, "apicli: warning: TLS certificate verification is off for lax.me and 1 more\n")
        // AND with --stub nothing is sent, so nothing is warned about
        XCTAssertEqual(try CLI.run(["check", "lax", "--stub", "--targets", dir.path]).stderr, "")
    }

    func testUnreadableCACertIsAUsageError() throws {
        let r = try call("plain.ok", ["--cacert", dir.appendingPathComponent("missing.pem").path])
        XCTAssertEqual(r.code, 64)
        XCTAssertTrue(r.stderr.contains("--cacert: cannot read '\(dir.appendingPathComponent("missing.pem").path)'"), r.stderr)
    }

    func testTimeoutAndRefusalBehaveAsWithURLSession() throws {
        let refused = try call("plain.ok", ["--insecure", "--base-url", "https://127.0.0.1:9"])
        XCTAssertEqual(refused.code, 3)
        XCTAssertTrue(refused.stderr.hasSuffix("apicli: plain.ok: network error: cannot connect to 127.0.0.1:9 (connection refused)\n"),
                      refused.stderr)
        let stalled = try CLI.run(["call", "plain.stall", "--targets", dir.path, "--insecure", "--timeout", "1"], timeout: 20)
        XCTAssertEqual(stalled.code, 4)
        XCTAssertTrue(stalled.stderr.hasSuffix("apicli: plain.stall: timed out after 1 s\n"), stalled.stderr)
    }
}
