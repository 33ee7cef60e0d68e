import APIDiagnostics
import APIEndpoint
import APITransport
import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// async-http-client's, NIO's and BoringSSL's errors as `NetworkFailure`s in plain words; their own
/// text (type names) kept as the failure's `detail`, which only `-v` prints.
extension NIOConnector {
    /// async-http-client's and NIO's errors as failures. `socket`: the unix socket the request went
    /// over; `received`: the body bytes that came before the fault, and the length the head
    /// announced, for a body cut short.
    static func describe(_ error: Error, _ request: PreparedRequest, socket: String?, received: (bytes: Int64, expected: Int64?)? = nil)
        -> APIError {
        let host = socket.map { "\(request.hostAndPort) (unix socket \($0))" } ?? request.hostAndPort
        let text = String(describing: error)
        if socket != nil, let e = error as? IOError, e.errnoCode == ENOENT || e.errnoCode == ECONNREFUSED {
            return .network(.refused(host: host))
        }
        if let e = error as? HTTPClientError {
            switch e {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return .timedOut(request.timeout)
            case .remoteConnectionClosed: return .network(.reset(host: host))
            default: break
            }
        }
        if let e = error as? ResponseCollector.BodyTooLarge { return .network(.bodyTooLarge(host: host, limit: e.limit)) }
        if let e = error as? HTTPParserError {
            switch e {
            case .invalidEOFState:
                return .network(.truncated(host: host, expected: received?.expected, received: received?.bytes))
            case .headerOverflow: return .network(.headTooLarge(host: host))
            case .closedConnection: return .network(.reset(host: host))
            case .invalidConstant, .invalidVersion, .invalidStatus, .unknown: return .network(.malformedStatusLine(host: host))
            default: return .network(.malformedResponse(host: host, detail: "\(e)"))
            }
        }
        if let e = error as? NIOHTTPDecompression.DecompressionError {
            if case .limit = e { return .network(.inflatesTooMuch(host: host, ratio: ClientPool.inflationRatio)) }
            return .network(.undecodable(host: host))
        }
        if let e = error as? IOError, e.errnoCode == ECONNRESET || e.errnoCode == EPIPE { return .network(.reset(host: host)) }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError || text.contains("CERTIFICATE_VERIFY_FAILED") {
            return .network(.tls(host: host, reason: tlsProblem(text, host: request.url.host ?? host), detail: text))
        }
        if (error as? IOError)?.errnoCode == ECONNREFUSED || text.contains("connection refused") || text.contains("Connection refused") {
            return .network(.refused(host: host))
        }
        // NIO's resolver: `SocketAddressError.UnknownHost` inside a `NIOConnectionError` ("DNS error: …").
        if error is SocketAddressError.UnknownHost || text.contains("UnknownHost") || text.contains("NXDOMAIN")
            || text.contains("could not resolve") || text.contains("lookup failed") {
            return .network(.dns(host: host))
        }
        return .network(.failed(host: host, detail: text))
    }

    /// BoringSSL's and NIOSSL's reason, in words, with what to do about it; `name`: the host the
    /// certificate must name. The library's text itself goes to `NetworkFailure.detail` (`-v`).
    static func tlsProblem(_ text: String, host name: String) -> String {
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "certificate verify failed (an unknown or self-signed issuer, or a name mismatch); "
                + "trust its CA with --cacert FILE, or skip verification with --insecure"
        }
        if text.contains("failedToValidateHostname") {
            return "the certificate is not for \(name); call it by a name the certificate gives, "
                + "or skip verification with --insecure"
        }
        if text.contains("WRONG_VERSION_NUMBER") { return "the server does not speak TLS on this port" }
        if text.contains("CERTIFICATE_REQUIRED") || text.contains("BAD_CERTIFICATE") || text.contains("HANDSHAKE_FAILURE_ON_CLIENT_HELLO") {
            return "the server wants a client certificate it accepts: give one with --cert FILE (or tls: { cert:, key: })"
        }
        if text.contains("PROTOCOL_VERSION") || text.contains("UNSUPPORTED_PROTOCOL") || text.contains("NO_SHARED_CIPHER")
            || text.contains("HANDSHAKE_FAILURE") || text.contains("NO_CIPHERS_AVAILABLE") {
            return "the server and apicli have no TLS version or cipher in common"
        }
        if text.contains("uncleanShutdown") || text.contains("EOF during handshake") {
            return "the server closed the connection during the handshake"
        }
        return "the handshake did not complete (-v shows the TLS library's error)"
    }
}
