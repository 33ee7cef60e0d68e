import APISupport
import APIDiagnostics
import APITargets
import APIEndpoint
import APITransport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AsyncHTTPClient
import NIOCore
import NIOHTTPCompression
import NIOSSL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The async-http-client clients of a run: one per (TLS setting, proxy), kept for the life of the
/// process, so every request with the same setting shares one connection pool (a `check` of
/// thousands of targets opens a few connections, not thousands). A client is never torn down
/// mid-run (an HTTPClient must be shut down before it is released; the process ends with `_exit`).
enum ClientPool {
    struct Key: Hashable {
        var tls: TLSOptions
        var proxy: ProxySettings.Server?
        /// `--resolve`/`--connect-to` host overrides for the request's host and port.
        var dns: [String: String] = [:]
        var http1Only = false
        var connectionsPerHost = 8
    }

    private static let clients = Locked<[Key: HTTPClient]>([:])

    /// A gzip or deflate body may inflate to this many times its size; beyond, the exchange fails
    /// (a decompression bomb would otherwise fill memory or the disk).
    static let inflationRatio = 100

    /// The client for requests with `tls` that leave as `hop` says (its proxy, its `--resolve`/`--connect-to` names, its limits).
    static func client(tls: TLSOptions, hop: Hop) throws(APIError) -> HTTPClient {
        let key = Key(tls: tls, proxy: hop.proxy, dns: hop.route.dns, http1Only: hop.http1Only, connectionsPerHost: hop.connectionsPerHost)
        let result = clients.withLock { clients -> Result<HTTPClient, APIError> in
            if let client = clients[key] { return .success(client) }
            return Result { () throws(APIError) in
                let client = try make(key)
                clients[key] = client
                return client
            }
        }
        return try result.get()
    }

    private static func make(_ key: Key) throws(APIError) -> HTTPClient {
        var configuration = HTTPClient.Configuration(tlsConfiguration: try tlsConfiguration(key.tls),
                                                     redirectConfiguration: .disallow,
                                                     decompression: .enabled(limit: .ratio(inflationRatio)))
        if let proxy = key.proxy {
            configuration.proxy = .server(host: proxy.host, port: proxy.port,
                                          authorization: proxy.credentials.map { credentials in
                                              let parts = credentials.split(separator: ":", maxSplits: 1).map(String.init)
                                              return .basic(username: parts[0], password: parts.count > 1 ? parts[1] : "")
                                          })
        }
        configuration.dnsOverride = key.dns
        if key.http1Only { configuration.httpVersion = .http1Only }
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = key.connectionsPerHost
        // A refused connection is an answer (exit 3); the pool would retry it until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // No tracer: with the default (no-op) one async-http-client still builds each request's span
        // and its attributes (3-4% of a load run's CPU, perf).
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Also the WebSocket client's (one reading of the TLS options).
    static func tlsConfiguration(_ tls: TLSOptions) throws(APIError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile = tls.caFile {
            do {
                configuration.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMFile(caFile))]
            } catch {
                throw .invalid(Diagnostic(file: nil, mark: nil, message: "cannot read CA certificates from \(caFile): \(error)",
                                          hint: "pass a PEM file with one or more certificates"))
            }
        }
        if !tls.verify { configuration.certificateVerification = .none }
        if let bundle = tls.pkcs12File {
            let (chain, key) = try pkcs12Identity(bundle, password: tls.password ?? "")
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(key)
        }
        if let certFile = tls.certFile {
            let (chain, key) = try clientIdentity(certFile, keyFile: tls.keyFile, password: tls.password)
            configuration.certificateChain = chain.map { .certificate($0) }
            configuration.privateKey = .privateKey(key)
        }
        return configuration
    }

    /// The client certificate, its chain and key from a PKCS#12 bundle, in date.
    private static func pkcs12Identity(_ file: String, password: String) throws(APIError) -> ([NIOSSLCertificate], NIOSSLPrivateKey) {
        let bundle: NIOSSLPKCS12Bundle
        do { bundle = try NIOSSLPKCS12Bundle(file: file, passphrase: Array(password.utf8)) } catch {
            throw .invalid(Diagnostic(file: nil, mark: nil,
                                      message: "cannot open the PKCS#12 bundle \(file): the password is wrong or it is not a PKCS#12 file (\(error))",
                                      hint: "give its password with tls: { password: \"${P12_PASSWORD}\" }"))
        }
        guard let leaf = bundle.certificateChain.first else {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "no certificate in the PKCS#12 bundle \(file)",
                                      hint: "export it with its certificate: openssl pkcs12 -export -in cert.pem -inkey key.pem"))
        }
        let now = time(nil)
        if leaf.notValidAfter < now || leaf.notValidBefore > now {
            throw .invalid(Diagnostic(file: nil, mark: nil, message: "the client certificate in \(file) is expired or not valid yet",
                                      hint: "renew it; the server would refuse it"))
        }
        return (bundle.certificateChain, bundle.privateKey)
    }

    /// The client certificate (mTLS) and its key, checked before any connection: each file
    /// readable as PEM, the certificate in date, the key the certificate's.
    private static func clientIdentity(_ certFile: String, keyFile: String?, password: String?) throws(APIError) -> ([NIOSSLCertificate], NIOSSLPrivateKey) {
        func fail(_ message: String, _ hint: String) -> APIError {
            .invalid(Diagnostic(file: nil, mark: nil, message: message, hint: hint))
        }
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(certFile) } catch {
            throw fail("cannot read the client certificate from \(certFile): \(error)",
                       "pass a PEM file that starts with -----BEGIN CERTIFICATE----- (--cert, tls: { cert: })")
        }
        guard let leaf = chain.first else {
            throw fail("no certificate in \(certFile)", "pass a PEM file that starts with -----BEGIN CERTIFICATE-----")
        }
        let keyPath = keyFile ?? certFile
        let key = try privateKey(keyPath, password: password, separate: keyFile != nil)
        let now = time(nil)
        if leaf.notValidAfter < now {
            throw fail("the client certificate in \(certFile) expired", "renew it; the server would refuse it")
        }
        if leaf.notValidBefore > now {
            throw fail("the client certificate in \(certFile) is not valid yet", "check its notBefore date and the clock")
        }
        // BoringSSL checks the pair when a context takes them: a key of another certificate fails here.
        var probe = TLSConfiguration.makeClientConfiguration()
        probe.certificateChain = chain.map { .certificate($0) }
        probe.privateKey = .privateKey(key)
        do { _ = try NIOSSLContext(configuration: probe) } catch {
            throw fail("the private key in \(keyPath) does not match the client certificate in \(certFile) (\(error))",
                       "pass the key the certificate was issued for")
        }
        return (chain, key)
    }

    /// A PEM private key, decrypted with `password` when it is encrypted (PKCS#8 or the
    /// traditional `Proc-Type: 4,ENCRYPTED` form); a missing or wrong password names the file.
    private static func privateKey(_ path: String, password: String?, separate: Bool) throws(APIError) -> NIOSSLPrivateKey {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let encrypted = text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")
        // Never a prompt on the terminal: the password given, or an empty one that fails.
        let passphrase = Array((password ?? "").utf8)
        do {
            return try NIOSSLPrivateKey(file: path, format: .pem) { (give: (Array<UInt8>) -> Void) in give(passphrase) }
        } catch {
            let message: String, hint: String
            switch (encrypted, password) {
            case (true, nil):
                (message, hint) = ("the private key in \(path) is encrypted and no password was given",
                                   "give its password with tls: { keyPassword: \"${KEY_PASS}\" } or --key-password")
            case (true, _?):
                (message, hint) = ("cannot decrypt the private key in \(path): the password is wrong",
                                   "give the password the key was encrypted with (tls: { keyPassword: }, --key-password)")
            default:
                (message, hint) = ("cannot read the private key from \(path): \(error)",
                                   separate ? "pass a PEM private key (-----BEGIN PRIVATE KEY-----, or an encrypted one with its password)"
                                            : "pass the key with --key FILE (tls: { key: })")
            }
            throw .invalid(Diagnostic(file: nil, mark: nil, message: message, hint: hint))
        }
    }
}
