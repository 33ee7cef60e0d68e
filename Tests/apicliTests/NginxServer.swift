import Foundation
import XCTest

/// An nginx the test configures: `servers` are `server { … }` blocks placed in a minimal `http`
/// block whose files (pid, logs, temp folders) all live in `folder`. Stopped with `stop()`.
struct NginxServer {
    let process: Process

    static let binary = "/usr/sbin/nginx"

    /// Skips (or fails under APICLI_REQUIRE_LIVE=1) when nginx is missing.
    static func require() throws { try CLI.require(binary, "nginx-light") }

    /// The lines of a `server` block that listens with TLS (and HTTP/2 by ALPN) on `port`, with
    /// the certificate `server.pem` and key `server.key` of `folder`.
    static func tlsListen(_ port: Int, folder: URL) -> String {
        "listen 127.0.0.1:\(port) ssl http2; ssl_certificate \(folder.path)/server.pem; ssl_certificate_key \(folder.path)/server.key;"
    }

    /// A free loopback TCP port.
    static func freePort(in folder: URL) throws -> Int {
        Int(try ClientCertificateTests.sh("python3 -c 'import socket;s=socket.socket();s.bind((\"127.0.0.1\",0));print(s.getsockname()[1])'",
                                          in: folder).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Starts nginx and runs `ready` (a shell loop that exits 0 once nginx answers) before returning.
    static func start(in folder: URL, servers: String, ready: String) throws -> NginxServer {
        let d = folder.path
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        try Data("""
            daemon off;
            worker_processes 1;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log;
            events { worker_connections 64; }
            http {
              access_log off;
              client_body_temp_path \(d)/tmp/body; proxy_temp_path \(d)/tmp/proxy; fastcgi_temp_path \(d)/tmp/fcgi;
              uwsgi_temp_path \(d)/tmp/uwsgi; scgi_temp_path \(d)/tmp/scgi;
            \(servers)
            }
            """.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["-p", d, "-c", "\(d)/nginx.conf", "-e", "\(d)/error.log"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let server = NginxServer(process: p)
        do { _ = try ClientCertificateTests.sh(ready, in: folder) } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// A test's start: nginx is installed and the class's setUp started it.
    static func check(setupError: String, port: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        try require()
        XCTAssertEqual(setupError, "", file: file, line: line)
        XCTAssertNotEqual(port, 0, file: file, line: line)
    }

    /// A class's end: nginx stopped, its folder removed.
    static func tearDown(_ server: NginxServer?, folder: URL?) {
        server?.stop()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }
}
