import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// Live requests through async-http-client (SwiftNIO, BoringSSL), for what URLSession on Linux
/// cannot do: trust an extra CA file or skip verification. Behaviour and errors match
/// `URLSessionTransport`: redirects followed (at most 10, no cycles), gzip/deflate decoded,
/// a deadline for the whole exchange.
public struct NIOTransport: Transport {
    private let client: HTTPClient

    /// One client per TLS setting, kept for the life of the process: its connection pool is
    /// shared by every request with that setting, and it is never torn down mid-run (an
    /// HTTPClient must be shut down before it is released).
    nonisolated(unsafe) private static var clients: [TLSOptions: HTTPClient] = [:]
    private static let lock = NSLock()

    public init(tls: TLSOptions) throws(APIError) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let client = Self.clients[tls] {
            self.client = client
            return
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: try Self.configuration(tls),
                                                     redirectConfiguration: .follow(max: 10, allowCycles: false),
                                                     decompression: .enabled(limit: .none))
        // A refused connection is an answer (exit 3), as with URLSession; the pool would retry
        // it until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        Self.clients[tls] = client
    }

    private static func configuration(_ tls: TLSOptions) throws(APIError) -> TLSConfiguration {
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

    public func send(_ request: PreparedRequest) async throws(APIError) -> Response {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        let start = DispatchTime.now()
        do {
            switch request.body {
            case .data(let data)?: outgoing.body = .bytes(ByteBuffer(bytes: data))
            case .file(let path)?: outgoing.body = .bytes(ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: path))))
            case nil: break
            }
            let sent = outgoing
            let (status, headers, body) = try await Deadline.race(request.timeout) { [client] in
                let response = try await client.execute(sent, timeout: .seconds(Int64(request.timeout.rounded(.up)) + 1))
                let body = try await response.body.collect(upTo: Int.max)
                return (Int(response.status.code), response.headers, Data(body.readableBytesView))
            }
            let fields = headers.map { HeaderField($0.name, $0.value) }
                .sorted { $0.name.lowercased() < $1.name.lowercased() }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            return Response(status: status, headers: fields, body: body, duration: seconds)
        } catch let error as APIError {
            throw error
        } catch {
            throw Self.describe(error, request)
        }
    }

    static func describe(_ error: Error, _ request: PreparedRequest) -> APIError {
        let host = request.url.host.map { h in request.url.port.map { "\(h):\($0)" } ?? h } ?? request.url.absoluteString
        let text = String(describing: error)
        if let e = error as? HTTPClientError {
            switch e {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return .timedOut(request.timeout)
            case .redirectLimitReached, .redirectCycleDetected: return .network("too many redirects from \(host)")
            case .remoteConnectionClosed: return .network("the connection to \(host) was lost")
            default: break
            }
        }
        // The same words as URLSessionTransport for the same faults (FaultTests runs both).
        if let e = error as? HTTPParserError {
            switch e {
            case .invalidEOFState:
                return .network("\(host) closed the connection before the body was complete")
            case .headerOverflow: return .network("the response head from \(host) is too large")
            case .closedConnection: return .network("the connection to \(host) was lost")
            case .invalidConstant, .invalidVersion, .invalidStatus, .unknown:
                return .network("\(host) sent a malformed status line")
            default: return .network("\(host) sent a malformed response (\(e))")
            }
        }
        if error is NIOHTTPDecompression.DecompressionError {
            return .network("\(host) sent a compressed body that does not decode")
        }
        if let e = error as? IOError, e.errnoCode == ECONNRESET || e.errnoCode == EPIPE {
            return .network("the connection to \(host) was lost")
        }
        if error is NIOSSLError || error is BoringSSLError || text.contains("CERTIFICATE_VERIFY_FAILED") {
            return .network("TLS handshake with \(host) failed: \(tlsProblem(text))")
        }
        if text.contains("connection refused") || text.contains("Connection refused") {
            return .network("cannot connect to \(host) (connection refused)")
        }
        return .network("\(text) (\(host))")
    }

    /// BoringSSL's reason, in words.
    static func tlsProblem(_ text: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "certificate verify failed (an unknown or self-signed issuer, or a name mismatch); "
                + "trust its CA with --cacert FILE, or skip verification with --insecure"
        }
        if text.contains("WRONG_VERSION_NUMBER") { return "the server does not speak TLS on this port" }
        return text
    }
}
