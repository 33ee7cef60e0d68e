import Foundation
import XCTest

/// Client certificates (mTLS) against nginx with `ssl_verify_client on`: a CA, the server's and
/// the client's certificates made by the test with openssl; the right certificate is let in,
/// none or one from another CA is refused, and a bad file pair fails before anything is sent.
final class ClientCertificateTests: XCTestCase {
    nonisolated(unsafe) static var nginx: NginxServer?
    nonisolated(unsafe) static var dir: URL?
    nonisolated(unsafe) static var port = 0
    nonisolated(unsafe) static var setupError = ""

    static func sh(_ script: String, in dir: URL) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.currentDirectoryURL = dir
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if p.terminationStatus != 0 { throw NSError(domain: "sh", code: Int(p.terminationStatus), userInfo: [NSLocalizedDescriptionKey: script + ": " + text]) }
        return text
    }

    override class func setUp() {
        do {
            let folder = try CLI.folder([:])
            dir = folder
            let days = "-days 2"
            _ = try sh("""
                set -e
                openssl req -x509 -newkey rsa:2048 -nodes \(days) -subj /CN=test-ca -keyout ca.key -out ca.pem
                openssl req -x509 -newkey rsa:2048 -nodes \(days) -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1,DNS:api.test \
                  -keyout server.key -out server.pem
                openssl req -newkey rsa:2048 -nodes -subj /CN=apicli-client -keyout client.key -out client.csr
                openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial \(days) -out client.pem
                openssl req -x509 -newkey rsa:2048 -nodes \(days) -subj /CN=stranger -keyout stranger.key -out stranger.pem
                cat client.pem client.key > combined.pem
                openssl pkcs12 -export -in client.pem -inkey client.key -out client.p12 -passout pass:p12-pass-77
                openssl pkey -in client.key -aes256 -passout pass:key-pass-55 -out client-enc.key
                openssl rsa -in client.key -aes128 -traditional -passout pass:key-pass-55 -out client-trad.key 2>/dev/null
                mkdir -p tmp
                """, in: folder)
            port = try NginxServer.freePort(in: folder)
            let d = folder.path
            nginx = try NginxServer.start(in: folder, servers: """
                  server {
                    \(NginxServer.tlsListen(port, folder: folder))
                    ssl_client_certificate \(d)/ca.pem;
                    ssl_verify_client on;
                    location / { default_type text/plain; return 200 "hello $ssl_client_s_dn"; }
                    location = /proto { default_type text/plain; return 200 "$server_protocol $ssl_server_name"; }
                  }
                """,
                // Up when it answers TLS (curl without a certificate gets nginx's 400).
                ready: "for i in $(seq 100); do c=$(curl -sk -o /dev/null -w '%{http_code}' https://127.0.0.1:\(port)/ || true); "
                    + "[ \"$c\" = 400 ] && exit 0; sleep 0.1; done; cat error.log; exit 1")
            try Data("""
                baseURL: https://127.0.0.1:\(port)
                tls: { cacert: server.pem, cert: client.pem, key: client.key }
                targets:
                  hello: { path: /, validate: success }
                """.utf8).write(to: folder.appendingPathComponent("mtls.yaml"))
            try Data("""
                baseURL: https://127.0.0.1:\(port)
                tls: { cacert: server.pem }
                targets:
                  hello: { path: /, validate: success }
                """.utf8).write(to: folder.appendingPathComponent("bare.yaml"))
        } catch {
            setupError = "\(error)"
        }
    }

    override class func tearDown() { NginxServer.tearDown(nginx, folder: dir) }

    override func setUpWithError() throws { try NginxServer.check(setupError: Self.setupError, port: Self.port) }

    var dir: URL { Self.dir! }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func run(_ args: [String]) throws -> CLI.Result {
        try CLI.run(args + ["--targets", dir.path], timeout: 30)
    }

    func testTheCertificateFromTheTargetFileIsLetIn() throws {
        let r = try run(["call", "mtls.hello"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stdout, "hello CN=apicli-client")
    }

    func testCertAndKeyFlagsLikeCurlAndOneCombinedFile() throws {
        let flags = try run(["call", "bare.hello", "--cert", path("client.pem"), "--key", path("client.key")])
        XCTAssertEqual(flags.code, 0, flags.stderr)
        XCTAssertEqual(flags.stdout, "hello CN=apicli-client")
        // A PEM with the certificate and its key together, as curl takes with --cert alone
        let combined = try run(["call", "bare.hello", "--cert", path("combined.pem")])
        XCTAssertEqual(combined.code, 0, combined.stderr)
        XCTAssertEqual(combined.stdout, "hello CN=apicli-client")
        // check goes through the same path
        let check = try run(["check", "bare.hello", "--cert", path("combined.pem")])
        XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
    }

    /// Issue 24's one-path row for a client certificate: call, check, record and load all present it.
    func testEveryCommandThatSendsPresentsTheCertificate() throws {
        for command in [["call", "mtls.hello"], ["check", "mtls.hello"], ["record", "mtls.hello"],
                        ["load", "mtls.hello", "-q", "--users", "1", "--requests", "2"]] {
            let r = try run(command)
            XCTAssertEqual(r.code, 0, "\(command): \(r.stdout) \(r.stderr)")
            if command[0] == "record" {
                let saved = try String(contentsOfFile: path("mtls.yaml"), encoding: .utf8)
                XCTAssertTrue(saved.contains("hello CN=apicli-client"), saved)
            }
        }
    }

    func testNoCertificateOrAStrangersIsRefused() throws {
        let none = try run(["call", "bare.hello", "-i"])
        XCTAssertNotEqual(none.code, 0)
        XCTAssertTrue(none.stdout.hasPrefix("HTTP/2 400"), none.stdout)  // nginx offers h2
        XCTAssertTrue(none.stdout.contains("No required SSL certificate was sent"), none.stdout)
        let stranger = try run(["call", "bare.hello", "-i", "--cert", path("stranger.pem"), "--key", path("stranger.key")])
        XCTAssertNotEqual(stranger.code, 0)
        XCTAssertTrue(stranger.stdout.hasPrefix("HTTP/2 400"), stranger.stdout)
        XCTAssertTrue(stranger.stdout.contains("The SSL certificate error"), stranger.stdout)
    }

    func testABadPairIsNamedBeforeSending() throws {
        // A key of another certificate
        let mismatch = try run(["call", "bare.hello", "--cert", path("client.pem"), "--key", path("stranger.key")])
        XCTAssertEqual(mismatch.code, 2, mismatch.stderr)
        XCTAssertTrue(mismatch.stderr.contains("the private key in \(path("stranger.key")) does not match the client certificate in \(path("client.pem"))"),
                      mismatch.stderr)
        // A certificate without its key
        let keyless = try run(["call", "bare.hello", "--cert", path("client.pem")])
        XCTAssertEqual(keyless.code, 2, keyless.stderr)
        XCTAssertTrue(keyless.stderr.contains("cannot read the private key from \(path("client.pem"))"), keyless.stderr)
        // Not a certificate at all
        let garbage = try run(["call", "bare.hello", "--cert", path("nginx.conf"), "--key", path("client.key")])
        XCTAssertEqual(garbage.code, 2, garbage.stderr)
        XCTAssertTrue(garbage.stderr.contains("cannot read the client certificate from \(path("nginx.conf"))"), garbage.stderr)
        // --key alone is a usage error
        let alone = try run(["call", "bare.hello", "--key", path("client.key")])
        XCTAssertEqual(alone.code, 64, alone.stderr)
    }

    func testCurlAndShowNameTheCertificate() throws {
        let r = try run(["call", "mtls.hello", "--curl", "--dry-run"])
        XCTAssertTrue(r.stdout.contains("--cacert \(path("server.pem")) --cert \(path("client.pem")) --key \(path("client.key"))"), r.stdout)
    }

    /// `--curl` carries the TLS trust and the client certificate, from `tls:` or the flags: the
    /// printed command, run as it is by curl (no flag added), gets in as apicli does.
    func testThePrintedCurlCommandRunsAsItIs() throws {
        let cases: [([String], String)] = [
            (["call", "mtls.hello"], "--cacert"),                                              // tls: { cacert:, cert:, key: }
            (["call", "bare.hello", "--cert", path("client.pem"), "--key", path("client.key")], "--cacert"),
            (["call", "bare.hello", "--cacert", path("server.pem"), "--cert", path("combined.pem")], "--cacert"),  // the flag
            (["call", "mtls.hello", "--insecure"], " -k "),                                    // --insecure wins over cacert:
        ]
        for (args, trust) in cases {
            let curl = try run(args + ["--curl", "--dry-run"])
            XCTAssertEqual(curl.code, 0, "\(args): \(curl.stderr)")
            XCTAssertTrue(curl.stdout.contains(trust), "\(args): \(curl.stdout)")
            XCTAssertEqual(try Self.sh(curl.stdout.replacingOccurrences(of: "curl -L", with: "curl -sS -L"), in: dir),
                           "hello CN=apicli-client", "\(args): \(curl.stdout)")
        }
    }

    /// `--resolve host:port:address` (TLS still verified for the name) and `--http1.1` against this
    /// nginx, which offers HTTP/2 over TLS (ALPN).
    func testResolveConnectsElsewhereAndHTTP11IsForced() throws {
        for name in ["api.test"] {
            try Data("""
                baseURL: https://\(name):\(Self.port)
                tls: { cacert: server.pem, cert: client.pem, key: client.key }
                targets:
                  proto: { path: /proto, validate: success }
                """.utf8).write(to: dir.appendingPathComponent("\(name.prefix { $0 != "." }).yaml"))
        }
        let resolve = "api.test:\(Self.port):127.0.0.1"
        // WHEN the name is resolved to the loopback THEN the request reaches nginx, over HTTP/2 by default
        let h2 = try run(["call", "api.proto", "--resolve", resolve])
        XCTAssertEqual(h2.code, 0, h2.stderr)
        XCTAssertEqual(h2.stdout, "HTTP/2.0 api.test", "HTTP/2, and TLS asked for the name (SNI), not the address")
        // AND --http1.1 keeps to HTTP/1.1
        let h1 = try run(["call", "api.proto", "--resolve", resolve, "--http1.1"])
        XCTAssertEqual(h1.code, 0, h1.stderr)
        XCTAssertEqual(h1.stdout, "HTTP/1.1 api.test")
        // AND check goes the same way
        XCTAssertEqual(try run(["check", "api.proto", "--resolve", resolve]).code, 0)
        // AND --curl spells them as curl does, and curl itself gets the same answer
        let curl = try run(["call", "api.proto", "--resolve", resolve, "--http1.1", "--curl", "--dry-run"])
        XCTAssertTrue(curl.stdout.contains("--resolve \(resolve) --http1.1 --cacert \(path("server.pem")) --cert"), curl.stdout)
        XCTAssertEqual(try Self.sh(curl.stdout.replacingOccurrences(of: "curl -L", with: "curl -s -L"), in: dir), "HTTP/1.1 api.test")
        // AND without --resolve, or with one for another port, the name does not resolve
        XCTAssertNotEqual(try run(["call", "api.proto"]).code, 0)
        XCTAssertNotEqual(try run(["call", "api.proto", "--resolve", "api.test:1:127.0.0.1"]).code, 0)
        // AND a malformed --resolve is a usage error
        XCTAssertEqual(try run(["call", "api.proto", "--resolve", "api.test:443"]).code, 64)
    }

    /// `tls: { pkcs12:, password: }`: a bundle openssl made, its password from a variable; a wrong
    /// password is refused before anything is sent, with a clear message and the password nowhere.
    func testAPKCS12BundleWithItsPassword() throws {
        try Data("""
            baseURL: https://127.0.0.1:\(Self.port)
            tls: { cacert: server.pem, pkcs12: client.p12, password: "${P12_PASSWORD}" }
            targets:
              hello: { path: /, validate: success }
            """.utf8).write(to: dir.appendingPathComponent("p12.yaml"))
        let ok = try CLI.run(["call", "p12.hello", "--targets", dir.path], env: ["P12_PASSWORD": "p12-pass-77"])
        XCTAssertEqual(ok.code, 0, ok.stderr)
        XCTAssertEqual(ok.stdout, "hello CN=apicli-client")
        // AND --curl spells it as curl does, the password hidden
        let curl = try CLI.run(["call", "p12.hello", "--curl", "--dry-run", "--targets", dir.path], env: ["P12_PASSWORD": "p12-pass-77"])
        XCTAssertTrue(curl.stdout.contains("--cert-type P12 --cert '\(path("client.p12")):••••'"), curl.stdout)
        let wrong = try CLI.run(["call", "p12.hello", "--targets", dir.path], env: ["P12_PASSWORD": "not-the-pass"])
        XCTAssertEqual(wrong.code, 2, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("cannot open the PKCS#12 bundle"), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("the password is wrong"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("not-the-pass"), wrong.stderr)
        let unset = try CLI.run(["call", "p12.hello", "--targets", dir.path])
        XCTAssertEqual(unset.code, 2, unset.stderr)
        XCTAssertTrue(unset.stderr.contains("P12_PASSWORD"), unset.stderr)
    }

    /// `tls: { key:, keyPassword: }` and `--key-password`/`--pass`: an encrypted PEM key (PKCS#8 and
    /// the traditional Proc-Type form) that openssl made, decrypted with its password; a missing or
    /// wrong password is exit 2 naming the key file, before anything is sent.
    func testAnEncryptedPEMKeyWithItsPassword() throws {
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("client-enc.key"), encoding: .utf8).contains("BEGIN ENCRYPTED PRIVATE KEY"))
        XCTAssertTrue(try String(contentsOf: dir.appendingPathComponent("client-trad.key"), encoding: .utf8).contains("Proc-Type: 4,ENCRYPTED"))
        try Data("""
            baseURL: https://127.0.0.1:\(Self.port)
            tls: { cacert: server.pem, cert: client.pem, key: client-enc.key, keyPassword: "${KEY_PASS}" }
            targets:
              hello: { path: /, validate: success }
            """.utf8).write(to: dir.appendingPathComponent("enc.yaml"))
        defer { try? FileManager.default.removeItem(at: dir.appendingPathComponent("enc.yaml")) }
        func run(_ args: [String], _ env: [String: String] = [:]) throws -> CLI.Result {
            try CLI.run(args + ["--targets", dir.path], env: env, timeout: 30)
        }
        // WHEN the password comes from the variable THEN the key is used and nginx lets the client in
        let ok = try run(["call", "enc.hello"], ["KEY_PASS": "key-pass-55"])
        XCTAssertEqual(ok.code, 0, ok.stderr)
        XCTAssertEqual(ok.stdout, "hello CN=apicli-client")
        XCTAssertEqual(try run(["check", "enc.hello"], ["KEY_PASS": "key-pass-55"]).code, 0)
        // AND a wrong one is refused before sending, naming the file, the password nowhere
        let wrong = try run(["call", "enc.hello", "-v"], ["KEY_PASS": "not-it-99"])
        XCTAssertEqual(wrong.code, 2, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("cannot decrypt the private key in \(path("client-enc.key")): the password is wrong"), wrong.stderr)
        XCTAssertFalse(wrong.stderr.contains("not-it-99"), wrong.stderr)
        let unset = try run(["call", "enc.hello"])
        XCTAssertEqual(unset.code, 2, unset.stderr)
        XCTAssertTrue(unset.stderr.contains("KEY_PASS"), unset.stderr)
        // AND on the command line, as curl: --key-password, or --pass; the traditional form too
        for flag in ["--key-password", "--pass"] {
            let r = try run(["call", "bare.hello", "--cert", path("client.pem"), "--key", path("client-trad.key"), flag, "key-pass-55"])
            XCTAssertEqual(r.code, 0, "\(flag): \(r.stderr)")
            XCTAssertEqual(r.stdout, "hello CN=apicli-client")
        }
        // AND the flag wins over the file's password
        XCTAssertEqual(try run(["call", "enc.hello", "--key-password", "key-pass-55"], ["KEY_PASS": "not-it-99"]).code, 0)
        let none = try run(["call", "bare.hello", "--cert", path("client.pem"), "--key", path("client-enc.key")])
        XCTAssertEqual(none.code, 2, none.stderr)
        XCTAssertTrue(none.stderr.contains("the private key in \(path("client-enc.key")) is encrypted and no password was given"), none.stderr)
        // AND --curl prints curl's --pass, hidden, and curl itself gets in with the printed command
        let curl = try run(["call", "enc.hello", "--curl", "--dry-run"], ["KEY_PASS": "key-pass-55"])
        XCTAssertTrue(curl.stdout.contains("--key \(path("client-enc.key")) --pass '••••'"), curl.stdout)
        let shown = try run(["call", "enc.hello", "--curl", "--dry-run", "--show-secrets"], ["KEY_PASS": "key-pass-55"])
        XCTAssertEqual(try Self.sh(shown.stdout.replacingOccurrences(of: "curl -L", with: "curl -s -L"), in: dir), "hello CN=apicli-client")
        // AND password: (a bundle's) with a PEM key is a file error pointing at keyPassword:
        try Data("""
            baseURL: https://127.0.0.1:\(Self.port)
            tls: { cert: client.pem, key: client-enc.key, password: x }
            targets:
              hello: { path: / }
            """.utf8).write(to: dir.appendingPathComponent("enc.yaml"))
        let mixed = try run(["call", "enc.hello"])
        XCTAssertEqual(mixed.code, 2, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("enc.yaml:2:6"), mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("keyPassword:"), mixed.stderr)
    }
}
