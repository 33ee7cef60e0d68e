import AsyncHTTPClient
import NIOCore
import NIOHTTPCompression
import NIOSSL

/// The async-http-client clients of a run: one per (TLS setting, proxy), kept for the life of the
/// process, so every request with the same setting shares one connection pool (a `check` of
/// thousands of targets opens a few connections, not thousands). A client is never torn down
/// mid-run (an HTTPClient must be shut down before it is released; the process ends with `_exit`).
enum ClientPool {
    struct Key: Hashable {
        var tls: TLSOptions
        var proxy: ProxySettings.Server?
    }

    private static let clients = Locked<[Key: HTTPClient]>([:])

    /// A gzip or deflate body may inflate to this many times its size; beyond, the exchange fails
    /// (a decompression bomb would otherwise fill memory or the disk).
    static let inflationRatio = 100

    static func client(tls: TLSOptions, proxy: ProxySettings.Server?) throws(APIError) -> HTTPClient {
        let key = Key(tls: tls, proxy: proxy)
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
        // A refused connection is an answer (exit 3); the pool would retry it until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    private static func tlsConfiguration(_ tls: TLSOptions) throws(APIError) -> TLSConfiguration {
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
        return configuration
    }
}
